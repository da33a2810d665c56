package cmd

import (
	"context"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"testing"

	"github.com/spf13/cobra"
	"github.com/spf13/pflag"
	"github.com/tstable/tstable/iostreams"
)

// flagLineValues are values that a line sets flags to, by flag name: each
// is what the flag would take, away from its default. A flag not named
// here takes a value by its type (flagLineValue).
var flagLineValues = map[string]string{
	"filter":            "PartitionKey eq 'Sales'",
	"select":            "Age,Email",
	"continuation":      "bm90IGEgdG9rZW4",
	"if-match":          `W/"datetime'2020-01-01T00%3A00%3A00Z'"`,
	"output":            "json",
	"expanded":          "on",
	"wait":              "1s",
	"connection-string": "UseDevelopmentStorage=true",
	"account-url":       "http://127.0.0.1:1/devstoreaccount1",
	"top":               "1",
	"page-size":         "2",
}

// flagLineValue is the argument that sets fl on a line; db is the other
// database a line's --db names.
func flagLineValue(fl *pflag.Flag, db string) string {
	if fl.Name == "db" {
		return "--db=" + db
	}
	if v, ok := flagLineValues[fl.Name]; ok {
		return "--" + fl.Name + "=" + v
	}
	switch fl.Value.Type() {
	case "bool":
		return "--" + fl.Name
	case "int", "float64":
		return "--" + fl.Name + "=3"
	}
	return "--" + fl.Name + "=x"
}

// reusedLineScript is a script that, for every command of reusedCommands
// and each of its flags (its own and the global ones), runs the command
// with that flag set, then without any, and once with every flag at once
// and then without: lines after which a reused tree must be as new.
func reusedLineScript(t *testing.T, otherDB string) (string, int) {
	t.Helper()
	positional := map[string]string{
		"get": "People Sales 00010", "query": "People", "explain": "People",
		"insert": `People '{"PartitionKey":"New","RowKey":"1"}'`, "upsert": `People '{"PartitionKey":"New","RowKey":"2","A":1}'`,
		"merge": `People '{"PartitionKey":"Sales","RowKey":"00010","B":2}'`, "replace": `People '{"PartitionKey":"Sales","RowKey":"00011","C":3}'`,
		"delete": "People Marketing 00001", "table create": "Made", "table list": "", "table delete": "Made", "table": "",
	}
	root := NewRoot(iostreams.System())
	var lines []string
	covered := 0
	var visit func(c *cobra.Command)
	visit = func(c *cobra.Command) {
		path := strings.TrimPrefix(c.CommandPath(), "tstable ")
		if c.Runnable() {
			args, ok := positional[path]
			if !ok {
				t.Fatalf("no arguments for %q in the script", path)
			}
			base := strings.TrimSpace(path + " " + args)
			var all []string
			c.InheritedFlags().VisitAll(func(fl *pflag.Flag) { all = append(all, flagLineValue(fl, otherDB)) })
			c.LocalFlags().VisitAll(func(fl *pflag.Flag) {
				if fl.Name != "help" { // help prints help and runs nothing: in all only
					all = append(all, flagLineValue(fl, otherDB))
				}
			})
			// After a query, next runs it again from where it ended: with
			// the flags its line set, and only those (a flag of the line
			// before, even at its default, would change the next page:
			// --top=0 returns none).
			then := []string{base}
			if path == "query" {
				then = append(then, base+" --page-size=1", "next")
			}
			for _, a := range all {
				lines = append(lines, base+" '"+a+"'")
				if path == "query" {
					lines = append(lines, "next")
				}
				lines = append(lines, then...)
				covered++
			}
			lines = append(lines, base+" -h")
			lines = append(lines, then...)
			lines = append(lines, strings.TrimSpace(path+" -- "+args))
			lines = append(lines, then...)
			lines = append(lines, base+" '"+strings.Join(all, "' '")+"'")
			lines = append(lines, then...)
		}
		for _, sub := range c.Commands() {
			visit(sub)
		}
	}
	for _, c := range root.Commands() {
		if reusedCommands[c.Name()] {
			visit(c)
		}
	}
	return strings.Join(lines, "\n") + "\n", covered
}

// A line that runs again a command whose tree the shell keeps means what
// it means on a tree of its own: with every flag of every such command
// set on one line and absent on the next (and all at once), the shell's
// output, streams and status are those of the same script with a new tree
// built for every line.
func TestShellReusedTreeIsFresh(t *testing.T) {
	isolateState(t)
	dir := t.TempDir()
	other := filepath.Join(dir, "other.db")
	mustRun(t, other, "", "table", "create", "Other")
	script, covered := reusedLineScript(t, other)
	if covered < 30 {
		t.Fatalf("the script sets %d flags; want every flag of the reused commands", covered)
	}
	runScript := func(reuse bool) (string, string, int) {
		t.Helper()
		reuseLineTrees = reuse
		defer func() { reuseLineTrees = true }()
		db := filepath.Join(t.TempDir(), "t.db")
		seed(t, db)
		ios, in, out, errOut := iostreams.Test()
		in.WriteString(script)
		status := Execute(context.Background(), NewRoot(ios), []string{"--db", db, "shell"}, ios)
		return normalize(strings.ReplaceAll(out.String(), db, "DB")), normalize(strings.ReplaceAll(errOut.String(), db, "DB")), status
	}
	freshOut, freshErr, freshStatus := runScript(false)
	out, errOut, status := runScript(true)
	if out != freshOut {
		t.Errorf("standard output differs from a new tree for each line\n%s", lineDiff(out, freshOut))
	}
	if errOut != freshErr {
		t.Errorf("standard error differs from a new tree for each line\n%s", lineDiff(errOut, freshErr))
	}
	if status != freshStatus {
		t.Errorf("status %d, with a new tree for each line %d", status, freshStatus)
	}
	if !strings.Contains(out, `"Other"`) && !strings.Contains(out, "Other") {
		t.Errorf("no line read the other database its --db named:\n%s", out)
	}
}

// lineDiff is the first line where a and b differ, with a few around it.
func lineDiff(a, b string) string {
	al, bl := strings.Split(a, "\n"), strings.Split(b, "\n")
	for i := 0; i < max(len(al), len(bl)); i++ {
		if i >= len(al) || i >= len(bl) || al[i] != bl[i] {
			lo := max(0, i-3)
			return "--- reused, from line " + strconv.Itoa(lo+1) + "\n" + strings.Join(al[lo:min(len(al), i+4)], "\n") +
				"\n--- new tree each line\n" + strings.Join(bl[lo:min(len(bl), i+4)], "\n")
		}
	}
	return ""
}

// A reused tree puts back flags of every kind pflag has: a slice flag set
// on one line is its default on the next, and set again is what that line
// gives, not added to what the last line gave; a flag kind it cannot put
// back (a map) keeps its command from being reused.
func TestLineTreeResetsSliceFlags(t *testing.T) {
	var got []string
	var n int
	build := func(withMap bool) *cobra.Command {
		root := &cobra.Command{Use: "tstable", SilenceErrors: true, SilenceUsage: true}
		c := &cobra.Command{Use: "get", RunE: func(*cobra.Command, []string) error { return nil }}
		c.Flags().StringSliceVar(&got, "names", []string{"a"}, "")
		c.Flags().IntVar(&n, "n", 7, "")
		if withMap {
			c.Flags().StringToString("labels", nil, "")
		}
		root.AddCommand(c)
		return root
	}
	root := build(false)
	tree, ok := newLineTree(root, &Factory{})
	if !ok {
		t.Fatal("a tree of slice and int flags is not reusable")
	}
	ios, _, _, _ := iostreams.Test()
	for _, step := range []struct {
		args  []string
		names []string
		n     int
	}{
		{[]string{"get", "--names", "x", "--names", "y", "--n", "1"}, []string{"x", "y"}, 1},
		{[]string{"get"}, []string{"a"}, 7},
		{[]string{"get", "--names", "z"}, []string{"z"}, 7},
		{[]string{"get"}, []string{"a"}, 7},
	} {
		if !tree.reset(ios, nil, nil) {
			t.Fatal("reset refused")
		}
		root.SetArgs(step.args)
		if err := root.Execute(); err != nil {
			t.Fatal(err)
		}
		if !slices.Equal(got, step.names) || n != step.n {
			t.Errorf("%v: names %v, n %d; want %v, %d", step.args, got, n, step.names, step.n)
		}
		get, _, _ := root.Find([]string{"get"})
		if ch := get.Flags().Lookup("names").Changed; ch != (len(step.args) > 1) {
			t.Errorf("%v: --names Changed %v", step.args, ch)
		}
	}
	if _, ok := newLineTree(build(true), &Factory{}); ok {
		t.Error("a tree with a map flag is reused; its value cannot be put back")
	}
}

// What one line of the shell's script sets is gone on the next: each
// line prints, on both streams, what the same command prints run alone
// (an error's hint worded for the shell), and the shell's status is what those processes' say (1 when
// any failed). Each flag is given on one line and left out on the next
// line of the same command (which reuses its tree): --top 5, then none;
// -o json, then the default; --select, --filter, -x, --db, --help; and a
// usage error between two lines that parse.
func TestShellLineLeavesNoStateToTheNext(t *testing.T) {
	isolateState(t)
	dir := t.TempDir()
	db, other := filepath.Join(dir, "t.db"), filepath.Join(dir, "other.db")
	seed(t, db)
	mustRun(t, other, "", "table", "create", "Other")
	mustRun(t, other, "", "insert", "Other", `{"PartitionKey":"o","RowKey":"1","Where":"other"}`)
	lines := [][]string{
		{"query", "People", "--top", "2", "-o", "jsonl"},
		{"query", "People", "-o", "jsonl"},
		{"get", "People", "Sales", "00010", "-o", "json"},
		{"get", "People", "Sales", "00010"},
		{"get", "People", "Sales", "00010", "--select", "Age"},
		{"get", "People", "Sales", "00010", "-o", "jsonl"},
		{"query", "People", "--filter", "PartitionKey eq 'Sales'", "-o", "csv"},
		{"query", "People", "-o", "csv"},
		{"query", "People", "--select", "FirstName", "--top", "1"},
		{"query", "People"},
		{"get", "People", "Sales", "00010", "-x"},
		{"get", "People", "Sales", "00010"},
		{"query", "Other", "--db", other, "-o", "jsonl"},
		{"query", "People", "-o", "jsonl"},
		{"query", "People", "--top", "x"},
		{"query", "People", "--top", "1", "-o", "jsonl"},
		{"get", "People", "Sales", "00010", "--help"},
		{"get", "People", "Sales", "00010", "-o", "jsonl"},
		{"query", "People", "--page-size", "1", "-o", "jsonl"},
		{"query", "People", "-o", "jsonl"},
	}
	var script, wantOut, wantErr strings.Builder
	wantStatus := ExitOK
	for i, args := range lines {
		quoted := make([]string, len(args))
		for j, a := range args {
			quoted[j] = `"` + a + `"` // no argument holds a double quote
		}
		script.WriteString(strings.Join(quoted, " ") + "\n")
		// Its own command, with the hints of an error as the shell words
		// them ("see 'help query'").
		ios, _, out, errOut := iostreams.Test()
		full := append([]string{"--db", db}, args...)
		status := execute(context.Background(), newRootFor(&Factory{IO: ios}, full), full, ios, true)
		wantOut.WriteString(out.String())
		wantErr.WriteString(errOut.String())
		if status != ExitOK {
			wantStatus = ExitFailed
			wantErr.WriteString("(line " + strconv.Itoa(i+1) + " of the input)\n")
		}
	}
	if wantStatus != ExitFailed {
		t.Fatal("no line of the script fails; the usage error line is meant to")
	}
	ios, in, out, errOut := iostreams.Test()
	in.WriteString(script.String())
	status := Execute(context.Background(), NewRoot(ios), []string{"--db", db, "shell"}, ios)
	if got, want := normalize(out.String()), normalize(wantOut.String()); got != want {
		t.Errorf("standard output differs from each line run as its own command\n%s", lineDiff(got, want))
	}
	if got, want := normalize(errOut.String()), normalize(wantErr.String()); got != want {
		t.Errorf("standard error differs from each line run as its own command\n%s", lineDiff(got, want))
	}
	if status != wantStatus {
		t.Errorf("status %d; want %d", status, wantStatus)
	}
}
