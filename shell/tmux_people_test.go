package shell_test

import (
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
)

// bashCompletion is the bash-completion package's script, which cobra's
// bash completion needs.
const bashCompletion = "/usr/share/bash-completion/bash_completion"

// Bash completes inside an open quote as the shell does: a property, then
// a PartitionKey literal, in --filter "…; the quote stays open, and the
// line runs.
func TestTmuxBashCompletesInsideQuotes(t *testing.T) {
	needTmux(t)
	if _, err := os.Stat(bashCompletion); err != nil {
		t.Skip("bash-completion is not installed (apt-get install bash-completion)")
	}
	bin := buildTstable(t)
	dir := t.TempDir()
	db := newDB(t, bin, dir)
	rc := filepath.Join(dir, "bashrc")
	script, err := exec.Command(bin, "completion", "bash").Output()
	if err != nil {
		t.Fatal(err)
	}
	os.WriteFile(filepath.Join(dir, "tstable.bash"), script, 0o644)
	os.WriteFile(rc, []byte("source "+bashCompletion+"\nsource "+filepath.Join(dir, "tstable.bash")+"\nPS1='$ '\n"), 0o644)
	s := startShell(t, []string{"HOME=" + dir, "HISTFILE=/dev/null", "PATH=" + filepath.Dir(bin) + ":/usr/bin:/bin"}, "bash --rcfile "+rc+" -i")
	s.waitFor(`(?m)^\$ $`)
	s.send(`tstable --db `+db+` query Employees --filter "LastN`, keyTab)
	s.waitFor(`--filter "LastName\s*$`)
	s.send(` eq 'Jones' and PartitionKey eq 'Sa`, keyTab)
	s.waitFor(`--filter "LastName eq 'Jones' and PartitionKey eq 'Sales'\s*$`)
	s.send(`" --select Age -o csv`, keyEnter)
	sc := s.waitFor(`(?m)^Sales,empid_\d+,.*\n\$ $`)
	if strings.Contains(sc, "Marketing,") || !strings.Contains(sc, "PartitionKey,RowKey,Timestamp,Age@Edm.Int32") {
		t.Errorf("the completed query did not run as typed:\n%s", sc)
	}
}

// Keys that readline and the other shells have.
const (
	keyAltB      = "\x1bb"
	keyAltF      = "\x1bf"
	keyAltD      = "\x1bd"
	keyAltBack   = "\x1b\x7f"
	keyCtrlLeft  = "\x1b[1;5D"
	keyCtrlRight = "\x1b[1;5C"
	keyCtrlA     = "\x01"
	keyCtrlK     = "\x0b"
	keyCtrlW     = "\x17"
	keyCtrlY     = "\x19"
	keyUndo      = "\x1f" // Ctrl-_
)

// pasteBracketed pastes text as a terminal does for a program that asked
// for bracketed paste: marked, so the program can tell it from typing.
func (s *tmuxShell) pasteBracketed(text string) {
	s.t.Helper()
	load := exec.Command("tmux", "load-buffer", "-b", s.session, "-")
	load.Stdin = strings.NewReader(text)
	if out, err := load.CombinedOutput(); err != nil {
		s.t.Fatalf("load-buffer: %v\n%s", err, out)
	}
	if out, err := exec.Command("tmux", "paste-buffer", "-p", "-d", "-b", s.session, "-t", s.session).CombinedOutput(); err != nil {
		s.t.Fatalf("paste-buffer: %v\n%s", err, out)
	}
}

// shellEnv is the environment of a shell under test: its own history.
func shellEnv(dir string) []string {
	return []string{"HOME=" + dir, "XDG_STATE_HOME=" + filepath.Join(dir, "state")}
}

// run runs tstable on the test's database and returns its output.
func run(t *testing.T, bin, db string, args ...string) string {
	t.Helper()
	out, err := exec.Command(bin, append([]string{"--db", db}, args...)...).CombinedOutput()
	if err != nil {
		t.Fatalf("tstable %s: %v\n%s", strings.Join(args, " "), err, out)
	}
	return string(out)
}

// A Tab pasted inside a quoted value is text: a filter literal keeps it and
// finds the entity that holds it, and a JSON value that holds it raw is
// refused as JSON refuses it, not stored without it.
func TestTmuxPastedTabIsText(t *testing.T) {
	needTmux(t)
	bin := buildTstable(t)
	dir := t.TempDir()
	db := newDB(t, bin, dir, "Notes")
	run(t, bin, db, "insert", "Notes", `{"PartitionKey":"t","RowKey":"1","Note":"a\tb"}`)
	s := startShell(t, shellEnv(dir), bin+" --db "+db+" shell")
	s.waitFor(`(?m)^tstable\[t\.db\]> *$`)

	s.pasteBracketed("query Notes --filter \"Note eq 'a\tb'\" -o jsonl\n")
	sc := s.idle(`"RowKey":"1",.*"Note":"a\\tb"}`)
	if !strings.Contains(sc, "> query Notes --filter \"Note eq 'a^Ib'\" -o jsonl") {
		t.Errorf("the pasted Tab is not on the line (as ^I):\n%s", sc)
	}
	s.pasteBracketed("insert Notes '{\"PartitionKey\":\"t\",\"RowKey\":\"9\",\"Note\":\"a\tb\"}'\n")
	s.idle(`error: InvalidInput: .*control character in a string`)
	exitShell(t, s)

	if out := run(t, bin, db, "query", "Notes", "-o", "jsonl"); strings.Count(out, "\n") != 1 {
		t.Errorf("the table should hold the one entity inserted before:\n%s", out)
	}
	h := readHistory(t, filepath.Join(dir, "state", "tstable", "history"))
	if len(h) != 2 || h[0] != "query Notes --filter \"Note eq 'a\tb'\" -o jsonl" {
		t.Errorf("history: %q", h)
	}
}

// A single completion is followed by a space (us<Tab>E is "use E"), a
// literal that is still open is not; RowKeys of a partition complete after
// get TABLE PK; after RowKey gt only a string literal is offered.
func TestTmuxCompletionHabits(t *testing.T) {
	needTmux(t)
	bin := buildTstable(t)
	dir := t.TempDir()
	db := newDB(t, bin, dir)
	s := startShell(t, shellEnv(dir), bin+" --db "+db+" shell")
	s.waitFor(`(?m)^tstable\[t\.db\]> *$`)

	s.send("us", keyTab, "E")
	s.line("use E")
	s.send(keyTab, keyEnter)
	s.waitFor(`(?m)^tstable\[t\.db\]:Employees> *$`)

	s.send(`query --filter "RowKey gt `, keyTab)
	s.line(`query --filter "RowKey gt '`)
	s.send(keyCtrlU, "get Sales empid_00000", keyTab)
	sc := s.waitFor(`(?m)^\s+empid_000009\s+a RowKey in Employees, partition 'Sales'`)
	for _, rk := range []string{"empid_000001", "empid_000007"} {
		if !strings.Contains(sc, rk) {
			t.Errorf("RowKey %s is not offered:\n%s", rk, sc)
		}
	}
	s.send(keyTab, keyEnter)
	s.idle(`(?s)RowKey\s+\| empid_000001.*Age`)
	exitShell(t, s)
}

// Readline's editing keys: Ctrl-W, Ctrl-U and Ctrl-K kill into a ring that
// Ctrl-Y yanks, Alt-b/Alt-f and Ctrl-Left/Right move by words, Alt-d and
// Alt-Backspace kill words, Ctrl-_ undoes. Each step's keys go in one
// write; the history holds the lines as they ran.
func TestTmuxWordEditing(t *testing.T) {
	needTmux(t)
	bin := buildTstable(t)
	dir := t.TempDir()
	db := newDB(t, bin, dir)
	s := startShell(t, shellEnv(dir), bin+" --db "+db+" shell")
	s.waitFor(`(?m)^tstable\[t\.db\]> *$`)

	s.send("table list garbage", keyCtrlW, keyEnter)
	s.idle(`(?s)> table list \n.*1 table`)
	s.send("list", keyCtrlU, "table ", keyCtrlY, keyEnter)
	s.idle(`(?s)(?:1 table.*?){2}`)
	s.send("query Employees --top 2 --select Age XX", keyCtrlLeft, keyCtrlLeft, keyAltD, "FirstName", keyCtrlRight, keyAltBack, keyEnter)
	s.idle(`(?s)> query Employees --top 2 --select FirstName \n.*\| FirstName \|.*2 entities`)
	s.send("table ist", keyAltB, "l", keyCtrlA, keyAltF, keyAltF, "s", keyUndo, keyEnter)
	s.idle(`(?s)(?:1 table.*?){3}`)
	s.send("get Employees Sales empid_000001 oops", keyCtrlW, keyCtrlW, keyUndo, keyUndo, keyCtrlW, keyEnter)
	s.idle(`(?s)> get Employees Sales empid_000001 \n.*FirstName`)
	s.send("xyz", keyCtrlA, keyCtrlK, "table list", keyEnter)
	s.idle(`(?s)(?:1 table.*?){4}`)
	exitShell(t, s)

	h := readHistory(t, filepath.Join(dir, "state", "tstable", "history"))
	want := []string{"table list", "query Employees --top 2 --select FirstName", "table list", "get Employees Sales empid_000001", "table list"}
	if strings.Join(h, "\n") != strings.Join(want, "\n") {
		t.Errorf("history:\n%s\nwant:\n%s", strings.Join(h, "\n"), strings.Join(want, "\n"))
	}
	noEscapes(t, "the history", h)
}

// A command with an open quote goes on on the next line after a
// continuation prompt, as in bash and psql; so does one ending with a
// backslash. Ctrl-C there drops the whole command. The history keeps each
// command as one line.
func TestTmuxCommandOverSeveralLines(t *testing.T) {
	needTmux(t)
	bin := buildTstable(t)
	dir := t.TempDir()
	db := newDB(t, bin, dir, "Lines")
	s := startShell(t, shellEnv(dir), bin+" --db "+db+" shell")
	s.waitFor(`(?m)^tstable\[t\.db\]> *$`)

	s.send(`query Employees --filter "LastName eq 'Jones'`, keyEnter)
	s.waitFor(`(?m)^tstable\[t\.db\]"> *$`)
	s.send(`and Age gt 60" --select Age -o csv`, keyEnter)
	sc := s.idle(`\d+ entities · table scan`)
	if !strings.Contains(sc, "tstable[t.db]\"> and Age gt 60\" --select Age -o csv\nPartitionKey,RowKey,Timestamp,Age@Edm.Int32") {
		t.Errorf("the continued command did not run:\n%s", sc)
	}
	s.send(`insert Lines '{"PartitionKey":"p",`, keyEnter)
	s.waitFor(`(?m)^tstable\[t\.db\]'> *$`)
	s.send(`"RowKey":"1","Note":"two lines"}' -o jsonl`, keyEnter)
	s.idle(`"RowKey":"1",.*"Note":"two lines"}`)
	s.send(`insert Lines '{"PartitionKey":"p",`, keyEnter)
	s.waitFor(`(?m)^tstable\[t\.db\]'> *$`)
	s.send(`"RowKey":"2"`, keyCtrlC)
	s.waitFor(`(?m)^tstable\[t\.db\]> *$`)
	s.send(`table \`, keyEnter)
	s.waitFor(`(?m)^tstable\[t\.db\]\\> *$`)
	s.send("list", keyEnter)
	s.idle(`\| Lines +\|`)
	exitShell(t, s)

	if out := run(t, bin, db, "query", "Lines", "-o", "jsonl"); strings.Count(out, "\n") != 1 || !strings.Contains(out, `"RowKey":"1"`) {
		t.Errorf("Lines should hold the one entity typed over two lines:\n%s", out)
	}
	h := readHistory(t, filepath.Join(dir, "state", "tstable", "history"))
	want := []string{
		`query Employees --filter "LastName eq 'Jones' and Age gt 60" --select Age -o csv`,
		`insert Lines '{"PartitionKey":"p", "RowKey":"1","Note":"two lines"}' -o jsonl`,
		"table list",
	}
	if strings.Join(h, "\n") != strings.Join(want, "\n") {
		t.Errorf("history:\n%s\nwant:\n%s", strings.Join(h, "\n"), strings.Join(want, "\n"))
	}
}
