package shell_test

import (
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
)

// A command that reads data from the terminal says so, and Ctrl-C cancels
// it with exit 130 and nothing written — on the command line and in the
// shell, where the next line is then read as a command again.
func TestTmuxReadingFromTheTerminal(t *testing.T) {
	needTmux(t)
	bin := buildTstable(t)
	dir := t.TempDir()
	db := newDB(t, bin, dir, "People")
	env := []string{"HOME=" + dir, "XDG_STATE_HOME=" + filepath.Join(dir, "state")}

	cli := startShell(t, env, bin+" --db "+db+" insert People")
	cli.waitFor(`reading an entity as JSON from the terminal; Ctrl-D on a new line ends, Ctrl-C cancels`)
	cli.send(`{"PartitionKey":"a","RowKey":"half typed"`, keyCtrlC)
	sc := cli.waitFor(`(?s)EXITED \d+.*END`)
	if !strings.Contains(sc, "error: interrupted") || !strings.Contains(sc, "EXITED 130") {
		t.Errorf("Ctrl-C while reading an entity: want interrupted and exit 130:\n%s", sc)
	}
	saneTerminal(t, sc)

	s := startShell(t, env, bin+" --db "+db+" shell")
	s.idle(`tstable shell`)
	s.send("insert People", keyEnter)
	s.waitFor(`reading an entity as JSON from the terminal`)
	s.send(keyCtrlC)
	s.idle(`error: interrupted`)
	s.send("import People", keyEnter)
	s.waitFor(`reading entities as JSON lines`)
	s.send(`{"PartitionKey":"a","RowKey":"1"}`+keyEnter, keyCtrlD)
	s.idle(`imported 1 entity into People`)
	exitShell(t, s)

	out, err := exec.Command(bin, "--db", db, "query", "People", "-o", "jsonl").CombinedOutput()
	if err != nil || strings.Count(string(out), "\n") != 1 || !strings.Contains(string(out), `"RowKey":"1"`) {
		t.Errorf("People should hold just the imported entity: %v\n%s", err, out)
	}
}

// Ctrl-C at a lesson's pause stops the lesson.
func TestTmuxLessonStopsOnCtrlC(t *testing.T) {
	needTmux(t)
	bin := buildTstable(t)
	dir := t.TempDir()
	s := startShell(t, []string{"HOME=" + dir, "XDG_STATE_HOME=" + filepath.Join(dir, "state")}, bin+" learn query-classes")
	s.waitFor(`\(Enter runs it\)`)
	s.send(keyEnter)
	s.waitFor(`(?m)^tstable> explain Employees .*\n\(Enter runs it\)`) // the second step's pause
	s.send(keyCtrlC)
	sc := s.waitFor(`(?s)EXITED \d+.*END`)
	if !strings.Contains(sc, "EXITED 130") || strings.Contains(sc, "End of lesson") {
		t.Errorf("Ctrl-C at a lesson's pause: want exit 130 before the end:\n%s", sc)
	}
	saneTerminal(t, sc)
}
