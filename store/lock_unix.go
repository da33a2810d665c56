//go:build unix

package store

import (
	"errors"
	"os"
	"syscall"
)

// engineLocksItself is false here: Open takes the file's lock itself
// (lockFile), so that it can wait, name the holder and be seen waiting,
// and the engine, handed the locked file, finds the lock already held.
const engineLocksItself = false

// trimOnClose: a file the engine has mapped can be cut (trimTail).
const trimOnClose = true

// closeBeforeReplace is false here: Compact renames its copy over the
// file while it still holds the file, so no other process gets in between.
const closeBeforeReplace = false

// tryLock takes the file's lock as the engine does (flock), without
// waiting: false when another process holds it.
func tryLock(f *os.File, exclusive bool) (bool, error) {
	how := syscall.LOCK_SH
	if exclusive {
		how = syscall.LOCK_EX
	}
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

// releaseFile does nothing here: the engine's Close releases the flock.
func releaseFile(f *os.File) {}

// ProcessAlive reports whether a process with id pid runs (the owner of a
// staging area left in a database, the server named in a .serve file).
func ProcessAlive(pid int) bool {
	if pid <= 0 {
		return false
	}
	err := syscall.Kill(pid, 0)
	return err == nil || errors.Is(err, syscall.EPERM)
}
