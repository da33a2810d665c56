package shell_test

import (
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"testing"
	"time"
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

// In a bash without the bash-completion package (a bare bash that loads
// no rc), the script completes as well: a command, a table, a property and
// a PartitionKey inside an open quote, a flag's values; and Tab never says
// "command not found".
func TestTmuxBashCompletesWithoutBashCompletion(t *testing.T) {
	needTmux(t)
	bin := buildTstable(t)
	dir := t.TempDir()
	db := newDB(t, bin, dir)
	script, err := exec.Command(bin, "completion", "bash").Output()
	if err != nil {
		t.Fatal(err)
	}
	os.WriteFile(filepath.Join(dir, "tstable.bash"), script, 0o644)
	s := startShell(t, []string{"HOME=" + dir, "HISTFILE=/dev/null", "PATH=" + filepath.Dir(bin) + ":/usr/bin:/bin"}, "bash --norc --noprofile -i")
	s.send("PS1='$ '; source "+filepath.Join(dir, "tstable.bash")+"; declare -F _get_comp_words_by_ref || echo no-bash-completion", keyEnter)
	s.waitFor(`(?m)^no-bash-completion\n\$ $`)
	s.send("tstable --db "+db+" qu", keyTab)
	s.waitFor(`(?m)tstable --db \S+ query $`)
	s.send("Emp", keyTab)
	s.waitFor(`(?m)query Employees $`)
	s.send(`--filter "LastN`, keyTab)
	s.waitFor(`--filter "LastName\s*$`)
	s.send(` eq 'Jones' and PartitionKey eq 'Sa`, keyTab)
	s.waitFor(`--filter "LastName eq 'Jones' and PartitionKey eq 'Sales'\s*$`)
	s.send(`" --select Age -o `, keyTab, keyTab)
	s.waitFor(`(?m)^csv +\(comma-separated`)
	s.send("cs", keyTab)
	s.waitFor(`(?m)--select Age -o csv $`)
	s.send(keyEnter)
	sc := s.waitFor(`(?m)^Sales,empid_\d+,.*\n\$ $`)
	if strings.Contains(sc, "command not found") || strings.Contains(sc, "Marketing,") {
		t.Errorf("completion without bash-completion:\n%s", sc)
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
	load := tmux("load-buffer", "-b", s.session, "-")
	load.Stdin = strings.NewReader(text)
	if out, err := load.CombinedOutput(); err != nil {
		s.t.Fatalf("load-buffer: %v\n%s", err, out)
	}
	if out, err := tmux("paste-buffer", "-p", "-d", "-b", s.session, "-t", s.session).CombinedOutput(); err != nil {
		s.t.Fatalf("paste-buffer: %v\n%s", err, out)
	}
}

// shellEnv is the environment of a shell under test: its own history.
func shellEnv(dir string) []string {
	return []string{"HOME=" + dir, "XDG_STATE_HOME=" + filepath.Join(dir, "state")}
}

// newShell starts the shell in tmux on a new database holding Employees
// and tables, in a folder of its own (dir, where its history is kept),
// and waits for its prompt.
func newShell(t *testing.T, tables ...string) (s *tmuxShell, bin, dir, db string) {
	t.Helper()
	needTmux(t)
	bin = buildTstable(t)
	dir = t.TempDir()
	db = newDB(t, bin, dir, tables...)
	return openShell(t, bin, dir, db), bin, dir, db
}

// openShell starts the shell in tmux on db, with dir's environment, and
// waits for its prompt.
func openShell(t *testing.T, bin, dir, db string) *tmuxShell {
	t.Helper()
	s := startShell(t, shellEnv(dir), bin+" --db "+db+" shell")
	s.waitFor(`(?m)^tstable\[t\.db\]> *$`)
	return s
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
	s := openShell(t, bin, dir, db)

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
	s, _, _, _ := newShell(t)

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
	s, _, dir, _ := newShell(t)

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
	s, bin, dir, db := newShell(t, "Lines")

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

// Output longer than the screen goes through the pager (less -S by
// default), q leaves it; short output does not; pager off and \pset pager
// turn it off and on.
func TestTmuxPager(t *testing.T) {
	needTmux(t)
	bin := buildTstable(t)
	dir := t.TempDir()
	db := newDB(t, bin, dir)
	s := startShell(t, append(shellEnv(dir), "PAGER="), bin+" --db "+db+" shell")
	s.waitFor(`(?m)^tstable\[t\.db\]> *$`)

	s.send("table list", keyEnter)
	s.idle(`1 table`)
	s.send("query Employees --select Age", keyEnter)
	vis := s.waitUntil(`(?m)^:\s*$`, func(string) bool {
		v := s.visible(false)
		return strings.HasPrefix(v, "+--------------+") && regexp.MustCompile(`(?m)^:\s*$`).MatchString(v)
	})
	_ = vis
	s.send("G") // the end of the rows; the footer waits for the pager to be left
	s.waitUntil(`Sales`, func(string) bool { return regexp.MustCompile(`(?m)^\(END\)`).MatchString(s.visible(false)) })
	if strings.Contains(s.visible(false), "402 entities") {
		t.Errorf("the footer is in the pager, where q takes it off the screen:\n%s", s.visible(false))
	}
	s.send("q")
	sc := s.idle(`> query Employees --select Age\n402 entities · table scan · scanned 402 · [\d.]+ ms\n`)
	if strings.Contains(sc[strings.LastIndex(sc, "> query Employees"):], "| Marketing") {
		t.Errorf("the rows were written to the terminal, not to the pager:\n%s", sc)
	}

	// A table wider than the terminal goes to the pager whole, a table
	// and not one property per line, and the pager scrolls sideways to
	// its last columns; after q the footer is on the screen.
	s.send("query Employees --all", keyEnter)
	s.waitUntil(`(?m)^:\s*$`, func(string) bool {
		return strings.HasPrefix(s.visible(false), "+--------------+------------------------------+")
	})
	if v := s.visible(false); strings.Contains(v, "-[ 1 ]") || strings.Contains(v, "Salary") {
		t.Errorf("the pager shows the table fitted to the terminal's width:\n%s", v)
	}
	s.press("Right", "Right", "Right") // as the terminal sends it in the pager's keypad mode
	s.waitUntil(`(?m)^:\s*$`, func(string) bool {
		return regexp.MustCompile(`(?m)\| Salary +\|$`).MatchString(s.visible(false))
	})
	s.send("q")
	s.idle(`> query Employees --all\n402 entities · table scan · scanned 402 · [\d.]+ ms\n`)

	s.send("pager off", keyEnter)
	s.idle(`pager is off \(less -S; \$PAGER sets another\)`)
	s.send("query Employees --select Age", keyEnter)
	s.idle(`402 entities · table scan`)
	s.send(`\pset pager`, keyEnter)
	s.idle(`pager is on`)
	exitShell(t, s)
}

// The words of psql, sqlite3 and bash: \dt and .tables, \x, \timing and
// .timer, history, clear, and quit and \q to leave.
func TestTmuxOtherShellsWords(t *testing.T) {
	s, bin, dir, db := newShell(t, "Second")

	s.send(`\dt`, keyEnter)
	sc := s.idle(`\| Second +\|\n\+-+\+\n2 tables\n`)
	if strings.Contains(sc, "Time:") {
		t.Errorf("timing is off by default, as in psql, but a command was timed:\n%s", sc)
	}
	s.send(`\timing`, keyEnter)
	s.idle(`timing is on`)
	s.send(".tables", keyEnter)
	s.idle(`(?s)timing is on.*2 tables\nTime: [\d.]+ ms`)
	s.send(`\timing`, keyEnter)
	s.idle(`timing is off`)
	s.send(".tables", keyEnter)
	sc = s.idle(`(?s)timing is off.*2 tables\n`)
	if strings.Contains(sc[strings.LastIndex(sc, "timing is off"):], "Time:") {
		t.Errorf("timing off still times:\n%s", sc)
	}
	s.send(".timer on", keyEnter)
	s.idle(`timing is on`)
	s.send(`\x`, keyEnter)
	s.idle(`expanded display is on`)
	s.send("query Second", keyEnter)
	s.idle(`0 entities · table scan · scanned 0 · [\d.]+ ms`)
	s.send("history 3", keyEnter)
	s.idle(`(?m)^ +7  \\x\n +8  query Second\n +9  history 3\n`)
	s.send("clear", keyEnter)
	s.waitUntil(`tstable`, func(string) bool {
		return strings.TrimSpace(s.visible(false)) == "tstable[t.db]>"
	})
	s.send("quit", keyEnter)
	saneTerminal(t, s.waitFor(`(?s)EXITED 0.*END`))

	s2 := openShell(t, bin, dir, db)
	s2.send(`\q`, keyEnter)
	saneTerminal(t, s2.waitFor(`(?s)EXITED 0.*END`))
}

// press sends keys by tmux's names for them (Right, PageDown), each as
// the terminal sends it in the mode the program set (a pager's keypad
// mode sends ESC O C for Right).
func (s *tmuxShell) press(names ...string) {
	s.t.Helper()
	args := append([]string{"send-keys", "-t", s.session}, names...)
	if out, err := tmux(args...).CombinedOutput(); err != nil {
		s.t.Fatalf("send-keys %q: %v\n%s", names, err, out)
	}
}

// rows is the pane as it is shown, a line a row (a wrapped line is not
// joined).
func (s *tmuxShell) rows() string {
	out, err := tmux("capture-pane", "-p", "-t", s.session).CombinedOutput()
	if err != nil {
		s.t.Fatalf("capture-pane: %v: %s", err, out)
	}
	return string(out)
}

// resize sets the pane's width.
func (s *tmuxShell) resize(width int) {
	s.t.Helper()
	if out, err := tmux("resize-window", "-t", s.session, "-x", strconv.Itoa(width)).CombinedOutput(); err != nil {
		s.t.Fatalf("resize-window: %v\n%s", err, out)
	}
}

// A line that wraps is drawn again, once, when the terminal is widened or
// narrowed while it is typed: no stale copy of the prompt stays behind,
// the banner above is intact, and the line runs as typed. The completion
// menu of a word on the first row of a wrapped line goes under the line's
// last row, never over it.
func TestTmuxResizeAndMenuOnAWrappedLine(t *testing.T) {
	s, _, _, _ := newShell(t)
	s.resize(60)
	s.send("table list", keyEnter) // the size is read again after a command
	s.idle(`1 table`)

	line := `query Employees --select Age,FirstName,LastName --filter "PartitionKey eq 'Sales' and Age gt 30 and Age lt 40"`
	s.send(line)
	s.line(line)
	for i, width := range []int{120, 50, 90} {
		// tmux reflows the pane at once but tells the program its new
		// size a little later: what is typed meanwhile is drawn at the
		// old width, in any program. Typing waits until the shell knows.
		s.resize(width)
		time.Sleep(500 * time.Millisecond)
		more := []string{" -o", " csv", " --top 50"}[i]
		s.send(more)
		line += more
		s.line(line)
		vis := s.visible(false)
		if n := strings.Count(vis, "tstable[t.db]> query"); n != 1 {
			t.Errorf("at width %d the line is on the screen %d times:\n%s", width, n, vis)
		}
		if !strings.Contains(vis, "tstable[t.db]> table list") || !strings.Contains(vis, "1 table") {
			t.Errorf("at width %d what was above the line is gone:\n%s", width, vis)
		}
	}
	s.send(keyEnter)
	s.idle(`(?m)^Sales,empid_\d+,[^,]+,3\d,`)

	s.resize(70)
	time.Sleep(800 * time.Millisecond)
	s.send(keyCtrlU, `query Employees --filter "E and PartitionKey eq 'Sales' and Age gt 3 and Age lt 70"`)
	s.send(keyCtrlA, keyAltF, keyAltF, keyAltF, keyAltF, keyTab)
	s.waitUntil(`EmployeeCount`, func(string) bool { return strings.Contains(s.rows(), "EmployeeCount") })
	vis := s.rows()
	rows := strings.Split(vis, "\n")
	full := `tstable[t.db]> query Employees --filter "E and PartitionKey eq 'Sales' and Age gt 3 and Age lt 70"`
	found := false
	for i, r := range rows {
		if strings.HasPrefix(r, `tstable[t.db]> query Employees --filter "E and`) {
			found = true
			if i+1 >= len(rows) || r+strings.TrimRight(rows[i+1], " ") != full {
				t.Errorf("the menu is over the line's second row:\n%s", vis)
			}
			if i+2 >= len(rows) || !strings.Contains(rows[i+2], `"Email`) {
				t.Errorf("the menu is not right under the line:\n%s", vis)
			}
		}
	}
	if !found {
		t.Errorf("the line is not on the screen:\n%s", vis)
	}
	s.send(keyCtrlA, keyCtrlK)
	exitShell(t, s)
}

// The prompt follows the backend each command used, and next goes on from
// where the page ended: a query through tstable serve, the server stops,
// next reads the second page from the file.
func TestTmuxNextAfterTheServerStops(t *testing.T) {
	needTmux(t)
	bin := buildTstable(t)
	dir := t.TempDir()
	db := newDB(t, bin, dir)
	srv := exec.Command(bin, "--db", db, "serve", "--addr", "127.0.0.1:0")
	if err := srv.Start(); err != nil {
		t.Fatal(err)
	}
	defer srv.Process.Kill()
	for i := 0; ; i++ {
		if _, err := os.Stat(db + ".serve"); err == nil {
			break
		}
		if i == 200 {
			t.Fatal("the server did not start")
		}
		time.Sleep(25 * time.Millisecond)
	}
	s := startShell(t, shellEnv(dir), bin+" --db "+db+" shell")
	s.waitFor(`(?m)^tstable\[served t\.db\]> *$`)
	s.send("query Employees --page-size 3 --select Age -o csv", keyEnter)
	s.idle(`3 entities · table scan · scanned \d+ · [\d.]+ ms · more: next`)
	srv.Process.Signal(os.Interrupt)
	srv.Wait()
	s.send("next", keyEnter)
	sc := s.idle(`(?s)more: next.*more: next`)
	if !strings.HasSuffix(strings.TrimSpace(sc), "tstable[t.db]>") {
		t.Errorf("the prompt still names the server:\n%s", sc)
	}
	want := run(t, bin, db, "query", "Employees", "--page-size", "6", "--select", "Age", "-o", "csv")
	keys := regexp.MustCompile(`(?m)^(?:Marketing|Sales),[^,]+`).FindAllString(sc, -1)
	wantKeys := regexp.MustCompile(`(?m)^(?:Marketing|Sales),[^,]+`).FindAllString(want, -1)
	if strings.Join(keys, " ") != strings.Join(wantKeys, " ") {
		t.Errorf("pages through the server, then from the file: %q, want %q", keys, wantKeys)
	}
	exitShell(t, s)
}
