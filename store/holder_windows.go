//go:build windows

package store

import (
	"os"
	"unsafe"

	"golang.org/x/sys/windows"
)

// holdersNamed tells whether holdersOf names the processes that hold a
// file.
const holdersNamed = true

// waitersSeen tells whether othersWaiting sees the processes waiting for
// a file.
const waitersSeen = true

// holdersOf names the processes that hold the file: of every running
// process, those whose holder byte (see lock_windows.go) is locked, with
// their command lines.
func holdersOf(f *os.File) []holder {
	var hs []holder
	for _, p := range processes() {
		if p.pid == os.Getpid() {
			continue
		}
		off := holderOffset + uint64(p.pid)
		ok, err := lockRange(f, off, false)
		if err != nil {
			continue
		}
		if ok {
			unlockRange(f, off)
			continue
		}
		cmd := processCommand(p.pid)
		if cmd == "" {
			cmd = renderCommand([]string{p.exe})
		}
		hs = append(hs, holder{pid: p.pid, command: cmd})
	}
	return hs
}

// process is a running process: its id and its program's file name.
type process struct {
	pid int
	exe string
}

// processes lists the running processes.
func processes() []process {
	snap, err := windows.CreateToolhelp32Snapshot(windows.TH32CS_SNAPPROCESS, 0)
	if err != nil {
		return nil
	}
	defer windows.CloseHandle(snap)
	var out []process
	e := windows.ProcessEntry32{Size: uint32(unsafe.Sizeof(windows.ProcessEntry32{}))}
	for err = windows.Process32First(snap, &e); err == nil; err = windows.Process32Next(snap, &e) {
		out = append(out, process{pid: int(e.ProcessID), exe: windows.UTF16ToString(e.ExeFile[:])})
	}
	return out
}

// processCommand is process pid's command line as renderCommand renders
// it, or "" when it cannot be read (another user's process).
func processCommand(pid int) string {
	h, err := windows.OpenProcess(windows.PROCESS_QUERY_LIMITED_INFORMATION, false, uint32(pid))
	if err != nil {
		return ""
	}
	defer windows.CloseHandle(h)
	// A UNICODE_STRING followed by its text: at most 32767 UTF-16 units.
	buf := make([]byte, unsafe.Sizeof(windows.NTUnicodeString{})+65536)
	var n uint32
	if err := windows.NtQueryInformationProcess(h, windows.ProcessCommandLineInformation, unsafe.Pointer(&buf[0]), uint32(len(buf)), &n); err != nil {
		return ""
	}
	line := (*windows.NTUnicodeString)(unsafe.Pointer(&buf[0])).String()
	args, err := windows.DecomposeCommandLine(line)
	if err != nil {
		return ""
	}
	return renderCommand(args)
}

// markWaiting shows that this process waits for f's file (a shared lock
// on the waiting mark); the returned func takes the mark away.
func markWaiting(f *os.File) func() {
	if ok, err := lockRangeSoon(f, markOffset, false); !ok || err != nil {
		return func() {}
	}
	return func() { unlockRange(f, markOffset) }
}

// othersWaiting reports whether another process waits for f's file: the
// waiting mark cannot be locked exclusively.
func othersWaiting(f *os.File) bool {
	ok, err := lockRange(f, markOffset, true)
	if err != nil {
		return false
	}
	if ok {
		unlockRange(f, markOffset)
	}
	return !ok
}
