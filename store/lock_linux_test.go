package store

import (
	"fmt"
	"os"
	"os/exec"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/tstable/tstable/odata"
)

// Another program's flock on the file (util-linux's flock) is named as
// tstable's own holders are, from /proc/locks.
func TestHolderNamedForAnotherProgram(t *testing.T) {
	flock, err := exec.LookPath("flock")
	if err != nil {
		t.Skip("flock (util-linux) is not installed")
	}
	path := newFile(t)
	cmd := exec.Command(flock, "--exclusive", path, "sleep", "30")
	cmd.SysProcAttr = &syscall.SysProcAttr{Setpgid: true} // sleep holds the lock too: end both
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	defer func() { syscall.Kill(-cmd.Process.Pid, syscall.SIGKILL); cmd.Wait() }()
	for deadline := time.Now().Add(10 * time.Second); ; time.Sleep(20 * time.Millisecond) {
		data, _ := os.ReadFile("/proc/locks")
		if strings.Contains(string(data), fmt.Sprintf(" %d ", cmd.Process.Pid)) {
			break // flock holds the file
		}
		if time.Now().After(deadline) {
			t.Fatal("flock did not take the file")
		}
	}
	var told string
	_, err = Open(path, &Options{Wait: 100 * time.Millisecond, OnWait: func(h string) { told = h }})
	wantCode(t, err, odata.CodeDatabaseLocked, 409)
	want := fmt.Sprintf("flock --exclusive %s sleep 30 (pid %d)", path, cmd.Process.Pid)
	if len(want) > 70 {
		want = fmt.Sprintf("(pid %d)", cmd.Process.Pid)
	}
	if !strings.HasPrefix(told, "flock") || !strings.Contains(told, want) {
		t.Fatalf("OnWait was told %q, want %q", told, want)
	}
}

// Another program that waits in flock(2) for the file is seen waiting
// (from /proc/locks, read off the caller's way), within about twice
// blockedLookEvery of the first question: a long holder lets it in.
func TestAnotherProgramWaitingInFlockIsSeen(t *testing.T) {
	flock, err := exec.LookPath("flock")
	if err != nil {
		t.Skip("flock (util-linux) is not installed")
	}
	db, path := openTemp(t)
	if db.OthersWaiting() {
		t.Fatal("a process waits before any does")
	}
	cmd := exec.Command(flock, "--exclusive", path, "true")
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	defer func() { cmd.Process.Kill(); cmd.Wait() }()
	began := time.Now()
	for !db.OthersWaiting() {
		if time.Since(began) > 3*blockedLookEvery {
			t.Fatalf("flock(2) has waited %s and is not seen", time.Since(began).Round(time.Millisecond))
		}
		time.Sleep(10 * time.Millisecond)
	}
	db.Close()
	if err := cmd.Wait(); err != nil {
		t.Fatalf("flock, let in: %v", err)
	}
}

func TestProcArgs(t *testing.T) {
	for raw, want := range map[string]string{
		"/usr/local/bin/tstable\x00import\x00People\x00big.jsonl\x00": "tstable import People big.jsonl",
		"tstable\x00query\x00T\x00--filter\x00A eq 'x y'\x00":         `tstable query T --filter "A eq 'x y'"`,
		"": "",
	} {
		if got := renderCommand(procArgs([]byte(raw))); got != want {
			t.Errorf("%q: got %q, want %q", raw, got, want)
		}
	}
}
