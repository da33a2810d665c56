package store

import (
	"bufio"
	"fmt"
	"os"
	"strconv"
	"strings"
	"sync"
	"syscall"
	"time"

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

// fileID is f's file as /proc/locks names it ("fe:00:9977877": device
// and inode), "" when it cannot be told.
func fileID(f *os.File) string {
	st, err := f.Stat()
	if err != nil {
		return ""
	}
	sys, ok := st.Sys().(*syscall.Stat_t)
	if !ok {
		return ""
	}
	dev := uint64(sys.Dev)
	return fmt.Sprintf("%02x:%02x:%d", unix.Major(dev), unix.Minor(dev), sys.Ino)
}

// locksOn lists the locks the kernel reports on f's file.
func locksOn(f *os.File) []lockEntry { return locksOf(fileID(f)) }

// locksOf lists the locks the kernel reports on the file want (as fileID
// names it; "": none).
func locksOf(want string) []lockEntry {
	if want == "" {
		return nil
	}
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
// request (a process that waits in flock(2) itself), as the last look at
// the kernel's list of locks saw (see blockedInFlock).
func othersWaiting(f *os.File) bool {
	lk := markLock(unix.F_WRLCK)
	if err := unix.FcntlFlock(f.Fd(), unix.F_OFD_GETLK, &lk); err == nil && lk.Type != unix.F_UNLCK {
		return true
	}
	return blockedInFlock(f)
}

// blockedLookEvery is how often othersWaiting reads /proc/locks, and it
// never waits for the read. Reading /proc/locks takes the kernel's lock
// of every file lock for writing, which waits for a grace period of the
// kernel's read-copy-update (several milliseconds, off the CPU, and a
// process cannot end while one of its threads waits so): a script of
// short commands that waited for it at its pauses would lose that each
// time. So the read runs on a goroutine of its own, othersWaiting answers
// from the last one, and the first read comes only once othersWaiting
// has been asked about the file for blockedLookEvery (a command that
// ends sooner never reads it). Every tstable that waits sets the mark,
// which is seen at once; a process that waits in flock(2) itself is seen
// within about twice this.
const blockedLookEvery = time.Second

// blockedLook is the last look at /proc/locks, for one file.
var blockedLook struct {
	mu      sync.Mutex
	file    string    // the file (device and inode, as /proc/locks names it)
	at      time.Time // when its last look ended (or it was first asked about)
	looking bool      // a look runs
	blocked bool      // a process waited in flock(2) for it then
}

// blockedInFlock reports whether a process waits in flock(2) for f's
// file, as the last look at /proc/locks saw it, and starts a new look
// when that one is older than blockedLookEvery.
func blockedInFlock(f *os.File) bool {
	id := fileID(f)
	if id == "" {
		return false
	}
	blockedLook.mu.Lock()
	defer blockedLook.mu.Unlock()
	if id != blockedLook.file {
		blockedLook.file, blockedLook.at, blockedLook.blocked = id, time.Now(), false
	}
	if !blockedLook.looking && time.Since(blockedLook.at) >= blockedLookEvery {
		blockedLook.looking = true
		go lookForBlocked(id)
	}
	return blockedLook.blocked
}

// lookForBlocked reads /proc/locks for a process waiting in flock(2) for
// the file id, and keeps what it saw in blockedLook.
func lookForBlocked(id string) {
	blocked := false
	for _, e := range locksOf(id) {
		if e.blocked && e.kind == "FLOCK" {
			blocked = true
			break
		}
	}
	blockedLook.mu.Lock()
	defer blockedLook.mu.Unlock()
	blockedLook.looking = false
	if blockedLook.file == id {
		blockedLook.at, blockedLook.blocked = time.Now(), blocked
	}
}
