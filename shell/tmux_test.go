package shell_test

import (
	"context"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
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

// TestMain removes the binary the tests built (buildTstable), and ends
// the tests' tmux server.
func TestMain(m *testing.M) {
	code := m.Run()
	if built.dir != "" {
		os.RemoveAll(built.dir)
	}
	if server.started {
		tmux("kill-server").Run()
	}
	os.Exit(code)
}

// The tests' tmux server is their own (a socket named for the process),
// so that tests run at once by other processes do not share it, and it
// keeps a session of its own from the first test to the last: a server
// exits with its last session, and a test starting its session just then
// would find it gone.
var server struct {
	once    sync.Once
	started bool
	err     error
	out     []byte
}

// tmux is the tmux command with args, on the tests' own server.
func tmux(args ...string) *exec.Cmd {
	return exec.Command("tmux", append([]string{"-L", fmt.Sprintf("tstable-test-%d", os.Getpid())}, args...)...)
}

// startServer starts the tests' tmux server with its keeping session,
// once.
func startServer(t *testing.T) {
	t.Helper()
	server.once.Do(func() {
		server.out, server.err = tmux("-f", "/dev/null", "new-session", "-d", "-s", "keep", "sleep", "86400").CombinedOutput()
		server.started = server.err == nil
	})
	if server.err != nil {
		t.Fatalf("tmux: the tests' server: %v\n%s", server.err, server.out)
	}
}

// built is tstable as buildTstable built it, once for every test.
var built struct {
	once sync.Once
	dir  string
	bin  string
	out  []byte
	err  error
}

// buildTstable builds tstable the first time a test asks, and returns it.
func buildTstable(t *testing.T) string {
	t.Helper()
	built.once.Do(func() {
		if built.dir, built.err = os.MkdirTemp("", "tstable-tmux"); built.err != nil {
			return
		}
		built.bin = filepath.Join(built.dir, "tstable")
		cmd := exec.Command("go", "build", "-o", built.bin, "./cmd/tstable")
		cmd.Dir = ".."
		built.out, built.err = cmd.CombinedOutput()
	})
	if built.err != nil {
		t.Fatalf("go build: %v\n%s", built.err, built.out)
	}
	return built.bin
}

// needTmux skips a terminal test unless TSTABLE_TMUX_TEST is set, and
// runs it in parallel with the others: each has its own tmux session,
// database and files, and most of its time is spent waiting for a screen.
func needTmux(t *testing.T) {
	t.Helper()
	if os.Getenv("TSTABLE_TMUX_TEST") == "" {
		t.Skip("set TSTABLE_TMUX_TEST=1 (make test-shell) to drive the shell in tmux")
	}
	if _, err := exec.LookPath("tmux"); err != nil {
		t.Fatal("tmux is not installed (apt-get install tmux)")
	}
	startServer(t)
	t.Parallel()
}

// sessions numbers the tests' tmux sessions.
var sessions atomic.Int64

// startShell runs command in a new tmux session, followed by a report of
// its exit status and the terminal's settings.
func startShell(t *testing.T, env []string, command string) *tmuxShell {
	t.Helper()
	s := &tmuxShell{t: t, session: fmt.Sprintf("tstable-test-%d-%d", os.Getpid(), sessions.Add(1))}
	// The wrapper traps interrupts so that a Ctrl-C sent to the shell's
	// process group does not end the wrapper too (a login shell's job
	// control keeps it out of the group; this sh has none).
	script := "trap : INT; " + command + `; echo "EXITED $?"; stty -a | tr '\n' ' '; echo; echo END; sleep 600`
	args := []string{"new-session", "-d", "-s", s.session, "-x", "160", "-y", "50", "env"}
	args = append(args, env...)
	args = append(args, "TERM=xterm-256color", "sh", "-c", script)
	if out, err := tmux(args...).CombinedOutput(); err != nil {
		t.Fatalf("tmux new-session: %v\n%s", err, out)
	}
	t.Cleanup(func() { tmux("kill-session", "-t", s.session).Run() })
	return s
}

// Keys as a terminal sends them. The tests send each step's keys in one
// write, the way input really arrives when someone types fast or pastes.
const (
	keyEnter     = "\r"
	keyTab       = "\t"
	keyUp        = "\x1b[A"
	keyRight     = "\x1b[C"
	keyLeft      = "\x1b[D"
	keyCtrlC     = "\x03"
	keyCtrlD     = "\x04"
	keyCtrlG     = "\x07"
	keyCtrlL     = "\x0c"
	keyCtrlR     = "\x12"
	keyCtrlU     = "\x15"
	keyBackspace = "\x7f"
)

// send writes the keys to the terminal in one write.
func (s *tmuxShell) send(keys ...string) {
	s.t.Helper()
	text := strings.Join(keys, "")
	if out, err := tmux("send-keys", "-t", s.session, "-l", "--", text).CombinedOutput(); err != nil {
		s.t.Fatalf("send-keys %q: %v\n%s", text, err, out)
	}
}

// paste pastes text as a terminal does (line ends become CR).
func (s *tmuxShell) paste(text string) {
	s.t.Helper()
	load := tmux("load-buffer", "-b", s.session, "-")
	load.Stdin = strings.NewReader(text)
	if out, err := load.CombinedOutput(); err != nil {
		s.t.Fatalf("load-buffer: %v\n%s", err, out)
	}
	if out, err := tmux("paste-buffer", "-d", "-b", s.session, "-t", s.session).CombinedOutput(); err != nil {
		s.t.Fatalf("paste-buffer: %v\n%s", err, out)
	}
}

func (s *tmuxShell) screen() string {
	out, err := tmux("capture-pane", "-p", "-J", "-S", "-500", "-t", s.session).CombinedOutput()
	if err != nil {
		s.t.Fatalf("capture-pane: %v: %s", err, out)
	}
	return string(out)
}

// visible is the pane as it is shown now, without the scrollback; with
// escapes, with its colours and attributes as escape sequences.
func (s *tmuxShell) visible(escapes bool) string {
	args := []string{"capture-pane", "-p", "-J", "-t", s.session}
	if escapes {
		args = append(args, "-e")
	}
	out, err := tmux(args...).CombinedOutput()
	if err != nil {
		s.t.Fatalf("capture-pane: %v: %s", err, out)
	}
	return string(out)
}

// waitFor waits until the screen matches re, and returns the screen.
func (s *tmuxShell) waitFor(re string) string {
	s.t.Helper()
	return s.waitUntil(re, func(string) bool { return true })
}

// waitUntil waits until the screen matches re and ok accepts it.
func (s *tmuxShell) waitUntil(re string, ok func(screen string) bool) string {
	s.t.Helper()
	rx := regexp.MustCompile(re)
	deadline := time.Now().Add(15 * time.Second)
	for {
		sc := s.screen()
		if rx.MatchString(sc) && ok(sc) {
			return sc
		}
		if time.Now().After(deadline) {
			s.t.Fatalf("timed out waiting for %q; the screen:\n%s", re, sc)
		}
		time.Sleep(50 * time.Millisecond)
	}
}

// promptLine matches the shell's prompt with the line being typed.
var promptLine = regexp.MustCompile(`^tstable\[[^\]]*\](:\w+)?> ?(.*)$`)

// line waits until the line being typed (the last prompt on the screen) is
// want, and returns the screen.
func (s *tmuxShell) line(want string) string {
	s.t.Helper()
	return s.waitUntil(`tstable`, func(sc string) bool {
		got, ok := currentLine(sc)
		return ok && got == want
	})
}

// currentLine is the text after the last prompt on the screen.
func currentLine(screen string) (string, bool) {
	lines := strings.Split(screen, "\n")
	for i := len(lines) - 1; i >= 0; i-- {
		if m := promptLine.FindStringSubmatch(lines[i]); m != nil {
			return strings.TrimRight(m[2], " "), true
		}
	}
	return "", false
}

// idle waits until a command's output matching re is on the screen with an
// empty prompt after it: the shell is waiting for the next line.
func (s *tmuxShell) idle(re string) string {
	s.t.Helper()
	rx := regexp.MustCompile(re)
	return s.waitUntil(re, func(sc string) bool {
		loc := rx.FindStringIndex(sc)
		after := sc[loc[1]:]
		got, ok := currentLine(after)
		return ok && got == "" && strings.TrimSpace(after[strings.LastIndex(after, ">")+1:]) == ""
	})
}

// leavePager presses q until the pager is left and re is on the screen.
// less drops what was typed while it handled an interrupt, so a q sent
// hard on a Ctrl-C (as a loaded machine delivers them) may be lost; a
// person presses it again.
func (s *tmuxShell) leavePager(re string) {
	s.t.Helper()
	rx := regexp.MustCompile(re)
	for range 8 {
		s.send("q")
		for end := time.Now().Add(2 * time.Second); time.Now().Before(end); time.Sleep(50 * time.Millisecond) {
			if rx.MatchString(s.screen()) {
				s.send(keyCtrlU) // a q that reached the prompt after all
				s.idle(re)
				return
			}
		}
	}
	s.idle(re) // fails, with the screen
}

// readHistory returns the lines of the history file.
func readHistory(t *testing.T, path string) []string {
	t.Helper()
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatalf("history file: %v", err)
	}
	return strings.Split(strings.TrimSuffix(string(b), "\n"), "\n")
}

// noEscapes fails when a line holds an escape sequence or a control
// character (ESC, ^U, TAB, …).
func noEscapes(t *testing.T, what string, lines []string) {
	t.Helper()
	for _, l := range lines {
		if strings.ContainsFunc(l, func(r rune) bool { return r < 0x20 || r == 0x7f }) || strings.Contains(l, "^[") || strings.Contains(l, "^U") {
			t.Errorf("%s holds a control character: %q", what, l)
		}
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

// newDB returns a database file holding the employees sample and the
// tables named.
func newDB(t *testing.T, bin, dir string, tables ...string) string {
	t.Helper()
	db := filepath.Join(dir, "t.db")
	run := func(args ...string) {
		if out, err := exec.Command(bin, append([]string{"--db", db}, args...)...).CombinedOutput(); err != nil {
			t.Fatalf("tstable %s: %v\n%s", strings.Join(args, " "), err, out)
		}
	}
	run("sample", "load", "employees")
	for _, tbl := range tables {
		run("table", "create", tbl)
	}
	return db
}

// exitShell leaves the shell with Ctrl-D and checks the exit status and the
// terminal.
func exitShell(t *testing.T, s *tmuxShell) {
	t.Helper()
	s.send(keyCtrlD)
	sc := s.waitFor(`(?s)EXITED \d+.*END`)
	if !strings.Contains(sc, "EXITED 0") {
		t.Errorf("the shell did not exit 0:\n%s", sc)
	}
	saneTerminal(t, sc)
}

func TestTmuxShellSession(t *testing.T) {
	needTmux(t)
	bin := buildTstable(t)
	dir := t.TempDir()
	db := newDB(t, bin, dir)
	if out, err := exec.Command(bin, "--db", db, "sample", "load", "logs", "--size", "300000").CombinedOutput(); err != nil {
		t.Fatalf("sample load logs: %v\n%s", err, out)
	}
	state := filepath.Join(dir, "state")
	s := startShell(t, []string{"HOME=" + dir, "XDG_STATE_HOME=" + state}, bin+" --db "+db+" shell")
	s.waitFor(`(?m)^tstable\[t\.db\]> *$`)

	// use, completed with Tab.
	s.send("use Empl", keyTab, keyEnter)
	s.waitFor(`(?m)^tstable\[t\.db\]:Employees> *$`)

	// Complete a property name inside --filter, then run the query.
	s.send(`query --filter "LastN`, keyTab)
	s.line(`query --filter "LastName`)
	s.send(`ne 'Jones'" --page-size 3 --select FirstName`, keyEnter) // Tab put a space after the name
	sc := s.idle(`3 entities · table scan · scanned \d+ · [\d.]+ ms · more: next`)
	if !strings.Contains(sc, `query --filter "LastName ne 'Jones'" --page-size 3 --select FirstName`) {
		t.Errorf("the completed line is not on the screen:\n%s", sc)
	}

	// next: the following page of the same query.
	s.send("next", keyEnter)
	sc = s.idle(`(?s)more: next.*more: next`)
	if n := strings.Count(sc, "3 entities · table scan"); n != 2 {
		t.Errorf("want two pages of 3 entities, saw %d:\n%s", n, sc)
	}

	// Ctrl-C on a line throws the line away and keeps the shell.
	s.send("get NotRun", keyCtrlC, "table list", keyEnter)
	sc = s.idle(`LogsSpread`)
	if strings.Contains(sc, "NotRun") && strings.Contains(sc, "error") {
		t.Errorf("the cancelled line ran:\n%s", sc)
	}

	// Ctrl-C during a long query cancels the query, not the shell; its
	// rows are in the pager (q leaves it), and the error after it.
	s.send("query LogsByDate --all -o table", keyEnter)
	s.waitFor(`\| 2024-03-01 +\| `) // rows are coming: the query runs
	s.send(keyCtrlC)
	s.leavePager(`error: interrupted`)
	s.send("explain off", keyEnter)
	s.idle(`explain is off`)

	// Ctrl-D leaves, and the terminal is as it was.
	exitShell(t, s)

	// History is kept for the next session.
	h, err := os.ReadFile(filepath.Join(state, "tstable", "history"))
	if err != nil || !strings.Contains(string(h), "use Employees\n") || !strings.Contains(string(h), "next\n") {
		t.Errorf("history file: %v\n%s", err, h)
	}
	s2 := startShell(t, []string{"HOME=" + dir, "XDG_STATE_HOME=" + state}, bin+" --db "+db+" shell")
	s2.waitFor(`(?m)^tstable\[t\.db\]> *$`)
	s2.send(keyUp)
	s2.line("explain off")
	s2.send(keyCtrlU, "exit", keyEnter)
	saneTerminal(t, s2.waitFor(`(?s)EXITED 0.*END`))
}

// A block of 20 lines pasted at once runs every line once, in order, and
// every line lands in the history.
func TestTmuxPastedBlock(t *testing.T) {
	needTmux(t)
	bin := buildTstable(t)
	dir := t.TempDir()
	db := newDB(t, bin, dir, "Pasted")
	state := filepath.Join(dir, "state")
	s := startShell(t, []string{"HOME=" + dir, "XDG_STATE_HOME=" + state}, bin+" --db "+db+" shell")
	s.waitFor(`(?m)^tstable\[t\.db\]> *$`)

	var lines []string
	for i := 1; i <= 20; i++ {
		lines = append(lines, fmt.Sprintf(`insert Pasted '{"PartitionKey":"p","RowKey":"%02d","N":%d}' -o jsonl`, i, i))
	}
	s.paste(strings.Join(lines, "\n") + "\n")
	sc := s.idle(`"RowKey":"20",.*"N":20}`)

	// On the screen: each line after its prompt, in order, and its result.
	at := 0
	for i, l := range lines {
		j := strings.Index(sc[at:], "> "+l+"\n")
		if j < 0 {
			t.Fatalf("line %d is not on the screen after line %d:\n%s", i+1, i, sc)
		}
		at += j
		if !regexp.MustCompile(fmt.Sprintf(`"RowKey":"%02d",.*"N":%d}`, i+1, i+1)).MatchString(sc[at:]) {
			t.Errorf("no result for line %d", i+1)
		}
	}
	exitShell(t, s)

	// In the table: all 20.
	out, err := exec.Command(bin, "--db", db, "query", "Pasted", "--all", "-o", "jsonl").CombinedOutput()
	if err != nil {
		t.Fatalf("query: %v\n%s", err, out)
	}
	rows := strings.Split(strings.TrimSpace(string(out)), "\n")
	if len(rows) != 20 {
		t.Fatalf("the table holds %d entities, want 20:\n%s", len(rows), out)
	}
	for i, r := range rows {
		if !strings.Contains(r, fmt.Sprintf(`"RowKey":"%02d"`, i+1)) || !strings.Contains(r, fmt.Sprintf(`"N":%d}`, i+1)) {
			t.Errorf("entity %d: %s", i+1, r)
		}
	}

	// In the history: the 20 lines, in order.
	h := readHistory(t, filepath.Join(state, "tstable", "history"))
	if strings.Join(h, "\n") != strings.Join(lines, "\n") {
		t.Errorf("history:\n%s\nwant:\n%s", strings.Join(h, "\n"), strings.Join(lines, "\n"))
	}
}

// Keys that arrive together in one write are keys: Tab completes, arrows
// move, Ctrl-U, Ctrl-L and Ctrl-R act, and none of them ever reaches the
// line or the history.
func TestTmuxKeysInOneWrite(t *testing.T) {
	needTmux(t)
	bin := buildTstable(t)
	dir := t.TempDir()
	db := newDB(t, bin, dir)
	state := filepath.Join(dir, "state")
	s := startShell(t, []string{"HOME=" + dir, "XDG_STATE_HOME=" + state}, bin+" --db "+db+" shell")
	s.waitFor(`(?m)^tstable\[t\.db\]> *$`)

	// Tab on an empty prompt lists the commands (the first ten, in a menu
	// that scrolls), choosing none.
	s.send(keyTab)
	sc := s.waitFor(`(?m)^\s+advise\s+Run an application`)
	menu := regexp.MustCompile(`(?m)^ {10,}(\S+) +\S.*$`).FindAllStringSubmatch(sc, -1)
	var names []string
	for _, m := range menu {
		names = append(names, m[1])
	}
	if len(names) != 10 || names[0] != "advise" || !slices.IsSorted(names) || !slices.Contains(names, "exit") {
		t.Errorf("Tab on an empty prompt lists %q, want the first ten commands in order, the shell's (exit) among them:\n%s", names, sc)
	}
	s.line("")

	// Several matches: Tab shows them (inserting what they begin with)
	// before a second Tab chooses one.
	s.send("e", keyTab)
	sc = s.line("ex")
	for _, cmd := range []string{"exit", "explain", "export"} {
		if !regexp.MustCompile(`(?m)^\s+` + cmd + `\s`).MatchString(sc) {
			t.Errorf("Tab after \"e\" does not show %q:\n%s", cmd, sc)
		}
	}
	s.send(keyCtrlU)
	s.line("")

	// "ta" and Tab in one write: the command is completed, and a space
	// follows it.
	s.send("ta", keyTab)
	s.line("table")
	s.send("list", keyEnter)
	s.idle(`\| Employees +\|`)

	// A filter typed in one write with Tab in the middle: the property is
	// completed, then a PartitionKey literal.
	s.send(`query Employees --filter "Ag`, keyTab)
	s.line(`query Employees --filter "Age`)
	s.send(`gt 60 and PartitionKey eq 'Sa`, keyTab)
	s.line(`query Employees --filter "Age gt 60 and PartitionKey eq 'Sales'`)
	s.send(keyBackspace, `" --select Age -o csv`, keyEnter)
	s.idle(`\d+ entities · partition scan ·`)

	// Left, Right and text in one write.
	s.send("table lst", keyLeft, keyLeft, "i", keyRight, keyRight, keyEnter)
	s.idle(`(?s)> table list\n.*\| Employees +\|.*\| Employees +\|`)

	// Ctrl-U then Ctrl-L in one write: the line is dropped and the screen
	// cleared, the prompt at the top.
	s.send("garbage", keyCtrlU, keyCtrlL, "use Employees", keyEnter)
	s.waitFor(`(?m)^tstable\[t\.db\]:Employees> *$`)
	if first := strings.TrimSpace(strings.SplitN(s.visible(false), "\n", 2)[0]); first != "tstable[t.db]> use Employees" {
		t.Errorf("after Ctrl-L the screen starts with %q, want the prompt:\n%s", first, s.visible(false))
	}

	// Ctrl-R: search, the next older match, Enter runs it.
	s.send(keyCtrlR, "Emp")
	s.waitFor("\\(reverse-i-search\\)`Emp': use Employees")
	s.send(keyCtrlR)
	s.waitFor("\\(reverse-i-search\\)`Emp': query Employees --filter \"Age gt 60")
	s.send(keyEnter)
	s.idle(`(?s)> use Employees\n.*:Employees> query Employees --filter "Age gt 60.*\d+ entities · partition scan ·`)

	// Ctrl-R, no match, Ctrl-G: the line as it was.
	s.send("kept", keyCtrlR, "zzz")
	s.waitFor("\\(failed reverse-i-search\\)`zzz': kept")
	s.send(keyCtrlG)
	s.line("kept")
	s.send(keyCtrlU, "table list", keyEnter)
	s.idle(`(?s)(?:\| Employees +\|.*?){2}\| Employees +\|`) // the third table list

	exitShell(t, s)

	h := readHistory(t, filepath.Join(state, "tstable", "history"))
	query := `query Employees --filter "Age gt 60 and PartitionKey eq 'Sales'" --select Age -o csv`
	want := []string{"table list", query, "table list", "use Employees", query, "table list"}
	if strings.Join(h, "\n") != strings.Join(want, "\n") {
		t.Errorf("history:\n%s\nwant:\n%s", strings.Join(h, "\n"), strings.Join(want, "\n"))
	}
	noEscapes(t, "the history", h)
}

// NO_COLOR: the prompt and the completion menu have no colours; the
// selected suggestion is in reverse video. Without it, they have colours.
func TestTmuxNoColor(t *testing.T) {
	needTmux(t)
	bin := buildTstable(t)
	dir := t.TempDir()
	db := newDB(t, bin, dir)
	for _, noColor := range []bool{true, false} {
		env := []string{"HOME=" + dir, "XDG_STATE_HOME=" + filepath.Join(dir, "state")}
		if noColor {
			env = append(env, "NO_COLOR=1")
		}
		s := startShell(t, env, bin+" --db "+db+" shell")
		s.waitFor(`(?m)^tstable\[t\.db\]> *$`)
		s.send("e", keyTab, keyTab) // the menu, with exit selected
		s.waitFor(`(?m)^\s+export\s+Write`)
		colours, reverse := attributes(s.visible(true))
		if noColor && (len(colours) > 0 || !reverse) {
			t.Errorf("NO_COLOR=1: colours %q, reverse video %v:\n%q", colours, reverse, s.visible(true))
		}
		if !noColor && len(colours) == 0 {
			t.Errorf("no colours without NO_COLOR:\n%q", s.visible(true))
		}
		s.send(keyCtrlU)
		s.line("")
		exitShell(t, s)
	}
}

// attributes lists the colours set by the escape sequences in a captured
// pane (38 and 48 with their arguments, or 30–37, 40–47, 90–97, 100–107;
// 39 and 49, the default colours, are not colours), and whether reverse
// video is set.
func attributes(pane string) (colours []string, reverse bool) {
	for _, m := range regexp.MustCompile(`\x1b\[([0-9;:]*)m`).FindAllStringSubmatch(pane, -1) {
		params := strings.Split(m[1], ";")
		for i := 0; i < len(params); i++ {
			n, _ := strconv.Atoi(params[i])
			switch {
			case n == 7:
				reverse = true
			case n == 38 || n == 48:
				colours = append(colours, m[0])
				i = len(params)
			case (n >= 30 && n <= 37) || (n >= 40 && n <= 47) || (n >= 90 && n <= 97) || (n >= 100 && n <= 107):
				colours = append(colours, m[0])
			}
		}
	}
	return colours, reverse
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

// A terminal resized between two commands: the next table fits the new
// width (each line of it, joined where the terminal wrapped it, is no
// wider than the pane).
func TestTmuxTableFitsAResizedTerminal(t *testing.T) {
	needTmux(t)
	bin := buildTstable(t)
	dir := t.TempDir()
	db := newDB(t, bin, dir, "Wide")
	note := strings.Repeat("a long note ", 8)
	for _, rk := range []string{"1", "2"} {
		e := fmt.Sprintf(`{"PartitionKey":"p","RowKey":"%s","Name":"Zoë","Note":"%s"}`, rk, note)
		if out, err := exec.Command(bin, "--db", db, "insert", "Wide", e).CombinedOutput(); err != nil {
			t.Fatalf("insert: %v\n%s", err, out)
		}
	}
	s := startShell(t, []string{"HOME=" + dir, "XDG_STATE_HOME=" + filepath.Join(dir, "state")}, bin+" --db "+db+" shell")
	s.waitFor(`(?m)^tstable\[t\.db\]> *$`)
	if out, err := tmux("resize-window", "-t", s.session, "-x", "60").CombinedOutput(); err != nil {
		t.Fatalf("resize-window: %v\n%s", err, out)
	}
	s.send("query Wide", keyEnter)
	sc := s.waitFor(`(?m)^2 entities`)
	at := strings.LastIndex(sc, "> query Wide")
	rows := 0
	for _, l := range strings.Split(sc[at:], "\n")[1:] {
		if strings.HasPrefix(l, "+-") || strings.HasPrefix(l, "| ") {
			rows++
			if n := len([]rune(l)); n > 60 {
				t.Fatalf("a table line is %d columns in a 60-column terminal:\n%s", n, sc[at:])
			}
		}
	}
	if rows != 6 || !strings.Contains(sc[at:], "…") {
		t.Fatalf("want a table of two rows, the notes cut:\n%s", sc[at:])
	}
	exitShell(t, s)
}
