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

// lockFile takes the file's lock (tryLock), exclusive for writing and
// shared for reading. When another process holds it, lockFile calls
// onWait once with who that is, marks itself as waiting (so that a long
// import lets it in between two commits), and tries again every
// pollInterval until the lock is free, wait has passed (errBusy) or ctx
// ends.
func lockFile(ctx context.Context, f *os.File, exclusive bool, wait time.Duration, onWait func(string)) error {
	if ok, err := tryLock(f, exclusive); ok || err != nil {
		return err
	}
	if wait <= 0 {
		return errBusy
	}
	if onWait != nil {
		onWait(describeHolders(holdersOf(f)))
	}
	unmark := markWaiting(f)
	defer unmark()
	deadline := time.Now().Add(wait)
	t := time.NewTicker(pollInterval)
	defer t.Stop()
	for {
		select {
		case <-ctx.Done():
			return ctx.Err()
		case <-t.C:
		}
		if ok, err := tryLock(f, exclusive); ok || err != nil {
			return err
		}
		if time.Now().After(deadline) {
			return errBusy
		}
	}
}
