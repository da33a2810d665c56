package shell

import (
	"context"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"runtime"
	"strings"
	"testing"

	"github.com/spf13/cobra"
	"github.com/tstable/tstable/backend"
	"github.com/tstable/tstable/cmdspec"
	"github.com/tstable/tstable/iostreams"
	"github.com/tstable/tstable/odata"
	"github.com/tstable/tstable/store"
)

// fakeTree is shaped like tstable's command tree.
func fakeTree() *cobra.Command {
	root := &cobra.Command{Use: "tstable"}
	root.PersistentFlags().StringP("output", "o", "", "")
	q := &cobra.Command{Use: "query TABLE", Run: func(*cobra.Command, []string) {}}
	cmdspec.Args(q, "TABLE")
	q.Flags().String("filter", "", "")
	q.Flags().Bool("all", false, "")
	get := &cobra.Command{Use: "get TABLE PK RK", Run: func(*cobra.Command, []string) {}}
	cmdspec.Args(get, "TABLE", "PK", "RK")
	ins := &cobra.Command{Use: "insert TABLE [JSON|-]", Run: func(*cobra.Command, []string) {}}
	cmdspec.Args(ins, "TABLE", "[JSON|-]")
	cmdspec.Writes(ins)
	adv := &cobra.Command{Use: "advise TABLE --queries FILE", Run: func(*cobra.Command, []string) {}}
	cmdspec.Args(adv, "TABLE")
	adv.Flags().String("queries", "", "")
	table := &cobra.Command{Use: "table"}
	del := &cobra.Command{Use: "delete NAME", Run: func(*cobra.Command, []string) {}}
	cmdspec.Args(del, "NAME")
	cmdspec.NamesTable(del)
	cmdspec.Writes(del)
	table.AddCommand(del, &cobra.Command{Use: "list", Run: func(*cobra.Command, []string) {}})
	root.AddCommand(q, get, ins, adv, table)
	return root
}

// testReport writes errors as "error: …" lines: the command line's own
// formatter is in cmd, which this package does not import.
func testReport(ios *iostreams.IOStreams) func(error) int {
	return func(err error) int {
		fmt.Fprintln(ios.ErrOut, "error: "+err.Error())
		var ue *cmdspec.UsageError
		if errors.As(err, &ue) {
			return cmdspec.ExitUsage
		}
		return cmdspec.ExitFailed
	}
}

// testShell returns a shell whose commands are recorded, over a store
// holding the tables Employees and Logs.
func testShell(t *testing.T) (*shell, *[][]string, *iostreams.IOStreams) {
	t.Helper()
	s, ran, ios, _ := testShellAt(t)
	return s, ran, ios
}

// testShellAt is testShell, also returning the database's path.
func testShellAt(t *testing.T) (*shell, *[][]string, *iostreams.IOStreams, string) {
	t.Helper()
	ctx := context.Background()
	path := filepath.Join(t.TempDir(), "t.db")
	db, err := store.Open(path, nil)
	if err != nil {
		t.Fatal(err)
	}
	for _, n := range []string{"Employees", "Logs"} {
		if err := db.CreateTable(ctx, n); err != nil {
			t.Fatal(err)
		}
	}
	db.Close()
	var ran [][]string
	ios, _, _, _ := iostreams.Test()
	s := newShell(Config{
		IO: ios,
		Exec: func(ctx context.Context, sess *Session, _ *iostreams.IOStreams, args []string) int {
			ran = append(ran, args)
			if sess == nil {
				t.Error("a command ran without the session")
			}
			return 0
		},
		Tree:   fakeTree,
		Report: testReport(ios),
		Read: func(ctx context.Context, fn func(backend.Backend) error) error {
			db, err := store.Open(path, &store.Options{ReadOnly: true})
			if err != nil {
				return err
			}
			defer db.Close()
			return fn(db)
		},
	})
	return s, &ran, ios, path
}

func TestUseInsertsTheTable(t *testing.T) {
	cases := []struct{ line, want string }{
		{`query --filter "Age gt 3"`, "query|Employees|--filter|Age gt 3"},
		{`query`, "query|Employees"},
		{`query --all`, "query|Employees|--all"},
		{`query Logs`, "query|Logs"},
		{`query logs --filter x`, "query|logs|--filter|x"},
		{`get Sales 00010`, "get|Employees|Sales|00010"},
		{`get Employees Sales 00010`, "get|Employees|Sales|00010"},
		{`get Logs P1`, "get|Logs|P1"}, // another table named: nothing inserted, cobra says RK is missing
		{`insert '{"PartitionKey":"a","RowKey":"b"}'`, `insert|Employees|{"PartitionKey":"a","RowKey":"b"}`},
		{`insert Logs -`, "insert|Logs|-"},
		{`insert -`, "insert|Employees|-"},
		{`advise --queries q.txt`, "advise|Employees|--queries|q.txt"},
		{`table list`, "table|list"},
		{`tstable query`, "query|Employees"},
		{`query -o json`, "query|Employees|-o|json"},
	}
	for _, tc := range cases {
		s, ran, _ := testShell(t)
		ctx := context.Background()
		if st, _ := s.execLine(ctx, "use employees"); st != 0 || s.sess.Table != "Employees" {
			t.Fatalf("use employees: status %d, table %q (want the name as created)", st, s.sess.Table)
		}
		s.execLine(ctx, tc.line)
		if len(*ran) != 1 || strings.Join((*ran)[0], "|") != tc.want {
			t.Errorf("%s ran %q, want %s", tc.line, *ran, tc.want)
		}
	}
}

func TestWithoutUseNothingIsInserted(t *testing.T) {
	s, ran, _ := testShell(t)
	s.execLine(context.Background(), "get Sales 00010")
	if strings.Join((*ran)[0], "|") != "get|Sales|00010" {
		t.Errorf("ran %q", *ran)
	}
}

func TestMetaCommands(t *testing.T) {
	ctx := context.Background()
	s, ran, ios := testShell(t)
	errOut := ios.ErrOut.(interface{ String() string })
	out := ios.Out.(interface{ String() string })

	if st, _ := s.execLine(ctx, "use Nope"); st != 1 || !strings.Contains(errOut.String(), `error: TableNotFound: table "Nope" does not exist (the tables are Employees, Logs`) {
		t.Errorf("use Nope: status %d, stderr %q", st, errOut.String())
	}
	if s.sess.Table != "" {
		t.Errorf("a failed use chose %q", s.sess.Table)
	}
	// next with nothing to continue is a plain note, never an error.
	before := errOut.String()
	if st, _ := s.execLine(ctx, "next"); st != 0 || strings.TrimPrefix(errOut.String(), before) != "note: no query to continue: next shows the next page of the last query; run one first\n" {
		t.Errorf("next with no query: status %d, stderr %q", st, strings.TrimPrefix(errOut.String(), before))
	}
	s.sess.LastQuery, s.sess.Continuation = []string{"query", "Logs", "--page-size=2"}, ""
	before = errOut.String()
	if st, _ := s.execLine(ctx, "next"); st != 0 || strings.TrimPrefix(errOut.String(), before) != "note: no more pages: the last query returned everything\n" {
		t.Errorf("next after the last page: status %d, stderr %q", st, strings.TrimPrefix(errOut.String(), before))
	}
	s.sess.LastQuery, s.sess.Continuation = []string{"query", "Logs", "--page-size=2"}, "TOKEN"
	if st, _ := s.execLine(ctx, "next"); st != 0 || strings.Join((*ran)[len(*ran)-1], "|") != "query|Logs|--page-size=2|--continuation|TOKEN" {
		t.Errorf("next ran %q", *ran)
	}
	s.sess.Explain = true
	s.execLine(ctx, "explain off")
	if s.sess.Explain {
		t.Error("explain off left explain on")
	}
	s.execLine(ctx, "explain draw")
	if !s.sess.ExplainDraw() {
		t.Error("explain draw does not draw")
	}
	s.execLine(ctx, "explain on")
	if !s.sess.Explain || s.sess.ExplainDraw() {
		t.Error("explain on left explain off, or drawing")
	}
	n := len(*ran)
	s.execLine(ctx, "explain Logs")
	if len(*ran) != n+1 || strings.Join((*ran)[n], "|") != "explain|Logs" {
		t.Errorf("explain TABLE is the command's: ran %q", (*ran)[n:])
	}
	s.execLine(ctx, "help")
	if !strings.Contains(out.String(), "Shell commands:") || !strings.Contains(out.String(), "  query") {
		t.Errorf("help printed %q", out.String())
	}
	s.execLine(ctx, "help query")
	if strings.Join((*ran)[len(*ran)-1], "|") != "query|--help" {
		t.Errorf("help query ran %q", (*ran)[len(*ran)-1])
	}
	if st, _ := s.execLine(ctx, `query --filter "unclosed`); st != 2 || !strings.Contains(errOut.String(), "quote a word with spaces as a shell does") {
		t.Errorf("bad quoting: status %d, stderr %q", st, errOut.String())
	}
	for _, q := range []string{"exit", "quit"} {
		if _, quit := s.execLine(ctx, q); !quit {
			t.Errorf("%s did not end the shell", q)
		}
	}
	if _, quit := s.execLine(ctx, "# a comment"); quit {
		t.Error("a comment ended the shell")
	}
}

func TestDeletingTheTableInUse(t *testing.T) {
	ctx := context.Background()
	s, _, _, path := testShellAt(t)
	s.execLine(ctx, "use Logs")
	// The recording Exec runs nothing: delete the table as the command would.
	exec := s.cfg.Exec
	s.cfg.Exec = func(ctx context.Context, sess *Session, ios *iostreams.IOStreams, args []string) int {
		if strings.Join(args, " ") == "table delete logs" {
			db, err := store.Open(path, nil)
			if err != nil {
				t.Fatal(err)
			}
			defer db.Close()
			if err := db.DeleteTable(ctx, "logs"); err != nil {
				t.Fatal(err)
			}
		}
		return exec(ctx, sess, ios, args)
	}
	s.execLine(ctx, "table delete logs")
	if s.sess.Table != "" {
		t.Errorf("table in use after deleting it: %q", s.sess.Table)
	}
}

func TestPrompt(t *testing.T) {
	s, _, _ := testShell(t)
	if p := s.prompt(); p != "tstable> " {
		t.Errorf("prompt %q", p)
	}
	s.sess.Table = "Employees"
	label := "remote devstoreaccount1"
	s.cfg.Label = func() string { return label }
	s.refreshLabel()
	if p := s.prompt(); p != "tstable[remote devstoreaccount1]:Employees> " {
		t.Errorf("prompt %q", p)
	}
	// The prompt follows the backend the commands use, asked after each
	// on a terminal; lines read from a file or pipe have no prompt and
	// never ask.
	label = "served t.db"
	s.execLine(context.Background(), "query")
	if p := s.prompt(); p != "tstable[remote devstoreaccount1]:Employees> " {
		t.Errorf("prompt after a line read from a file asked the label again: %q", p)
	}
	s.cfg.IO.InTTY = true
	s.execLine(context.Background(), "query")
	if p := s.prompt(); p != "tstable[served t.db]:Employees> " {
		t.Errorf("prompt after the backend changed: %q", p)
	}
}

func TestLineModeStatus(t *testing.T) {
	ios, in, _, _ := iostreams.Test()
	in.WriteString("ok\nfail\nok\n\n# done\n")
	var ran []string
	status := Run(context.Background(), Config{IO: ios, Report: testReport(ios), Exec: func(_ context.Context, _ *Session, _ *iostreams.IOStreams, args []string) int {
		ran = append(ran, args[0])
		if args[0] == "fail" {
			return 1
		}
		return 0
	}})
	if status != 1 || strings.Join(ran, ",") != "ok,fail,ok" {
		t.Errorf("status %d, ran %v: a failure is reported at the end and the rest still runs", status, ran)
	}
}

func TestCheckFailureEndsTheShell(t *testing.T) {
	ios, in, _, errOut := iostreams.Test()
	in.WriteString("query T\n")
	ran := false
	status := Run(context.Background(), Config{IO: ios, Report: testReport(ios),
		Exec: func(context.Context, *Session, *iostreams.IOStreams, []string) int { ran = true; return 0 },
		Check: func(context.Context) error {
			return odata.Errorf(odata.CodeDatabaseLocked, "database t.db is in use by another tstable process")
		},
	})
	if status != 1 || ran || !strings.Contains(errOut.String(), "error: DatabaseLocked: database t.db is in use") {
		t.Errorf("status %d, ran %v, stderr %q", status, ran, errOut.String())
	}
}

func TestRunnerInterrupt(t *testing.T) {
	var r runner
	if r.Interrupt() {
		t.Error("Interrupt with nothing running reported a command")
	}
	st := r.run(context.Background(), func(ctx context.Context) int {
		if !r.Interrupt() {
			t.Error("Interrupt did not see the running command")
		}
		<-ctx.Done() // cancelled, not the shell's context
		return 130
	})
	if st != 130 {
		t.Errorf("status %d", st)
	}
}

func TestHistory(t *testing.T) {
	path := filepath.Join(t.TempDir(), "state", "tstable", "history")
	h := openHistory(path)
	h.add("use Employees")
	h.add("use Employees") // a repeat is kept once
	h.add("status --connection-string 'DefaultEndpointsProtocol=https;AccountName=a;AccountKey=c2VjcmV0;EndpointSuffix=core.windows.net'")
	h.add("copy T --to-connection-string=TableEndpoint=https://a.table.core.windows.net/;SharedAccessSignature=sv=2020&sig=abc")
	again := openHistory(path) // a later session
	got := strings.Join(again.lines, "\n")
	if strings.Contains(got, "c2VjcmV0") || strings.Contains(got, "sig=abc") || strings.Contains(got, "AccountKey=c2") {
		t.Errorf("a secret reached the history file:\n%s", got)
	}
	if len(again.lines) != 3 || again.lines[0] != "use Employees" || !strings.Contains(again.lines[1], "<redacted>") {
		t.Errorf("history:\n%s", got)
	}
	// (Windows has no mode bits: the folder's permissions keep it the user's.)
	if fi, err := os.Stat(path); err != nil || (runtime.GOOS != "windows" && fi.Mode().Perm() != 0o600) {
		t.Errorf("history file mode: %v %v", fi, err)
	}
}

func TestDefaultHistoryPath(t *testing.T) {
	state := t.TempDir()
	t.Setenv("XDG_STATE_HOME", state)
	t.Setenv("LOCALAPPDATA", state)
	if p := DefaultHistoryPath(); p != filepath.Join(state, "tstable", "history") {
		t.Errorf("%s", p)
	}
}

// `use` says why it cannot read the tables (a locked database, say)
// instead of claiming the table does not exist.
func TestUseReportsStorageErrors(t *testing.T) {
	s, _, ios := testShell(t)
	s.cfg.Read = func(context.Context, func(backend.Backend) error) error {
		return odata.Errorf(odata.CodeDatabaseLocked, "database t.db is in use by another tstable process")
	}
	st, _ := s.execLine(context.Background(), "use Employees")
	errOut := ios.ErrOut.(interface{ String() string }).String()
	if st != 1 || !strings.Contains(errOut, "DatabaseLocked") || strings.Contains(errOut, "TableNotFound") {
		t.Errorf("use on a locked database: status %d, stderr %q", st, errOut)
	}
}

// The words people bring from psql, sqlite3 and bash: \q, quit, .quit,
// \x, \dt, .tables, \timing, .timer, \pset pager, history, and help on
// each of the shell's own commands.
func TestOtherShellsWords(t *testing.T) {
	ctx := context.Background()
	s, ran, ios := testShell(t)
	out := ios.Out.(interface{ String() string })
	errOut := ios.ErrOut.(interface{ String() string })
	for _, q := range []string{`\q`, "quit", ".quit", ".exit", "exit"} {
		if _, quit := s.execLine(ctx, q); !quit {
			t.Errorf("%s did not end the shell", q)
		}
	}
	s.execLine(ctx, `\x`)
	if s.sess.Expand != "on" {
		t.Errorf(`\x: expanded %q, want on`, s.sess.Expand)
	}
	s.execLine(ctx, `\x`)
	if s.sess.Expand != "off" {
		t.Errorf(`\x again: expanded %q, want off`, s.sess.Expand)
	}
	for _, w := range []string{`\dt`, ".tables"} {
		n := len(*ran)
		s.execLine(ctx, w)
		if len(*ran) != n+1 || strings.Join((*ran)[n], " ") != "table list" {
			t.Errorf("%s ran %q, want table list", w, (*ran)[n:])
		}
	}
	s.sess.Timing = true
	for _, tc := range []struct {
		line string
		want bool
	}{{`\timing`, false}, {`\timing`, true}, {".timer off", false}, {"timing on", true}, {`\timing off`, false}} {
		if st, _ := s.execLine(ctx, tc.line); st != 0 || s.sess.Timing != tc.want {
			t.Errorf("%s: status %d, timing %v, want %v", tc.line, st, s.sess.Timing, tc.want)
		}
	}
	s.pager.on = true
	for _, tc := range []struct {
		line string
		want bool
	}{{`\pset pager`, false}, {`\pset pager on`, true}, {"pager off", false}, {"pager on", true}} {
		if st, _ := s.execLine(ctx, tc.line); st != 0 || s.pager.on != tc.want {
			t.Errorf("%s: status %d, pager %v, want %v", tc.line, st, s.pager.on, tc.want)
		}
	}
	for _, tc := range []struct{ line, want string }{
		{"help use", "use [TABLE]"},
		{"help next", "next — the next page of the last query"},
		{"help expanded", `\x toggles`},
		{`help \x`, "expanded on|off|auto"},
		{"help pager", "less -S"},
		{"help timing", ".timer on|off"},
	} {
		n := len(*ran)
		if st, _ := s.execLine(ctx, tc.line); st != 0 || len(*ran) != n || !strings.Contains(out.String(), tc.want) {
			t.Errorf("%s: status %d, ran %q; output lacks %q:\n%s", tc.line, st, (*ran)[n:], tc.want, out.String())
		}
	}
	if st, _ := s.execLine(ctx, `\dx`); st != 2 || !strings.Contains(errOut.String(), `unknown shell command "\\dx"`) {
		t.Errorf(`\dx: status %d, stderr %q`, st, errOut.String())
	}
	s.history.lines = []string{"use Employees", "query"}
	s.execLine(ctx, "history 1")
	if !strings.HasSuffix(out.String(), "    2  query\n") {
		t.Errorf("history 1 printed:\n%s", out.String())
	}
}

func TestOpenEnd(t *testing.T) {
	for line, want := range map[string]rune{
		`query --filter "LastName eq 'Jones'"`: 0,
		`query --filter "LastName eq 'Jo`:      '"',
		`insert '{"a":"b`:                      '\'',
		`insert '{"a":"b\'`:                    0, // a backslash is text in single quotes
		`query \`:                              '\\',
		`query \\`:                             0,
		`# it's a comment`:                     0,
		`query T # it's a comment`:             0,
		`query it's`:                           '\'',
		`query "a \" b`:                        '"',
	} {
		if got := openEnd(line); got != want {
			t.Errorf("openEnd(%q) = %q, want %q", line, got, want)
		}
	}
	if got := joinLine(`query \`, `--all`); got != "query --all" {
		t.Errorf("after a backslash: %q", got)
	}
	if got := joinLine(`insert '{"a":`, `1}'`); got != "insert '{\"a\":\n1}'" {
		t.Errorf("inside a quote: %q", got)
	}
}

// Replayed input goes on after a line with an open quote or a backslash;
// input that ends inside a quote is an error naming where the command
// began.
func TestLineModeContinuation(t *testing.T) {
	ios, in, _, errOut := iostreams.Test()
	in.WriteString("query --filter \"LastName eq 'Jones'\nand Age gt 3\" \\\n--all\nnext\ninsert '{\"a\":\n")
	var ran []string
	status := Run(context.Background(), Config{IO: ios, Report: testReport(ios), Exec: func(_ context.Context, _ *Session, _ *iostreams.IOStreams, args []string) int {
		ran = append(ran, strings.Join(args, "|"))
		return 0
	}})
	want := "query|--filter|LastName eq 'Jones'\nand Age gt 3|--all"
	if len(ran) != 1 || ran[0] != want {
		t.Errorf("ran %q, want [%q] (next fails: no query had a next page)", ran, want)
	}
	if status != 1 || !strings.Contains(errOut.String(), "the input ended inside an open ' quote\n(line 5 of the input)") {
		t.Errorf("status %d, stderr %q", status, errOut.String())
	}
}

// The pager is used only when it is on and output is a terminal of an
// interactive shell: never when output is piped or redirected.
func TestPagerOnlyOnATerminal(t *testing.T) {
	tty, err := os.CreateTemp(t.TempDir(), "tty")
	if err != nil {
		t.Fatal(err)
	}
	defer tty.Close()
	for _, tc := range []struct {
		on, inTTY, outTTY bool
		paged             bool
	}{
		{true, true, true, true},
		{false, true, true, false},
		{true, true, false, false},
		{true, false, true, false},
	} {
		s, _, ios := testShell(t)
		ios.Out, ios.InTTY, ios.OutTTY = tty, tc.inTTY, tc.outTTY
		s.pager.on = tc.on
		got, done := s.commandStreams()
		done()
		if paged := got != ios; paged != tc.paged {
			t.Errorf("pager %v, stdin a terminal %v, stdout a terminal %v: paged %v", tc.on, tc.inTTY, tc.outTTY, paged)
		}
	}
}

// help, and help NAME of the shell's commands, fit the terminal's width:
// every line wrapped at spaces (a list's text under its name), no word
// lost or cut.
func TestHelpFitsTheWidth(t *testing.T) {
	ctx := context.Background()
	for _, line := range []string{"help", "help explain", "help pager"} {
		var wide string
		for _, width := range []int{1000, 80, 60, 40} {
			s, _, ios := testShell(t)
			ios.Width = width
			s.execLine(ctx, line)
			out := ios.Out.(interface{ String() string }).String()
			for _, l := range strings.Split(out, "\n") {
				if n := len([]rune(l)); n > width {
					t.Errorf("%s at %d columns: a line of %d: %q", line, width, n, l)
				}
			}
			if width == 1000 {
				wide = strings.Join(strings.Fields(out), " ")
			} else if got := strings.Join(strings.Fields(out), " "); got != wide {
				t.Errorf("%s at %d columns says other words:\n%s\nwant:\n%s", line, width, got, wide)
			}
			if strings.HasPrefix(line, "help ") {
				continue
			}
			if !regexp.MustCompile(`(?m)^  explain   query class and counts`).MatchString(out) || regexp.MustCompile(`(?m)^[a-z]`).MatchString(strings.SplitN(out, "\n\n", 3)[0][len("Shell commands:"):]) {
				t.Errorf("help at %d columns: the list's rows are not under their text:\n%s", width, out)
			}
		}
	}
}
