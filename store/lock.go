//go:build unix || windows

package store

import (
	"context"
	"errors"
	"os"
	"time"
)

// pollInterval is how often a waiting Open tries the lock again.
const pollInterval = 10 * time.Millisecond

// errBusy is lockFile's answer when the wait ran out.
var errBusy = errors.New("the file is locked by another process")

// quietWait is how long lockFile waits before it says that it waits (a
// third of a shorter wait): a holder about to let go (an export whose
// output was all read, ending) is not worth a line.
const quietWait = 250 * time.Millisecond

// lockFile takes the file's lock (tryLock), exclusive for writing and
// shared for reading. When another process holds it, or others wait for
// it already, lockFile marks itself as waiting (so that a long import
// lets it in between two commits), joins the file's queue (joinQueue),
// and tries again every pollInterval, once no process that has waited
// longer is still waiting, until the lock is free, wait has passed
// (errBusy) or ctx ends: processes that share a file take it in the
// order they came to it. Once it has waited quietWait
// and still waits, calls onWait once with who holds the file. A holder
// that the system names is named: when it has just let go (it is gone
// from the system's list), the lock is tried again before anything is
// said.
func lockFile(ctx context.Context, f *os.File, exclusive bool, wait time.Duration, onWait func(string)) error {
	if wait <= 0 || !queued(f) {
		if ok, err := tryLock(f, exclusive); ok || err != nil {
			return err
		}
	}
	if wait <= 0 {
		return errBusy
	}
	unmark := markWaiting(f)
	defer unmark()
	ticket, leave := joinQueue(f)
	defer leave()
	start := time.Now()
	deadline, quiet := start.Add(wait), start.Add(min(quietWait, wait/3))
	t := time.NewTicker(pollInterval)
	defer t.Stop()
	for {
		if onWait != nil && time.Now().After(quiet) {
			hs := holdersOf(f)
			if len(hs) > 0 || !holdersNamed || time.Now().After(quiet.Add(quietWait)) {
				onWait(describeHolders(hs))
				onWait = nil
			}
		}
		select {
		case <-ctx.Done():
			return ctx.Err()
		case <-t.C:
		}
		if !olderWaiting(f, ticket) {
			if ok, err := tryLock(f, exclusive); ok || err != nil {
				return err
			}
		}
		if time.Now().After(deadline) {
			return errBusy
		}
	}
}
