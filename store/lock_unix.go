//go:build unix

package store

import (
	"context"
	"errors"
	"os"
	"syscall"
	"time"
)

// engineLocksItself is false here: Open takes the file's lock itself
// (lockFile), so that it can wait, name the holder and be seen waiting,
// and the engine, handed the locked file, finds the lock already held.
const engineLocksItself = false

// pollInterval is how often a waiting Open tries the lock again.
const pollInterval = 10 * time.Millisecond

// errBusy is lockFile's answer when the wait ran out.
var errBusy = errors.New("the file is locked by another process")

// lockFile takes the file's lock, exclusive for writing and shared for
// reading, as the engine does (flock). When another process holds it,
// lockFile calls onWait once with who that is, marks itself as waiting
// (so that a long import lets it in between two commits), and tries
// again every pollInterval until the lock is free, wait has passed
// (errBusy) or ctx ends.
func lockFile(ctx context.Context, f *os.File, exclusive bool, wait time.Duration, onWait func(string)) error {
	how := syscall.LOCK_SH
	if exclusive {
		how = syscall.LOCK_EX
	}
	try := func() (bool, error) {
		for {
			err := syscall.Flock(int(f.Fd()), how|syscall.LOCK_NB)
			switch err {
			case nil:
				return true, nil
			case syscall.EINTR:
				continue
			case syscall.EWOULDBLOCK:
				return false, nil
			}
			return false, err
		}
	}
	if ok, err := try(); ok || err != nil {
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
		if ok, err := try(); ok || err != nil {
			return err
		}
		if time.Now().After(deadline) {
			return errBusy
		}
	}
}

// processAlive reports whether a process with id pid runs.
func processAlive(pid int) bool {
	if pid <= 0 {
		return false
	}
	err := syscall.Kill(pid, 0)
	return err == nil || errors.Is(err, syscall.EPERM)
}
