package shell_test

import (
	"context"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
	"time"

	"github.com/tstable/tstable/store"
)

// These tests drive the real shell in a terminal, through tmux: keys are
// sent with send-keys and the screen read with capture-pane. They need
// tmux and run under make test-shell (TSTABLE_TMUX_TEST=1).

// tmuxShell is a tstable shell running in a tmux pane.
type tmuxShell struct {
	t       *testing.T
	session string
}

func buildTstable(t *testing.T) string {
	t.Helper()
	bin := filepath.Join(t.TempDir(), "tstable")
	cmd := exec.Command("go", "build", "-o", bin, "./cmd/tstable")
	cmd.Dir = ".."
	if out, err := cmd.CombinedOutput(); err != nil {
		t.Fatalf("go build: %v\n%s", err, out)
	}
	return bin
}

func needTmux(t *testing.T) {
	t.Helper()
	if os.Getenv("TSTABLE_TMUX_TEST") == "" {
		t.Skip("set TSTABLE_TMUX_TEST=1 (make test-shell) to drive the shell in tmux")
	}
	if _, err := exec.LookPath("tmux"); err != nil {
		t.Fatal("tmux is not installed (apt-get install tmux)")
	}
}

// startShell runs command in a new tmux session, followed by a report of
// its exit status and the terminal's settings.
func startShell(t *testing.T, env []string, command string) *tmuxShell {
	t.Helper()
	s := &tmuxShell{t: t, session: fmt.Sprintf("tstable-test-%d", time.Now().UnixNano())}
	// The wrapper traps interrupts so that a Ctrl-C sent to the shell's
	// process group does not end the wrapper too (a login shell's job
	// control keeps it out of the group; this sh has none).
	script := "trap : INT; " + command + `; echo "EXITED $?"; stty -a | tr '\n' ' '; echo; echo END; sleep 600`
	args := []string{"new-session", "-d", "-s", s.session, "-x", "160", "-y", "50", "env"}
	args = append(args, env...)
	args = append(args, "TERM=xterm-256color", "sh", "-c", script)
	if out, err := exec.Command("tmux", args...).CombinedOutput(); err != nil {
		t.Fatalf("tmux new-session: %v\n%s", err, out)
	}
	t.Cleanup(func() { exec.Command("tmux", "kill-session", "-t", s.session).Run() })
	return s
}

func (s *tmuxShell) keys(keys ...string) {
	s.t.Helper()
	for _, k := range keys {
		if out, err := exec.Command("tmux", "send-keys", "-t", s.session, k).CombinedOutput(); err != nil {
			s.t.Fatalf("send-keys %q: %v\n%s", k, err, out)
		}
		time.Sleep(150 * time.Millisecond) // one key event at a time, as typed
	}
}

// text types literal text.
func (s *tmuxShell) text(text string) {
	s.t.Helper()
	if out, err := exec.Command("tmux", "send-keys", "-t", s.session, "-l", text).CombinedOutput(); err != nil {
		s.t.Fatalf("send-keys: %v\n%s", err, out)
	}
	time.Sleep(150 * time.Millisecond)
}

func (s *tmuxShell) screen() string {
	out, err := exec.Command("tmux", "capture-pane", "-p", "-J", "-S", "-500", "-t", s.session).CombinedOutput()
	if err != nil {
		s.t.Fatalf("capture-pane: %v: %s", err, out)
	}
	return string(out)
}

// waitFor waits until the screen matches re, and returns the screen.
func (s *tmuxShell) waitFor(re string) string {
	s.t.Helper()
	rx := regexp.MustCompile(re)
	deadline := time.Now().Add(15 * time.Second)
	for {
		sc := s.screen()
		if rx.MatchString(sc) {
			return sc
		}
		if time.Now().After(deadline) {
			s.t.Fatalf("timed out waiting for %q; the screen:\n%s", re, sc)
		}
		time.Sleep(100 * time.Millisecond)
	}
}

// saneTerminal checks the settings stty printed after the shell ended.
func saneTerminal(t *testing.T, screen string) {
	t.Helper()
	i := strings.LastIndex(screen, "EXITED")
	settings := screen[i:]
	for _, want := range []string{" icanon", " echo ", " isig", " icrnl"} {
		if !strings.Contains(settings, want) || strings.Contains(settings, " -"+strings.TrimSpace(want)+" ") {
			t.Errorf("the terminal was left without %s:\n%s", strings.TrimSpace(want), settings)
		}
	}
}

func TestTmuxShellSession(t *testing.T) {
	needTmux(t)
	bin := buildTstable(t)
	dir := t.TempDir()
	db := filepath.Join(dir, "t.db")
	if out, err := exec.Command(bin, "--db", db, "sample", "load", "employees").CombinedOutput(); err != nil {
		t.Fatalf("sample load: %v\n%s", err, out)
	}
	if out, err := exec.Command(bin, "--db", db, "sample", "load", "logs", "--size", "300000").CombinedOutput(); err != nil {
		t.Fatalf("sample load logs: %v\n%s", err, out)
	}
	state := filepath.Join(dir, "state")
	s := startShell(t, []string{"HOME=" + dir, "XDG_STATE_HOME=" + state}, bin+" --db "+db+" shell")
	s.waitFor(`(?m)^tstable\[t\.db\]> *$`)

	// use, completed with Tab.
	s.text("use Empl")
	s.keys("Tab")
	s.keys("Enter")
	s.waitFor(`(?m)^tstable\[t\.db\]:Employees> *$`)

	// Complete a property name inside --filter, then run the query.
	s.text(`query --filter "LastN`)
	s.keys("Tab")
	s.waitFor(`"LastName\s+Edm\.String`)
	s.text(` ne 'Jones'" --page-size 3 --select FirstName`)
	s.keys("Enter")
	sc := s.waitFor(`3 entities · table scan · scanned \d+ · [\d.]+ ms · more: next`)
	if !strings.Contains(sc, `query --filter "LastName ne 'Jones'" --page-size 3 --select FirstName`) {
		t.Errorf("the completed line is not on the screen:\n%s", sc)
	}

	// next: the following page of the same query.
	s.text("next")
	s.keys("Enter")
	sc = s.waitFor(`(?s)more: next.*more: next`)
	if n := strings.Count(sc, "3 entities · table scan"); n != 2 {
		t.Errorf("want two pages of 3 entities, saw %d:\n%s", n, sc)
	}

	// Ctrl-C on a line throws the line away and keeps the shell.
	s.text("get NotRun")
	s.keys("C-c")
	s.text("table list")
	s.keys("Enter")
	sc = s.waitFor(`LogsSpread`)
	if strings.Contains(sc, "NotRun") && strings.Contains(sc, "error") {
		t.Errorf("the cancelled line ran:\n%s", sc)
	}

	// Ctrl-C during a long query cancels the query, not the shell.
	s.text("query LogsByDate --all -o table")
	s.keys("Enter")
	s.waitFor(`\| 2024-03-01 +\| 0638`) // rows are coming: the query runs
	s.keys("C-c")
	s.waitFor(`error: interrupted`)
	s.text("explain off")
	s.keys("Enter")
	s.waitFor(`explain is off`)

	// Ctrl-D leaves, and the terminal is as it was.
	s.keys("C-d")
	sc = s.waitFor(`(?s)EXITED \d+.*END`)
	if !strings.Contains(sc, "EXITED 0") {
		t.Errorf("the shell did not exit 0:\n%s", sc)
	}
	saneTerminal(t, sc)

	// History is kept for the next session.
	h, err := os.ReadFile(filepath.Join(state, "tstable", "history"))
	if err != nil || !strings.Contains(string(h), "use Employees\n") || !strings.Contains(string(h), "next\n") {
		t.Errorf("history file: %v\n%s", err, h)
	}
	s2 := startShell(t, []string{"HOME=" + dir, "XDG_STATE_HOME=" + state}, bin+" --db "+db+" shell")
	s2.waitFor(`(?m)^tstable\[t\.db\]> *$`)
	s2.keys("Up")
	s2.waitFor(`tstable\[t\.db\]> explain off`)
	s2.keys("C-u")
	s2.text("exit")
	s2.keys("Enter")
	saneTerminal(t, s2.waitFor(`(?s)EXITED 0.*END`))
}

// A database locked by another process: the shell says so and leaves the
// terminal sane.
func TestTmuxShellLockedDatabase(t *testing.T) {
	needTmux(t)
	bin := buildTstable(t)
	dir := t.TempDir()
	db := filepath.Join(dir, "t.db")
	holder, err := store.Open(db, nil)
	if err != nil {
		t.Fatal(err)
	}
	defer holder.Close()
	if err := holder.CreateTable(context.Background(), "Held"); err != nil {
		t.Fatal(err)
	}
	s := startShell(t, []string{"HOME=" + dir, "XDG_STATE_HOME=" + filepath.Join(dir, "state")}, bin+" --db "+db+" shell")
	sc := s.waitFor(`(?s)EXITED \d+.*END`)
	if !strings.Contains(sc, "error: DatabaseLocked: ") || !strings.Contains(sc, "EXITED 1") {
		t.Errorf("want a DatabaseLocked error and exit 1:\n%s", sc)
	}
	saneTerminal(t, sc)
}
