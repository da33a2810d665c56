package store

import (
	"bufio"
	"fmt"
	"os"
	"strconv"
	"strings"
	"syscall"

	"golang.org/x/sys/unix"
)

// holdersNamed tells whether holdersOf names the processes that hold a
// file.
const holdersNamed = true

// waitersSeen tells whether othersWaiting sees the processes waiting for
// a file.
const waitersSeen = true

// lockEntry is one line of /proc/locks that concerns a file.
type lockEntry struct {
	kind    string // FLOCK, POSIX, OFDLCK
	blocked bool   // a request waiting for the lock, not a lock held
	pid     int
}

// locksOn lists the locks the kernel reports on f's file.
func locksOn(f *os.File) []lockEntry {
	st, err := f.Stat()
	if err != nil {
		return nil
	}
	sys, ok := st.Sys().(*syscall.Stat_t)
	if !ok {
		return nil
	}
	dev := uint64(sys.Dev)
	want := fmt.Sprintf("%02x:%02x:%d", unix.Major(dev), unix.Minor(dev), sys.Ino)
	pl, err := os.Open("/proc/locks")
	if err != nil {
		return nil
	}
	defer pl.Close()
	var out []lockEntry
	sc := bufio.NewScanner(pl)
	for sc.Scan() {
		// "1: FLOCK  ADVISORY  WRITE 4711 fe:00:9977877 0 EOF", or with
		// "->" after the number for a blocked request.
		fields := strings.Fields(sc.Text())
		if len(fields) < 6 {
			continue
		}
		e := lockEntry{}
		fields = fields[1:]
		if fields[0] == "->" {
			e.blocked = true
			fields = fields[1:]
		}
		if len(fields) < 5 || fields[4] != want {
			continue
		}
		e.kind = fields[0]
		e.pid, _ = strconv.Atoi(fields[3])
		out = append(out, e)
	}
	return out
}

// procArgs splits a process's arguments as /proc/PID/cmdline holds them,
// each ended by a NUL.
func procArgs(raw []byte) []string {
	if len(raw) == 0 {
		return nil
	}
	return strings.Split(strings.TrimRight(string(raw), "\x00"), "\x00")
}

// holdersOf names the processes that hold the engine's lock (a flock)
// on f's file, from /proc/locks and /proc/PID/cmdline.
func holdersOf(f *os.File) []holder {
	var hs []holder
	seen := map[int]bool{}
	for _, e := range locksOn(f) {
		if e.kind != "FLOCK" || e.blocked || e.pid <= 0 || seen[e.pid] {
			continue
		}
		seen[e.pid] = true
		raw, _ := os.ReadFile(fmt.Sprintf("/proc/%d/cmdline", e.pid))
		hs = append(hs, holder{pid: e.pid, command: renderCommand(procArgs(raw))})
	}
	return hs
}

// The waiting mark is a shared lock of the kernel's other kind (an open
// file description lock, which never conflicts with the engine's flock)
// on one byte far past the end of any database. A process that waits for
// the file holds it; a process that holds the file looks for it between
// two commits and, when it is there, steps aside.
const markOffset = 1 << 62

func markLock(typ int16) unix.Flock_t {
	return unix.Flock_t{Type: typ, Whence: 0, Start: markOffset, Len: 1}
}

// markWaiting shows that this process waits for f's file; the returned
// func takes the mark away. Where the kernel has no such locks, it does
// nothing.
func markWaiting(f *os.File) func() {
	lk := markLock(unix.F_RDLCK)
	if err := unix.FcntlFlock(f.Fd(), unix.F_OFD_SETLK, &lk); err != nil {
		return func() {}
	}
	return func() {
		un := markLock(unix.F_UNLCK)
		unix.FcntlFlock(f.Fd(), unix.F_OFD_SETLK, &un)
	}
}

// othersWaiting reports whether another process waits for f's file:
// it holds the waiting mark, or the kernel queues its blocked lock
// request (a process that waits in flock(2) itself).
func othersWaiting(f *os.File) bool {
	lk := markLock(unix.F_WRLCK)
	if err := unix.FcntlFlock(f.Fd(), unix.F_OFD_GETLK, &lk); err == nil && lk.Type != unix.F_UNLCK {
		return true
	}
	for _, e := range locksOn(f) {
		if e.blocked && e.kind == "FLOCK" {
			return true
		}
	}
	return false
}
