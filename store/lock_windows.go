//go:build windows

package store

import (
	"errors"
	"os"
	"time"

	"golang.org/x/sys/windows"
)

// engineLocksItself is false here: Open takes the file's lock itself
// (lockFile), so that it can wait, name the holder and be seen waiting.
// The engine then locks a byte of its own (the file's last possible
// byte); every tstable process takes the gate below first, so that lock
// is never contended.
const engineLocksItself = false

// trimOnClose: a file the engine has mapped cannot be cut (trimTail).
const trimOnClose = false

// closeBeforeReplace is true here: Windows neither replaces a file that a
// process holds open nor one that is mapped, so Compact closes the
// database before it renames its copy over it. Another process that
// opens the file in that instant makes the rename fail, and the database
// is left as it was (Compact says so).
const closeBeforeReplace = true

// Windows locks byte ranges, any of them past the end of the file, and a
// lock belongs to the handle that took it. tstable's ranges lie far past
// the end of any database:
//
//   - gateOffset is the file's lock: shared to read, exclusive to write;
//   - markOffset is the waiting mark: a process that waits for the file
//     holds it shared, and the holder tries it exclusively to see whether
//     anyone waits (see markWaiting);
//   - holderOffset+pid is the byte a process holds exclusively while it
//     holds the gate, so that another finds who holds the file by trying
//     each running process's byte (see holdersOf).
const (
	gateOffset   = 1 << 62
	markOffset   = gateOffset + 1
	holderOffset = gateOffset + 1<<32
)

// lockRange locks one byte at off through f's handle, without waiting:
// false when another handle holds a lock there that conflicts.
func lockRange(f *os.File, off uint64, exclusive bool) (bool, error) {
	flags := uint32(windows.LOCKFILE_FAIL_IMMEDIATELY)
	if exclusive {
		flags |= windows.LOCKFILE_EXCLUSIVE_LOCK
	}
	ov := &windows.Overlapped{Offset: uint32(off), OffsetHigh: uint32(off >> 32)}
	err := windows.LockFileEx(windows.Handle(f.Fd()), flags, 0, 1, 0, ov)
	switch {
	case err == nil:
		return true, nil
	case errors.Is(err, windows.ERROR_LOCK_VIOLATION):
		return false, nil
	}
	return false, err
}

// unlockRange releases the byte at off that f's handle locked.
func unlockRange(f *os.File, off uint64) {
	ov := &windows.Overlapped{Offset: uint32(off), OffsetHigh: uint32(off >> 32)}
	windows.UnlockFileEx(windows.Handle(f.Fd()), 0, 1, 0, ov)
}

// lockRangeSoon is lockRange tried for up to 100 ms: for a byte that
// another process only tries for an instant (a probe), never holds.
func lockRangeSoon(f *os.File, off uint64, exclusive bool) (bool, error) {
	for end := time.Now().Add(100 * time.Millisecond); ; time.Sleep(time.Millisecond) {
		ok, err := lockRange(f, off, exclusive)
		if ok || err != nil || time.Now().After(end) {
			return ok, err
		}
	}
}

// tryLock takes the gate without waiting (false when another process
// holds it), then this process's holder byte.
func tryLock(f *os.File, exclusive bool) (bool, error) {
	if ok, err := lockRange(f, gateOffset, exclusive); !ok || err != nil {
		return false, err
	}
	if _, err := lockRangeSoon(f, holderOffset+uint64(os.Getpid()), true); err != nil {
		unlockRange(f, gateOffset)
		return false, err
	}
	return true, nil
}

// releaseFile lets go of the holder byte and the gate before the handle
// is closed: Windows releases a closed handle's locks only "when
// resources allow".
func releaseFile(f *os.File) {
	unlockRange(f, holderOffset+uint64(os.Getpid()))
	unlockRange(f, gateOffset)
}

// stillActive is the exit code GetExitCodeProcess gives a running process.
const stillActive = 259

// ProcessAlive reports whether a process with id pid runs (the owner of a
// staging area left in a database, the server named in a .serve file).
func ProcessAlive(pid int) bool {
	if pid <= 0 {
		return false
	}
	h, err := windows.OpenProcess(windows.PROCESS_QUERY_LIMITED_INFORMATION, false, uint32(pid))
	if err != nil {
		return errors.Is(err, windows.ERROR_ACCESS_DENIED) // there, but not ours to ask
	}
	defer windows.CloseHandle(h)
	var code uint32
	if err := windows.GetExitCodeProcess(h, &code); err != nil {
		return true
	}
	return code == stillActive
}
