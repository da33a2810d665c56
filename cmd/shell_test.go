package cmd

import (
	"context"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"github.com/google/shlex"
	"github.com/tstable/tstable/iostreams"
)

// Replaying a file of shell commands from standard input prints exactly
// what the equivalent command-line calls print, stream by stream.
var inputLineRE = regexp.MustCompile(`(?m)^\(line \d+ of the input\)\n`)

func TestShellReplayMatchesCLI(t *testing.T) {
	dir := filepath.Join("..", "testdata", "shell")
	replay, err := os.ReadFile(filepath.Join(dir, "replay.txt"))
	if err != nil {
		t.Fatal(err)
	}
	cliLines, err := os.ReadFile(filepath.Join(dir, "replay-cli.txt"))
	if err != nil {
		t.Fatal(err)
	}

	// The shell, reading the file.
	shellDB := filepath.Join(t.TempDir(), "shell.db")
	seed(t, shellDB)
	isolateState(t)
	ios, in, out, errOut := iostreams.Test()
	in.Write(replay)
	status := Execute(context.Background(), NewRoot(ios), []string{"--db", shellDB, "shell"}, ios)
	// The shell says after each error which line of the input failed.
	shellOut, shellErr := normalize(out.String()), inputLineRE.ReplaceAllString(normalize(errOut.String()), "")

	// The command line, one call per line.
	cliDB := filepath.Join(t.TempDir(), "cli.db")
	seed(t, cliDB)
	var cliOut, cliErr strings.Builder
	token := ""
	failed := 0
	tokenRE := regexp.MustCompile(`(?m)^continuation: (\S+)$`)
	for _, line := range strings.Split(string(cliLines), "\n") {
		if strings.TrimSpace(line) == "" || strings.HasPrefix(line, "#") {
			continue
		}
		args, err := shlex.Split(strings.ReplaceAll(line, "$TOKEN", token))
		if err != nil {
			t.Fatalf("%s: %v", line, err)
		}
		o, e, st := run(context.Background(), cliDB, "", args...)
		if st != 0 {
			failed = st
		}
		if m := tokenRE.FindStringSubmatch(e); m != nil {
			token = m[1]
		}
		cliOut.WriteString(normalize(o))
		cliErr.WriteString(normalize(e))
	}

	if shellOut != cliOut.String() {
		t.Errorf("standard output differs\n--- shell\n%s\n--- command line\n%s", shellOut, cliOut.String())
	}
	if shellErr != cliErr.String() {
		t.Errorf("standard error differs\n--- shell\n%s\n--- command line\n%s", shellErr, cliErr.String())
	}
	if failed != 0 && status != ExitFailed {
		t.Errorf("shell exit %d, want 1 (a line failed)", status)
	}
	checkGolden(t, "shell-replay", transcript([]string{"shell"}, string(replay), out.String(), errOut.String(), status))
}

// The command line's dynamic completion answers from the same completions
// package as the shell.
func TestDynamicCompletion(t *testing.T) {
	db := filepath.Join(t.TempDir(), "t.db")
	seed(t, db)
	cases := []struct {
		args []string
		want string // a line of the answer
	}{
		{[]string{"__complete", "query", ""}, "People\ttable"},
		{[]string{"__complete", "get", "People", "Sa"}, "Sales"},
		{[]string{"__complete", "query", "People", "--filter", "Last"}, "LastName\tEdm.String"},
		{[]string{"__complete", "query", "People", "--filter", "Age g"}, "Age gt\tgreater than"},
		{[]string{"__complete", "query", "People", "--filter", "PartitionKey eq 'M"}, "PartitionKey eq 'Marketing'\ta PartitionKey in People"},
		{[]string{"__complete", "query", "People", "--select", "Age,Fir"}, "Age,FirstName\tEdm.String"},
		{[]string{"__complete", "table", "delete", ""}, "People\ttable"},
		{[]string{"__complete", "query", "People", "-o", ""}, "jsonl\tone entity per line"},
		{[]string{"__complete", "query", "People", "--filter", `"Ag`}, "\"Age\tEdm.Int32"},
		{[]string{"__complete", "delete", "People", "Sales", "00010", "--if-match", ""}, "*\tany ETag; or the odata.etag that get shows"},
		{[]string{"__complete", "query", "People", "--expanded="}, "auto\tone property per line when the keys would not fit"},
	}
	for _, tc := range cases {
		out, errOut, status := run(context.Background(), db, "", tc.args...)
		if status != 0 || !strings.Contains("\n"+out, "\n"+tc.want+"\n") {
			t.Errorf("%q: exit %d\n%s%s\nwant a line %q", tc.args, status, out, errOut, tc.want)
		}
	}
}

// With a table in use, a line that names another table keeps it: `get Logs
// P1` reads Logs (and says RK is missing), never `get People Logs P1`.
func TestShellUseAndAnotherTable(t *testing.T) {
	db := filepath.Join(t.TempDir(), "t.db")
	seed(t, db)
	mustRun(t, db, "", "table", "create", "Logs")
	mustRun(t, db, "", "insert", "Logs", `{"PartitionKey":"P1","RowKey":"r1","Level":"warn"}`)
	isolateState(t)
	stdin := "use People\nget Logs P1\nget Logs P1 r1 -o json\nget Marketing 00001 --select FirstName -o json\n"
	ios, in, out, errOut := iostreams.Test()
	in.WriteString(stdin)
	status := Execute(context.Background(), NewRoot(ios), []string{"--db", db, "shell"}, ios)
	checkGolden(t, "shell-use-another-table", transcript([]string{"shell"}, stdin, out.String(), errOut.String(), status))
}

// Opening the shell creates no database file: the first command that
// writes does.
func TestShellCreatesNoFileUntilAWrite(t *testing.T) {
	db := filepath.Join(t.TempDir(), "typo.db")
	t.Setenv("XDG_STATE_HOME", t.TempDir())
	if _, errOut, st := run(context.Background(), db, "table list\nuse People\n", "shell"); st != ExitFailed || !strings.Contains(errOut, "TableNotFound") {
		t.Fatalf("shell: exit %d, stderr %q", st, errOut)
	}
	if _, err := os.Stat(db); !os.IsNotExist(err) {
		t.Fatalf("the shell created %s (%v) though nothing was written", db, err)
	}
	mustRun(t, db, "table create People\n", "shell")
	if _, err := os.Stat(db); err != nil {
		t.Errorf("table create in the shell made no file: %v", err)
	}
}
