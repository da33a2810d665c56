package cmd

import (
	"context"
	"sync"
	"sync/atomic"
	"time"

	"github.com/spf13/cobra"
	"github.com/tstable/tstable/odata"
	"github.com/tstable/tstable/store"
)

// keptDB holds the local database open between the commands the shell
// runs, so that a script of many small commands (tstable shell <
// gets.txt) does not open, lock, map and let go of the file for each. It
// shares the file as a long import does, letting go of it:
//   - when another process waits for it, seen between two commands (at
//     most every waitCheckEvery) and while the shell is idle; then it
//     gives that process up to two seconds to take the file first; where
//     the system does not show who waits (macOS), every blindHold for a
//     moment instead;
//   - when the shell has run nothing for keepIdle (a person typing, a
//     pipe that is slow to say the next line);
//   - before a command that does not reach the file only through the
//     Factory (check, compact, recover, copy, …: see keptCommands);
//   - when a command finds the file damaged, and when the shell ends.
//
// Held for writing, the file is held exclusively: a reader in another
// process waits (marking itself) until the shell lets go.
type keptDB struct {
	mu        sync.Mutex
	db        *store.DB
	path      string
	write     bool
	busy      int       // handed out and not yet given back
	lastUsed  time.Time // when the last command gave it back
	lastCheck time.Time // when others' waiting was last looked for
	opened    time.Time // when it was opened
	stop      chan struct{}
}

// keptOpens counts the files the shells of this process opened to keep
// (tests read it).
var keptOpens atomic.Int64

const (
	keepIdle       = 200 * time.Millisecond
	waitCheckEvery = 20 * time.Millisecond
	// blindHold is how long the file is kept at a time where waiting
	// processes cannot be seen (macOS).
	blindHold = time.Second
)

// keptCommands are the commands that reach the local file only through
// Factory.Read, Write and with, and so may use the file the shell keeps.
var keptCommands = map[string]bool{
	"table": true, "insert": true, "upsert": true, "merge": true, "replace": true, "get": true,
	"delete": true, "query": true, "explain": true, "batch": true, "import": true, "export": true,
	"status": true, "stats": true, "lint": true, "advise": true, "sample": true,
}

// serves reports whether the command that args name in tree (by its
// first word, as newRootFor reads it) may use the kept file; when it may
// not, the file is let go of first. Between two
// commands that may, it lets go when another process waits.
func (k *keptDB) serves(tree *cobra.Command, args []string) bool {
	if !keptCommands[commandName(tree, args)] {
		k.letGo()
		return false
	}
	k.mu.Lock()
	defer k.mu.Unlock()
	if k.db == nil || k.busy > 0 || time.Since(k.lastCheck) < waitCheckEvery {
		return true
	}
	k.lastCheck = time.Now()
	switch {
	case store.SeesWaiters() && k.db.OthersWaiting():
		k.closeLocked()
	case !store.SeesWaiters() && time.Since(k.opened) >= blindHold:
		// Who waits cannot be seen here: let go now and then instead.
		k.closeLocked()
		time.Sleep(store.PollPause)
	}
	return true
}

// acquire returns the kept DB for path, opening it (as f opens any) when
// none is kept, or when the one kept is another file or read-only and
// write is asked. ok is false when the kept one cannot serve (it is in
// use and would have to be reopened): then the caller opens its own.
func (k *keptDB) acquire(ctx context.Context, f *Factory, path string, write bool) (db *store.DB, ok bool, err error) {
	k.mu.Lock()
	defer k.mu.Unlock()
	if k.db != nil && (k.path != path || (write && !k.write)) {
		if k.busy > 0 {
			return nil, false, nil
		}
		k.closeLocked()
	}
	if k.db == nil {
		db, err := store.OpenContext(ctx, path, f.storeOptions(path, write))
		if err != nil {
			return nil, true, err
		}
		f.noteHeader(db)
		now := time.Now()
		k.db, k.path, k.write, k.lastCheck, k.lastUsed, k.opened = db, path, write, now, now, now
		keptOpens.Add(1)
		k.startWatch()
	}
	k.busy++
	return k.db, true, nil
}

// release gives back what acquire returned, with the error of the work
// done with it: a file found damaged is let go of.
func (k *keptDB) release(err error) {
	k.mu.Lock()
	defer k.mu.Unlock()
	k.busy--
	k.lastUsed = time.Now()
	if k.busy == 0 && odata.IsCode(err, odata.CodeDatabaseDamaged) {
		k.closeLocked()
	}
}

// holds reports whether k (nil: none) holds the file at path open now,
// and with it the file's lock.
func (k *keptDB) holds(path string) bool {
	if k == nil {
		return false
	}
	k.mu.Lock()
	defer k.mu.Unlock()
	return k.db != nil && k.path == path
}

// letGo closes the kept file, if it is not in use.
func (k *keptDB) letGo() {
	k.mu.Lock()
	defer k.mu.Unlock()
	if k.busy == 0 {
		k.closeLocked()
	}
}

// closeLocked closes the kept file (k.mu held), letting a waiting
// process in first, and stops watching.
func (k *keptDB) closeLocked() {
	if k.db == nil {
		return
	}
	k.db.CloseForWaiter() // what was read or written is done; a failure to close changes nothing of it
	k.db = nil
	close(k.stop)
}

// startWatch watches the kept file while the shell is idle (k.mu held):
// it lets go of it after keepIdle without use, or at once when another
// process waits.
func (k *keptDB) startWatch() {
	stop := make(chan struct{})
	k.stop = stop
	go func() {
		tick := time.NewTicker(keepIdle / 4)
		defer tick.Stop()
		for {
			select {
			case <-stop:
				return
			case <-tick.C:
				k.mu.Lock()
				if k.db != nil && k.busy == 0 && (time.Since(k.lastUsed) >= keepIdle || k.db.OthersWaiting()) {
					k.closeLocked()
				}
				k.mu.Unlock()
			}
		}
	}()
}
