package cmd

import (
	"context"
	"path/filepath"
	"strings"
	"testing"
)

// JSON output writes <, > and & as they are, as the service does, in
// every report and explanation (not \u003c, \u003e, \u0026).
func TestJSONOutputKeepsAngleBracketsAndAmpersands(t *testing.T) {
	db := filepath.Join(t.TempDir(), "t.db")
	seed(t, db)
	mustRun(t, db, "", "sample", "load", "bad")
	for _, args := range [][]string{
		{"explain", "People", "--filter", "PartitionKey eq 'a<b' and Note eq 'x&y'", "-o", "json"},
		{"query", "People", "--filter", "PartitionKey eq 'a<b>'", "--explain", "-o", "json"},
		{"lint", "BadDesign", "-o", "json"},
		{"lint", "BadDesign", "-o", "jsonl"},
	} {
		out, errOut, _ := run(context.Background(), db, "", args...)
		if strings.Contains(out, `\u003c`) || strings.Contains(out, `\u003e`) || strings.Contains(out, `\u0026`) {
			t.Errorf("%s: escaped for HTML:\n%s%s", strings.Join(args, " "), out, errOut)
		}
		if !strings.Contains(out, "<") {
			t.Errorf("%s: no < in the output:\n%s%s", strings.Join(args, " "), out, errOut)
		}
	}
}

// A filter that can never match says so on standard error, and the query
// still runs (exit 0, its empty result on standard output).
func TestFilterThatNeverMatchesIsNoted(t *testing.T) {
	db := filepath.Join(t.TempDir(), "t.db")
	seed(t, db)
	for _, tc := range []struct {
		args []string
		note string
	}{
		{[]string{"query", "People", "--filter", "lastname eq 'Jones'"}, "note: no entity in People has a property lastname (did you mean LastName? names are case-sensitive): lastname eq 'Jones' is never true\n"},
		{[]string{"query", "People", "--filter", "Age gt '30'", "-o", "json"}, "note: Age is Edm.Int32 in every entity of People that has it, never Edm.String: Age gt '30' is never true (write Age gt 30)\n"},
		{[]string{"explain", "People", "--filter", "PartitionKey eq 'Sales' and Agee gt 3"}, "(did you mean Age?"},
		{[]string{"export", "People", "--filter", "Lastname eq 'x'"}, "(did you mean LastName?"},
	} {
		out, errOut, st := run(context.Background(), db, "", tc.args...)
		if st != 0 || !strings.Contains(errOut, tc.note) {
			t.Errorf("%s: exit %d, stderr %q, want %q", strings.Join(tc.args, " "), st, errOut, tc.note)
		}
		if strings.Contains(out, "note:") || strings.Contains(out, "agee_") {
			t.Errorf("%s: stdout %q", strings.Join(tc.args, " "), out)
		}
	}
	if _, errOut, _ := run(context.Background(), db, "", "query", "People", "--filter", "LastName eq 'Nobody'"); errOut != "" {
		t.Errorf("a filter that can match but finds nothing: stderr %q", errOut)
	}
}

// In a table, numbers are right-aligned, as psql and sqlite3 align them;
// text stays left-aligned, in a column of mixed types too.
func TestTableAlignsNumbersRight(t *testing.T) {
	db := filepath.Join(t.TempDir(), "t.db")
	mustRun(t, db, "", "table", "create", "Mixed")
	mustRun(t, db, `{"PartitionKey":"p","RowKey":"1","Age":7,"Score":1234.5}
{"PartitionKey":"p","RowKey":"2","Age":"old","Score":2}
`, "import", "Mixed", "-")
	out := mustRun(t, db, "", "query", "Mixed", "-o", "table", "--expanded", "off")
	for _, want := range []string{
		"| PartitionKey | RowKey | Age | Score  |",
		"| p            | 1      |   7 | 1234.5 |",
		"| p            | 2      | old |      2 |",
	} {
		if !strings.Contains(out, want+"\n") {
			t.Errorf("no line %q in:\n%s", want, out)
		}
	}
}

// A list an error ends before its first entity writes nothing on standard
// output (it wrote `{"value": [`, which no JSON reader takes), and an
// empty list is still a whole object.
func TestJSONListAnErrorEndsWritesNothing(t *testing.T) {
	db := filepath.Join(t.TempDir(), "t.db")
	seed(t, db)
	out, errOut, status := run(context.Background(), db, "", "query", "Missing", "-o", "json")
	if status != 1 || out != "" || !strings.Contains(errOut, "error: TableNotFound:") {
		t.Errorf("query of a missing table: exit %d, stdout %q, stderr %q", status, out, errOut)
	}
	out = mustRun(t, db, "", "query", "People", "--filter", "PartitionKey eq 'none'", "-o", "json")
	if want := "{\n  \"value\": []\n}\n"; out != want {
		t.Errorf("an empty list: %q, want %q", out, want)
	}
}
