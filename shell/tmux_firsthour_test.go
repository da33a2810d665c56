package shell_test

import (
	"path/filepath"
	"regexp"
	"strings"
	"testing"
)

// help in a 60-column terminal: every line fits the screen (none is
// wrapped by the terminal, in the middle of a word), and the list's text
// goes on under its column.
func TestTmuxHelpFitsTheScreen(t *testing.T) {
	s, _, _, _ := newShell(t)
	s.resize(60)
	s.send("help", keyEnter)
	sc := s.idle(`help filter the \$filter language\.\n`)
	for _, l := range strings.Split(sc[strings.LastIndex(sc, "> help"):], "\n") {
		if n := len([]rune(l)); n > 60 {
			t.Errorf("a line of %d columns in a 60-column terminal: %q", n, l)
		}
	}
	if !regexp.MustCompile(`(?m)^  advise    Run an application's queries against the data\n {12}\S`).MatchString(sc) {
		t.Errorf("the list's text does not go on under its column:\n%s", sc)
	}
	exitShell(t, s)
}

// Tab inside a --filter's single quotes completes as inside double
// quotes: properties, operators, PartitionKeys written as they must be
// inside single quotes (quote, backslash, quote, quote: 'Sales' closes
// and reopens the shell's quotes around it). Tab after `Age gt ` shows the
// literal's form and inserts nothing; the line runs as typed, and the
// history holds it.
func TestTmuxTabInsideSingleQuotes(t *testing.T) {
	s, _, dir, _ := newShell(t)

	s.send(`query Employees --filter 'Ag`, keyTab)
	s.waitFor(`(?m)--filter 'Age $`) // a space after the name, as after "Age
	s.send(`g`, keyTab)
	s.waitFor(`(?m)^\s+ge\s+greater than or equal`)
	s.send(`t `, keyTab)
	s.waitFor(`(?m)^\s+0\s+Edm\.Int32 literal`)
	s.line(`query Employees --filter 'Age gt`)
	s.send(`60 and PartitionKey eq `, keyTab)
	s.waitFor(`(?m)^\s+'\\''Sales'\\''\s+a PartitionKey in Employees`)
	s.line(`query Employees --filter 'Age gt 60 and PartitionKey eq '\''`)
	s.send(`Sa`, keyTab)
	s.line(`query Employees --filter 'Age gt 60 and PartitionKey eq '\''Sales'\''`)
	s.send(keyBackspace, `' --select Age -o csv`, keyEnter) // Tab put a space after the literal
	sc := s.idle(`\d+ entities · partition scan ·`)
	if !regexp.MustCompile(`(?m)^Sales,empid_\d+,.*,6[1-9]$`).MatchString(sc) || strings.Contains(sc, "Marketing,") {
		t.Errorf("the completed query did not run as typed:\n%s", sc)
	}
	exitShell(t, s)

	h := readHistory(t, filepath.Join(dir, "state", "tstable", "history"))
	if want := `query Employees --filter 'Age gt 60 and PartitionKey eq '\''Sales'\''' --select Age -o csv`; len(h) != 1 || h[0] != want {
		t.Errorf("history: %q, want %q", h, want)
	}
}

// A lesson in the shell: once a step's command has run, its "(Enter runs
// it)" is gone from the screen, the command's output in its place; only
// the step waiting shows it.
func TestTmuxLessonLeavesNoPause(t *testing.T) {
	s, _, _, _ := newShell(t)
	s.send("learn query-classes", keyEnter)
	s.waitFor(`(?m)^tstable> sample load employees --size 20\n\(Enter runs it\)`)
	s.send(keyEnter)
	s.waitFor(`(?m)^tstable> explain Employees .*\n\(Enter runs it\)`)
	s.send(keyEnter)
	sc := s.waitFor(`(?s)point query · read .*\n\(Enter runs it\)`)
	lesson := sc[strings.LastIndex(sc, "> learn query-classes"):]
	if n := strings.Count(lesson, "(Enter runs it)"); n != 1 {
		t.Errorf("%d pauses on the screen, want only the one waiting:\n%s", n, lesson)
	}
	if !regexp.MustCompile(`(?m)^tstable> sample load employees --size 20\nloaded 42 entities into Employees$`).MatchString(lesson) {
		t.Errorf("the command's output is not under it:\n%s", lesson)
	}
	s.send(keyCtrlC)
	s.idle(`error: interrupted`)
	exitShell(t, s)
}
