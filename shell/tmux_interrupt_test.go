package shell_test

import (
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

// Ctrl-C while a long command writes to the terminal ends that command,
// whatever its output format, with "error: interrupted", and keeps the
// shell: the rows stop coming and the next line runs.
func TestTmuxInterruptEndsTheCommandNotTheShell(t *testing.T) {
	needTmux(t)
	bin := buildTstable(t)
	dir := t.TempDir()
	db := filepath.Join(dir, "t.db")
	if out, err := exec.Command(bin, "--db", db, "sample", "load", "logs", "--size", "100000").CombinedOutput(); err != nil {
		t.Fatalf("sample load: %v\n%s", err, out)
	}
	s := openShell(t, bin, dir, db)
	s.send("pager off", keyEnter)
	s.idle(`pager is off`)
	for _, line := range []string{
		"export LogsByDate",
		"query LogsByDate --all -o json",
		"query LogsByDate --all -o jsonl",
		"query LogsByDate --all -o csv --select Level",
		"query LogsByDate --all -o table",
	} {
		s.send(keyCtrlL)
		s.idle(`tstable\[t\.db\]>`)
		if out, err := tmux("clear-history", "-t", s.session).CombinedOutput(); err != nil {
			t.Fatalf("tmux clear-history: %v\n%s", err, out)
		}
		s.send(line, keyEnter)
		s.waitFor(`2024-0\d-\d\d`) // rows are coming (whichever are on the screen by then): the command runs
		sent := time.Now()
		s.send(keyCtrlC)
		sc := s.idle(`(?m)^(\^C)?error: interrupted\s*$`)
		t.Logf("%s: the prompt was back %s after Ctrl-C (as tmux shows it)", line, time.Since(sent).Round(time.Millisecond))
		if strings.Count(sc, "error: interrupted") != 1 {
			t.Errorf("%s: want one error: interrupted after it:\n%s", line, sc)
		}
	}
	s.send("table list -o csv", keyEnter)
	s.idle(`LogsSpread`)
	exitShell(t, s)
}
