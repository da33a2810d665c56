package store

import (
	"context"
	"os"
	"time"

	"github.com/tstable/tstable/odata"
)

// A caller that keeps a DB open across many short calls (the shell
// running a script) shares the file as a long load does: between two
// calls it asks OthersWaiting, and when another process waits it lets go
// with CloseForWaiter, which closes the file and gives that process time
// to take it before the caller opens it again.

// OthersWaiting reports whether another process waits for the file
// (always false where the system does not tell: see the package doc).
func (db *DB) OthersWaiting() bool {
	db.mu.RLock()
	defer db.mu.RUnlock()
	return db.file != nil && othersWaiting(db.file)
}

// CloseForWaiter closes db and, when another process waits for the file,
// gives it up to two seconds to take it, so that opening the file again
// right after does not win the lock back first.
func (db *DB) CloseForWaiter() error {
	db.mu.Lock()
	defer db.mu.Unlock()
	waiting := db.file != nil && othersWaiting(db.file)
	if err := db.closeEngine(); err != nil {
		return err
	}
	if waiting {
		letWaiterIn(db.path)
	}
	return nil
}

// stepAside lets another process in during a long call (a load between
// its chunks, a read between two keys: see readturn.go): when one waits
// for the file, the DB closes it, gives the waiter up to two seconds to
// take it, and opens it again, waiting as Open does.
func (db *DB) stepAside(ctx context.Context) error {
	db.mu.Lock()
	defer db.mu.Unlock()
	if db.bolt == nil && db.released {
		return nil // not holding it at all
	}
	if db.bolt == nil {
		return odata.Errorf(odata.CodeInternalError, "database %s is closed", db.path)
	}
	if db.damaged.Load() != nil || !othersWaiting(db.file) {
		return nil
	}
	if err := db.closeEngine(); err != nil {
		return err
	}
	letWaiterIn(db.path)
	return db.open(ctx)
}

// letWaiterIn waits, up to two seconds, until no process waits for the
// file at path any more: the one that waited has taken it.
func letWaiterIn(path string) {
	probe, err := os.Open(path)
	if err != nil {
		return
	}
	defer probe.Close()
	for end := time.Now().Add(2 * time.Second); othersWaiting(probe) && time.Now().Before(end); {
		time.Sleep(2 * time.Millisecond)
	}
}

// SeesWaiters reports whether OthersWaiting can see a waiting process on
// this system. Where it cannot (macOS), a caller that keeps the file lets
// go of it now and then for at least PollPause, so that a waiting process,
// which tries the lock every few milliseconds, gets in.
func SeesWaiters() bool { return waitersSeen }

// PollPause is long enough for a process waiting for the file to try its
// lock twice.
const PollPause = 2 * pollInterval
