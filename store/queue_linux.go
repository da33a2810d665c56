package store

import (
	"os"
	"time"

	"golang.org/x/sys/unix"
)

// The queue of processes waiting for a file is kept in the file itself,
// as the waiting mark is, with locks of the kernel's other kind (open
// file description locks, which never conflict with the engine's flock)
// on bytes far past the end of any database: a waiting process holds the
// byte queueOffset+ticket, its ticket being the microsecond it started to
// wait. It tries the engine's lock only when no byte before its own is
// held (no process has waited longer), and a process that comes to the
// file while others wait joins the queue rather than taking the file
// before them. A process that ends, or is killed, leaves the queue with
// its file.
const queueOffset = markOffset + 2

// queueLen bounds the tickets: microseconds since 1970 for some
// thousands of years.
const queueLen = 1 << 60

func queueLock(typ int16, start, n int64) unix.Flock_t {
	return unix.Flock_t{Type: typ, Whence: 0, Start: queueOffset + start, Len: n}
}

// queued reports whether any process waits in f's file's queue.
func queued(f *os.File) bool {
	return heldIn(f, 0, queueLen)
}

// heldIn reports whether another open file holds a byte of the queue
// from ticket start, n long.
func heldIn(f *os.File, start, n int64) bool {
	lk := queueLock(unix.F_WRLCK, start, n)
	return unix.FcntlFlock(f.Fd(), unix.F_OFD_GETLK, &lk) == nil && lk.Type != unix.F_UNLCK
}

// joinQueue puts this process in f's file's queue and returns its ticket
// and the func that takes it out. Where the kernel has no such locks, the
// ticket is -1: no place in a queue, and olderWaiting is always false.
func joinQueue(f *os.File) (int64, func()) {
	t := time.Now().UnixMicro() % queueLen
	for range 64 { // two processes that start in the same microsecond
		lk := queueLock(unix.F_WRLCK, t, 1)
		err := unix.FcntlFlock(f.Fd(), unix.F_OFD_SETLK, &lk)
		if err == nil {
			return t, func() {
				un := queueLock(unix.F_UNLCK, t, 1)
				unix.FcntlFlock(f.Fd(), unix.F_OFD_SETLK, &un)
			}
		}
		if err != unix.EAGAIN && err != unix.EACCES {
			break
		}
		t++
	}
	return -1, func() {}
}

// olderWaiting reports whether a process that has waited longer than
// the holder of ticket is still in the queue.
func olderWaiting(f *os.File, ticket int64) bool {
	return ticket > 0 && heldIn(f, 0, ticket)
}
