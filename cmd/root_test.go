package cmd

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"github.com/spf13/cobra"
	"github.com/tstable/tstable/iostreams"
)

// cobra's completion command is there for every shell.
func TestCompletionScripts(t *testing.T) {
	for _, sh := range []string{"bash", "zsh", "fish", "powershell"} {
		out, errOut, status := run(context.Background(), filepath.Join(t.TempDir(), "t.db"), "", "completion", sh)
		if status != 0 || !strings.Contains(out, "tstable") || errOut != "" {
			t.Errorf("completion %s: exit %d, %d bytes, stderr %q", sh, status, len(out), errOut)
		}
	}
	_, errOut, status := run(context.Background(), filepath.Join(t.TempDir(), "t.db"), "", "completion", "tcsh")
	if status != 2 || !strings.HasPrefix(errOut, "error: usage: ") {
		t.Errorf("completion tcsh: exit %d, %q", status, errOut)
	}
}

// On a terminal the default output is a table cut to the terminal's width;
// elsewhere it is JSONL.
func TestDefaultOutputFollowsTheTerminal(t *testing.T) {
	db := filepath.Join(t.TempDir(), "t.db")
	seed(t, db)
	ios, _, out, _ := iostreams.Test()
	ios.OutTTY, ios.Width = true, 80
	if status := Execute(context.Background(), NewRoot(ios), []string{"--db", db, "query", "People", "--filter", "RowKey eq '00010'"}, ios); status != 0 {
		t.Fatalf("exit %d", status)
	}
	lines := strings.Split(strings.TrimSpace(out.String()), "\n")
	if !strings.HasPrefix(lines[0], "+---") || lines[len(lines)-1] != "1 entity" {
		t.Fatalf("not a table:\n%s", out)
	}
	for _, l := range lines {
		if w := len([]rune(l)); w > 80 {
			t.Errorf("line of %d columns on an 80-column terminal: %s", w, l)
		}
	}
	if !strings.Contains(out.String(), "…") {
		t.Errorf("nothing was cut:\n%s", out)
	}
	got := mustRun(t, db, "", "query", "People", "--filter", "RowKey eq '00010'")
	if !strings.HasPrefix(got, `{"odata.etag":`) || strings.Count(got, "\n") != 1 {
		t.Errorf("not JSONL: %q", got)
	}
}

// pagedOut is a terminal's output that says it is read in a pager (as
// the shell's pager does when the output is longer than the screen).
type pagedOut struct {
	bytes.Buffer
	paged bool
}

func (o *pagedOut) Paged([]byte) bool { return o.paged }

// A table read in a pager, which scrolls sideways, is laid out whole, not
// cut to the terminal's width; one that is not is cut as on a terminal.
func TestPagedTableIsNotCutToTheWidth(t *testing.T) {
	db := filepath.Join(t.TempDir(), "t.db")
	seed(t, db)
	for _, paged := range []bool{false, true} {
		ios, _, _, _ := iostreams.Test()
		out := &pagedOut{paged: paged}
		ios.Out, ios.OutTTY, ios.Width = out, true, 80
		if status := Execute(context.Background(), NewRoot(ios), []string{"--db", db, "query", "People", "--filter", "RowKey eq '00010'"}, ios); status != 0 {
			t.Fatalf("exit %d", status)
		}
		widest := 0
		for _, l := range strings.Split(out.String(), "\n") {
			widest = max(widest, len([]rune(l)))
		}
		if !strings.HasPrefix(out.String(), "+---") || (widest > 80) != paged {
			t.Errorf("paged %v: the widest line is %d columns on an 80-column terminal:\n%s", paged, widest, out)
		}
	}
}

// The database path: --db, else $TSTABLE_DB, else tstable.db in the data
// folder (appdirs: $XDG_DATA_HOME/tstable, on Windows %LOCALAPPDATA%\tstable).
func TestDBPath(t *testing.T) {
	path := func(f *globalFlags) string {
		t.Helper()
		tg, err := f.resolveTarget()
		if err != nil || tg.IsRemote() {
			t.Fatalf("target %+v, %v", tg, err)
		}
		return tg.Path
	}
	f := &globalFlags{}
	t.Setenv("TSTABLE_DB", "")
	t.Setenv(envConnectionString, "")
	data := t.TempDir()
	t.Setenv("XDG_DATA_HOME", data)
	t.Setenv("LOCALAPPDATA", data)
	if got := path(f); got != filepath.Join(data, "tstable", "tstable.db") {
		t.Errorf("default: %s", got)
	}
	env, flag := filepath.Join(data, "env.db"), filepath.Join(data, "flag.db")
	t.Setenv("TSTABLE_DB", env)
	if got := path(f); got != env {
		t.Errorf("env: %s", got)
	}
	f.db = flag
	if got := path(f); got != flag {
		t.Errorf("flag: %s", got)
	}
}

// On a terminal, import draws a progress bar on standard error and ends
// with the count and the rate; standard output stays empty.
func TestImportOnATerminal(t *testing.T) {
	db := filepath.Join(t.TempDir(), "t.db")
	mustRun(t, db, "", "table", "create", "People")
	ios, _, out, errOut := iostreams.Test()
	ios.ErrTTY = true
	status := Execute(context.Background(), NewRoot(ios), []string{"--db", db, "import", "People", filepath.Join("..", "testdata", "people.jsonl")}, ios)
	if status != 0 || out.Len() != 0 {
		t.Fatalf("exit %d, stdout %q, stderr %q", status, out, errOut)
	}
	if !regexp.MustCompile(`imported 5 entities into People in \d+\.\ds \(\d+ entities/s\)\n$`).MatchString(errOut.String()) {
		t.Errorf("stderr: %q", errOut)
	}
}

// A command that fails leaves no database file behind; one that succeeds
// creates it.
func TestFailedCommandCreatesNoFile(t *testing.T) {
	db := filepath.Join(t.TempDir(), "t.db")
	if _, _, st := run(context.Background(), db, "", "table", "create", "ab"); st != ExitFailed {
		t.Fatalf("table create ab: exit %d", st)
	}
	if _, err := os.Stat(db); !os.IsNotExist(err) {
		t.Errorf("a failed table create left %s (%v)", db, err)
	}
	mustRun(t, db, "", "table", "create", "Orders")
	if _, err := os.Stat(db); err != nil {
		t.Errorf("table create Orders made no file: %v", err)
	}
}

// --version names the build.
func TestVersion(t *testing.T) {
	out, _, st := run(context.Background(), filepath.Join(t.TempDir(), "t.db"), "", "--version")
	if st != 0 || !strings.HasPrefix(out, "tstable ") || strings.Count(out, "\n") != 1 {
		t.Errorf("--version: exit %d, %q", st, out)
	}
}

// A release build states its version (make build and make dist set it
// from the tag or commit, scripts/version.sh).
func TestVersionStatedByTheBuild(t *testing.T) {
	defer func(v string) { buildVersion = v }(buildVersion)
	buildVersion = "1.2.3"
	if out, _, st := run(context.Background(), filepath.Join(t.TempDir(), "t.db"), "", "--version"); st != 0 || out != "tstable 1.2.3\n" {
		t.Errorf("--version: exit %d, %q", st, out)
	}
}

// compact gives back a deleted table's space and says how much.
func TestCompactCommand(t *testing.T) {
	db := filepath.Join(t.TempDir(), "t.db")
	mustRun(t, db, "", "sample", "load", "logs", "--size", "20000")
	mustRun(t, db, "", "table", "delete", "LogsByDate")
	out := mustRun(t, db, "", "compact", "-o", "json")
	var r struct{ Before, After int64 }
	if err := json.Unmarshal([]byte(out), &r); err != nil || r.After >= r.Before {
		t.Errorf("compact: %s (%v)", out, err)
	}
	if got := mustRun(t, db, "", "query", "LogsSpread", "--top", "1"); !strings.Contains(got, `"PartitionKey"`) {
		t.Error("LogsSpread is gone after compaction")
	}
	if _, errOut, st := run(context.Background(), filepath.Join(t.TempDir(), "none.db"), "", "compact"); st != ExitFailed || !strings.Contains(errOut, "no database") {
		t.Errorf("compact with no database: exit %d, %s", st, errOut)
	}
}

// copy between two tables of one local file does not wait on itself.
func TestCopyWithinOneFile(t *testing.T) {
	t.Setenv("XDG_STATE_HOME", t.TempDir())
	db := filepath.Join(t.TempDir(), "t.db")
	seed(t, db)
	if _, errOut, st := run(context.Background(), db, "", "copy", "People", "--to-db", db, "--to-table", "PeopleCopy", "--wait", "0"); st != 0 {
		t.Fatalf("copy within one file: exit %d\n%s", st, errOut)
	}
	if a, b := mustRun(t, db, "", "query", "People", "--select", "FirstName"), mustRun(t, db, "", "query", "PeopleCopy", "--select", "FirstName"); strings.Count(a, "\n") != strings.Count(b, "\n") || a == "" {
		t.Errorf("the copy differs:\n%s\n%s", a, b)
	}
}

// A process builds only the command it runs; that command must be the one
// the whole tree would run, with the same names, help and flags.
func TestOneCommandTreeMatchesTheWholeTree(t *testing.T) {
	help := func(root func(f *Factory, args []string) *cobra.Command, args ...string) string {
		ios, _, out, errOut := iostreams.Test()
		if status := Execute(context.Background(), root(&Factory{IO: ios}, args), args, ios); status != 0 {
			t.Fatalf("%v: exit %d: %s", args, status, errOut)
		}
		return out.String()
	}
	whole := func(f *Factory, _ []string) *cobra.Command { return newRoot(f) }
	for _, c := range topCommands() {
		built := c.build(&Factory{IO: &iostreams.IOStreams{}})
		if built.Name() != c.name || (c.alias != "" && !built.HasAlias(c.alias)) || len(built.Aliases) > 0 && c.alias != built.Aliases[0] {
			t.Errorf("%s (alias %q) builds %s, aliases %v", c.name, c.alias, built.Name(), built.Aliases)
		}
		for _, name := range []string{c.name, c.alias} {
			if name == "" {
				continue
			}
			args := []string{"--db", "x.db", "-o", "json", name, "--help"}
			root := newRootFor(&Factory{IO: &iostreams.IOStreams{}}, args)
			if len(root.Commands()) != 1 {
				t.Errorf("%s: %d commands built", name, len(root.Commands()))
			}
			if got, want := help(newRootFor, args...), help(whole, args...); got != want {
				t.Errorf("%s --help differs from the whole tree's:\n%s\nwant:\n%s", name, got, want)
			}
		}
	}
	for _, args := range [][]string{{}, {"--version"}, {"help", "query"}, {"completion", "bash"}, {"__complete", "qu"}, {"quer"}, {"--db", "query"}} {
		if n := len(newRootFor(&Factory{IO: &iostreams.IOStreams{}}, args).Commands()); n < len(topCommands()) {
			t.Errorf("%q: %d commands built, want the whole tree", args, n)
		}
	}
}

// A process builds the one command its arguments name, reading the root's
// flags as cobra does: a flag's value is not a command, -x takes none.
func TestCommandName(t *testing.T) {
	root := newRootWith(&Factory{IO: iostreams.System()}, false)
	for _, c := range []struct {
		args []string
		want string
	}{
		{[]string{"get", "T", "P", "R"}, "get"},
		{[]string{"--db", "get", "query", "T"}, "query"},
		{[]string{"-o", "json", "get"}, "get"},
		{[]string{"--output=json", "get"}, "get"},
		{[]string{"-x", "query", "T"}, "query"},
		{[]string{"--expanded", "get"}, "get"},
		{[]string{"--wait", "1s", "--connection-string", "x", "stats"}, "stats"},
		{[]string{"--nosuch", "get"}, ""},
		{[]string{"--", "get"}, ""},
		{nil, ""},
	} {
		if got := commandName(root, c.args); got != c.want {
			t.Errorf("commandName(%q) = %q, want %q", c.args, got, c.want)
		}
	}
}

// isolateState points tstable's state folder (copy checkpoints, the
// shell's history) at a temporary folder, on every system.
func isolateState(t *testing.T) {
	t.Helper()
	d := t.TempDir()
	t.Setenv("XDG_STATE_HOME", d)
	t.Setenv("LOCALAPPDATA", d)
}

// Usage errors are told by their type, not by the words of a message: a
// failure that happens to begin as cobra's messages do ("requires …",
// "unknown flag …") is a failure (exit 1), and cobra's own argument
// checks are usage errors (exit 2) wherever they come from.
func TestUsageErrorsByType(t *testing.T) {
	for _, m := range []string{"requires a server that is not running", "unknown flag in the stored file", "invalid argument to the disk"} {
		if msg, st := describeError(context.Background(), errors.New(m), false); st != ExitFailed || strings.HasPrefix(msg, "error: usage") || !strings.HasSuffix(msg, m) {
			t.Errorf("%q: %q, exit %d; want a failure", m, msg, st)
		}
	}
	db := filepath.Join(t.TempDir(), "t.db")
	for _, args := range [][]string{
		{"quarry"},                       // unknown command under the root
		{"completion", "bash", "extra"},  // cobra's NoArgs
		{"query", "People", "--filer=x"}, // unknown flag
		{"query", "People", "--top"},     // flag needs an argument
		{"query", "People", "--top", "x"},
		{"table", "createl"},
	} {
		_, errOut, st := run(context.Background(), db, "", args...)
		if st != ExitUsage || !strings.HasPrefix(errOut, "error: usage: ") {
			t.Errorf("%q: exit %d, %q; want a usage error", args, st, errOut)
		}
	}
}

// A command run without the root's pre-run (a test calling its RunE, a
// program embedding the tree) prints in the format the streams choose,
// with the target the environment names: it never meets a nil printer.
func TestACommandRunAloneHasItsDefaults(t *testing.T) {
	t.Setenv("TSTABLE_DB", filepath.Join(t.TempDir(), "t.db"))
	t.Setenv(envConnectionString, "")
	ios, _, out, _ := iostreams.Test()
	c, _, err := NewRoot(ios).Find([]string{"status"})
	if err != nil {
		t.Fatal(err)
	}
	c.SetContext(context.Background())
	if err := c.RunE(c, nil); err != nil {
		t.Fatal(err)
	}
	if !strings.HasPrefix(out.String(), `{"backend":"local"`) {
		t.Errorf("status run alone printed %q; want its jsonl line", out)
	}
}

// --expanded and -x take their value as the next argument too, as the guides
// write them (--expanded off), wherever they stand.
func TestExpandedValueAsTheNextArgument(t *testing.T) {
	db := filepath.Join(t.TempDir(), "t.db")
	seed(t, db)
	for _, args := range [][]string{
		{"query", "People", "--top", "2", "-o", "table", "--expanded", "off"},
		{"--expanded", "off", "query", "People", "--top", "2", "-o", "table"},
		{"-x", "off", "query", "People", "--top", "2", "-o", "table"},
	} {
		out, errOut, st := run(context.Background(), db, "", args...)
		if st != 0 || !strings.HasPrefix(out, "+---") {
			t.Errorf("%s: exit %d, not a table:\n%s%s", strings.Join(args, " "), st, out, errOut)
		}
	}
	for _, args := range [][]string{
		{"query", "People", "--top", "2", "-o", "table", "-x", "on"},
		{"query", "People", "--top", "2", "-o", "table", "--expanded", "on"},
		{"query", "People", "--top", "2", "-x", "-o", "table"},
	} {
		out, errOut, st := run(context.Background(), db, "", args...)
		if st != 0 || !strings.HasPrefix(out, "-[ 1 ]") {
			t.Errorf("%s: exit %d, not expanded:\n%s%s", strings.Join(args, " "), st, out, errOut)
		}
	}
}
