package cmd

import (
	"context"
	"flag"
	"fmt"
	"github.com/tstable/tstable/odata"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
	"time"

	"github.com/spf13/cobra"
	"github.com/tstable/tstable/iostreams"
)

var update = flag.Bool("update", false, "rewrite the golden files in testdata/golden")

// run executes one command line in-process, as the binary would.
func run(ctx context.Context, db, stdin string, args ...string) (stdout, stderr string, status int) {
	return runWith(ctx, &Factory{}, db, stdin, args...)
}

// runWith is run over a Factory the test prepared (an Opener, a hook);
// its streams are set here.
func runWith(ctx context.Context, f *Factory, db, stdin string, args ...string) (stdout, stderr string, status int) {
	ios, in, out, errOut := iostreams.Test()
	in.WriteString(stdin)
	f.IO = ios
	full := append([]string{"--db", db}, args...)
	status = Execute(ctx, newRootFor(f, full), full, ios)
	return out.String(), errOut.String(), status
}

// mustRun runs a setup command and fails the test if it fails.
func mustRun(t *testing.T, db, stdin string, args ...string) string {
	t.Helper()
	out, errOut, status := run(context.Background(), db, stdin, args...)
	if status != 0 {
		t.Fatalf("%s: exit %d\n%s%s", strings.Join(args, " "), status, out, errOut)
	}
	return out
}

var stampRE = regexp.MustCompile(`\d{4}-\d\d-\d\dT\d\d(?::|%3A)\d\d(?::|%3A)\d\d(?:\.\d{1,7})?Z`)

// normalize masks the digits of the Timestamps and ETags the store sets
// (anything within a day of now); stored DateTime values, which are
// years old in the fixtures, stay.
func normalize(s string) string {
	now := time.Now()
	return stampRE.ReplaceAllStringFunc(s, func(m string) string {
		ts, err := time.Parse(time.RFC3339Nano, strings.ReplaceAll(m, "%3A", ":"))
		if err == nil && ts.Sub(now).Abs() < 24*time.Hour {
			// One mask for every form of the time (JSON and CSV leave its
			// trailing zeros out; a table writes all seven digits).
			masked := strings.Map(func(r rune) rune {
				if r >= '0' && r <= '9' {
					return 'X'
				}
				return r
			}, odata.FormatDateTimeFull(ts))
			if strings.Contains(m, "%3A") {
				masked = strings.ReplaceAll(masked, ":", "%3A")
			}
			return masked
		}
		return m
	})
}

// checkGolden compares got with testdata/golden/name.txt, or rewrites it
// with -update.
func checkGolden(t *testing.T, name, got string) {
	t.Helper()
	checkFile(t, filepath.Join("golden", name+".txt"), got)
}

// transcript is what a golden file holds: the command, its exit status
// and both streams.
func transcript(args []string, stdin, stdout, stderr string, status int) string {
	var b strings.Builder
	b.WriteString("$ tstable " + shellQuote(args) + "\n")
	if stdin != "" {
		b.WriteString("--- stdin\n" + stdin)
		if !strings.HasSuffix(stdin, "\n") {
			b.WriteString("\n")
		}
	}
	fmt.Fprintf(&b, "--- exit %d\n--- stdout\n%s--- stderr\n%s", status, normalize(stdout), normalize(stderr))
	return b.String()
}

func shellQuote(args []string) string {
	q := make([]string, len(args))
	for i, a := range args {
		if a == "" || strings.ContainsAny(a, " \t\n'\"$\\*;|&<>(){}") {
			q[i] = "'" + strings.ReplaceAll(a, "'", `'\''`) + "'"
		} else {
			q[i] = a
		}
	}
	return strings.Join(q, " ")
}

// seed creates table People from testdata/people.jsonl.
func seed(t *testing.T, db string) {
	t.Helper()
	mustRun(t, db, "", "table", "create", "People")
	mustRun(t, db, "", "import", "People", filepath.Join("..", "testdata", "people.jsonl"))
}

type goldenCase struct {
	name   string
	noSeed bool
	setup  [][]string // run after seeding; must succeed
	stdin  string
	args   []string
}

func TestGolden(t *testing.T) {
	const sales = "PartitionKey eq 'Sales'"
	newEmp := `{"PartitionKey":"Sales","RowKey":"00020","FirstName":"Eva","Age":31,"Big@odata.type":"Edm.Int64","Big":"-9223372036854775808","When@odata.type":"Edm.DateTime","When":"2001-02-03T04:05:06Z"}`
	cases := []goldenCase{
		// table
		{name: "table-create", noSeed: true, args: []string{"table", "create", "Orders", "-o", "table"}},
		{name: "table-create-json", noSeed: true, args: []string{"table", "create", "Orders", "-o", "json"}},
		{name: "table-create-jsonl", noSeed: true, args: []string{"table", "create", "Orders"}},
		{name: "table-create-csv", noSeed: true, args: []string{"table", "create", "Orders", "-o", "csv"}},
		{name: "table-create-exists", args: []string{"table", "create", "people"}},
		{name: "table-create-invalid-name", noSeed: true, args: []string{"table", "create", "1x"}},
		{name: "table-list", setup: [][]string{{"table", "create", "Orders"}}, args: []string{"table", "list", "-o", "table"}},
		{name: "table-list-json", setup: [][]string{{"table", "create", "Orders"}}, args: []string{"table", "list", "-o", "json"}},
		{name: "table-list-jsonl", setup: [][]string{{"table", "create", "Orders"}}, args: []string{"table", "list"}},
		{name: "table-list-csv", setup: [][]string{{"table", "create", "Orders"}}, args: []string{"table", "list", "-o", "csv"}},
		{name: "table-list-no-database", noSeed: true, args: []string{"table", "list", "-o", "json"}},
		{name: "table-delete", args: []string{"table", "delete", "People", "-o", "table"}},
		{name: "table-delete-missing", args: []string{"table", "delete", "Nope"}},
		{name: "table-no-subcommand", noSeed: true, args: []string{"table"}},
		{name: "table-unknown-subcommand", noSeed: true, args: []string{"table", "createl"}},
		{name: "help-filter", noSeed: true, args: []string{"help", "filter"}},
		{name: "table-delete-no-database", noSeed: true, args: []string{"table", "delete", "People"}},
		// insert and the other writes
		{name: "insert", args: []string{"insert", "People", newEmp, "-o", "table"}},
		{name: "insert-json", args: []string{"insert", "People", newEmp, "-o", "json"}},
		{name: "insert-jsonl-stdin", stdin: newEmp + "\n", args: []string{"insert", "People"}},
		{name: "insert-csv", args: []string{"insert", "People", "-", "-o", "csv"}, stdin: newEmp},
		{name: "insert-exists", args: []string{"insert", "People", `{"PartitionKey":"Sales","RowKey":"00010"}`}},
		{name: "insert-bad-json", args: []string{"insert", "People", `{"PartitionKey":"Sales","RowKey":"1","Age":}`}},
		{name: "insert-unknown-type", args: []string{"insert", "People", `{"PartitionKey":"Sales","RowKey":"1","Age@odata.type":"Edm.Decimal","Age":"1"}`}},
		{name: "insert-empty-type", args: []string{"insert", "People", `{"PartitionKey":"Sales","RowKey":"1","Age@odata.type":""}`}},
		{name: "insert-no-entity", args: []string{"insert", "People"}},
		{name: "insert-no-rowkey", args: []string{"insert", "People", `{"PartitionKey":"Sales","Age":1}`}},
		{name: "insert-boolean-as-string", args: []string{"insert", "People", `{"PartitionKey":"Sales","RowKey":"00030","Active@odata.type":"Edm.Boolean","Active":"false"}`, "-o", "table"}},
		{name: "insert-no-table", noSeed: true, args: []string{"insert", "People", newEmp}},
		{name: "upsert-merge", args: []string{"upsert", "People", `{"PartitionKey":"Sales","RowKey":"00010","Age":24}`, "-o", "json"}},
		{name: "upsert-replace", args: []string{"upsert", "People", "--replace", `{"PartitionKey":"Sales","RowKey":"00010","Age":24}`, "-o", "json"}},
		{name: "merge", args: []string{"merge", "People", `{"PartitionKey":"Sales","RowKey":"00011","Age":46}`, "-o", "table"}},
		{name: "merge-jsonl", args: []string{"merge", "People", `{"PartitionKey":"Sales","RowKey":"00011","Age":46}`}},
		{name: "merge-missing", args: []string{"merge", "People", `{"PartitionKey":"Sales","RowKey":"99999","Age":46}`}},
		{name: "merge-if-match-stale", args: []string{"merge", "People", "--if-match", `W/"datetime'2001-01-01T00%3A00%3A00.0000000Z'"`, `{"PartitionKey":"Sales","RowKey":"00011","Age":46}`}},
		{name: "merge-if-match-wrong", args: []string{"merge", "People", "--if-match", `W/"wrong"`, `{"PartitionKey":"Sales","RowKey":"00011","Age":46}`}},
		{name: "merge-if-match-strong", args: []string{"merge", "People", "--if-match", `"wrong"`, `{"PartitionKey":"Sales","RowKey":"00011","Age":46}`}},
		{name: "merge-if-match-json-escaped", args: []string{"merge", "People", "--if-match", `W/\"datetime'2001-01-01T00%3A00%3A00.0000000Z'\"`, `{"PartitionKey":"Sales","RowKey":"00011","Age":46}`}},
		{name: "replace", args: []string{"replace", "People", `{"PartitionKey":"Sales","RowKey":"00011","Age":46}`, "-o", "csv"}},
		{name: "replace-json", args: []string{"replace", "People", `{"PartitionKey":"Sales","RowKey":"00011","Age":46}`, "-o", "json"}},
		{name: "upsert-table", args: []string{"upsert", "People", `{"PartitionKey":"Sales","RowKey":"00099","Age":1}`, "-o", "table"}},
		{name: "upsert-csv", args: []string{"upsert", "People", `{"PartitionKey":"Sales","RowKey":"00099","Age":1}`, "-o", "csv"}},
		{name: "replace-missing", args: []string{"replace", "People", `{"PartitionKey":"Sales","RowKey":"99999"}`}},
		// get
		{name: "get", args: []string{"get", "People", "Marketing", "00001", "-o", "table"}},
		{name: "get-json", args: []string{"get", "People", "Marketing", "00001", "-o", "json"}},
		{name: "get-jsonl", args: []string{"get", "People", "Marketing", "00001"}},
		{name: "get-csv", args: []string{"get", "People", "Marketing", "00001", "-o", "csv"}},
		{name: "get-select", args: []string{"get", "People", "Marketing", "00001", "--select", "Age,Timestamp,Missing", "-o", "table"}},
		{name: "get-not-found", args: []string{"get", "People", "Marketing", "99999"}},
		{name: "get-missing-args", args: []string{"get", "People", "Marketing"}},
		{name: "get-bad-select", args: []string{"get", "People", "Marketing", "00001", "--select", "Age,,Email"}},
		{name: "get-no-database", noSeed: true, args: []string{"get", "People", "Marketing", "00001"}},
		// delete
		{name: "delete", args: []string{"delete", "People", "Sales", "00010", "-o", "table"}},
		{name: "delete-jsonl", args: []string{"delete", "People", "Sales", "00010"}},
		{name: "delete-not-found", args: []string{"delete", "People", "Sales", "99999"}},
		// query
		{name: "query-table", args: []string{"query", "People", "-o", "table"}},
		{name: "query-json", args: []string{"query", "People", "-o", "json"}},
		{name: "query-jsonl", args: []string{"query", "People"}},
		{name: "query-csv", args: []string{"query", "People", "-o", "csv"}},
		{name: "query-filter-select", args: []string{"query", "People", "--filter", sales + " and Age gt 30", "--select", "FirstName,Age", "-o", "table"}},
		{name: "query-page", args: []string{"query", "People", "--page-size", "2", "-o", "table"}},
		{name: "query-page-json", args: []string{"query", "People", "--page-size", "2", "-o", "json"}},
		{name: "query-page-csv", args: []string{"query", "People", "--page-size", "2", "-o", "csv", "--select", "Age"}},
		{name: "query-continuation", args: []string{"query", "People", "--page-size", "2", "--continuation", "AQVTYWxlcwUwMDAxMKKrXecM-BabohHzdg", "-o", "jsonl"}},
		{name: "query-top", args: []string{"query", "People", "--top", "1", "--select", "FirstName"}},
		{name: "query-all-top", args: []string{"query", "People", "--all", "--top", "1", "--select", "FirstName"}},
		{name: "query-all-top-past-a-page", args: []string{"query", "People", "--all", "--top", "2500", "--select", "FirstName", "-o", "csv"}},
		{name: "query-select-etag", args: []string{"query", "People", "--top", "2", "--select", "FirstName,odata.etag", "-o", "table"}},
		{name: "query-expanded", args: []string{"query", "People", "--top", "2", "--select", "FirstName,Age", "-x", "-o", "table"}},
		{name: "query-all-table", args: []string{"query", "People", "--all", "--select", "FirstName", "-o", "table"}},
		{name: "query-all-json", args: []string{"query", "People", "--all", "--select", "FirstName", "-o", "json", "--explain"}},
		{name: "query-all-csv", args: []string{"query", "People", "--all", "--filter", "Age ge 34", "-o", "csv"}},
		{name: "query-explain-table", args: []string{"query", "People", "--filter", sales + " and RowKey ge '00011'", "--select", "Age", "--explain", "-o", "table"}},
		{name: "query-explain-jsonl", args: []string{"query", "People", "--filter", "PartitionKey eq 'Sales' and RowKey eq '00010'", "--select", "Age", "--explain"}},
		{name: "query-explain-json", args: []string{"query", "People", "--filter", "Age gt 40", "--select", "Age", "--explain", "-o", "json"}},
		{name: "query-empty", args: []string{"query", "People", "--filter", "Age gt 100", "-o", "table"}},
		{name: "query-filter-syntax", args: []string{"query", "People", "--filter", "PartitionKey eq 'Sales' and Age gtt 30"}},
		{name: "query-filter-unclosed", args: []string{"query", "People", "--filter", "PartitionKey eq 'Sales"}},
		{name: "query-bad-token", args: []string{"query", "People", "--continuation", "garbage"}},
		{name: "query-token-other-filter", args: []string{"query", "People", "--filter", sales, "--continuation", "AQVTYWxlcwUwMDAxMKKrXecM-BabohHzdg"}},
		{name: "query-bad-top", args: []string{"query", "People", "--top", "1001"}},
		{name: "query-select-missing", args: []string{"query", "People", "--top", "2", "--select", "RowKey,Nope,FirstName", "-o", "jsonl"}},
		{name: "get-select-missing", args: []string{"get", "People", "Sales", "00010", "--select", "Nope,Age,Timestamp", "-o", "json"}},
		{name: "query-top-zero", args: []string{"query", "People", "--top", "0", "-o", "table"}},
		{name: "query-all-top-zero", args: []string{"query", "People", "--all", "--top", "0", "-o", "jsonl"}},
		{name: "query-filter-blank", args: []string{"query", "People", "--filter", "", "--select", "FirstName", "-o", "table"}},
		{name: "query-filter-true", args: []string{"query", "People", "--filter", "true", "--select", "FirstName", "-o", "table"}},
		{name: "query-filter-false", args: []string{"query", "People", "--filter", "false", "-o", "table"}},
		{name: "query-filter-int32-overflow", args: []string{"query", "People", "--filter", "Age eq 2147483648"}},
		{name: "explain-filter-false", args: []string{"explain", "People", "--filter", "PartitionKey eq 'Sales' and false"}},
		{name: "query-bad-page-size", args: []string{"query", "People", "--page-size", "1001"}},
		{name: "query-bad-output", args: []string{"query", "People", "-o", "xml"}},
		{name: "query-unknown-flag", args: []string{"query", "People", "--filer", "x"}},
		{name: "query-no-table-arg", args: []string{"query"}},
		{name: "query-table-not-found", args: []string{"query", "Nope"}},
		{name: "unknown-command", noSeed: true, args: []string{"quarry", "People"}},
		// explain
		{name: "explain", args: []string{"explain", "People", "--filter", sales}},
		{name: "explain-json", args: []string{"explain", "People", "--filter", "PartitionKey eq 'Sales' and RowKey eq '00010'", "-o", "json"}},
		{name: "explain-csv", args: []string{"explain", "People", "--filter", "FirstName eq 'Ana'", "-o", "csv"}},
		{name: "explain-table-scan", args: []string{"explain", "People", "-o", "table"}},
		// batch
		{name: "batch", stdin: `{"op":"insert","entity":{"PartitionKey":"Sales","RowKey":"00030","Age":30}}
{"op":"upsert","replace":true,"entity":{"PartitionKey":"Sales","RowKey":"00010","Age":24}}
{"op":"merge","entity":{"PartitionKey":"Sales","RowKey":"00011","Age":46}}
{"op":"delete","entity":{"PartitionKey":"Sales","RowKey":"00012"},"ifMatch":"*"}
`, args: []string{"batch", "People", "-o", "table"}},
		{name: "batch-jsonl", stdin: `{"op":"insert","entity":{"PartitionKey":"Sales","RowKey":"00030","Age":30}}
{"op":"replace","entity":{"PartitionKey":"Sales","RowKey":"00010","Age":24}}
`, args: []string{"batch", "People", "-"}},
		{name: "batch-json", stdin: `{"op":"insert","entity":{"PartitionKey":"Sales","RowKey":"00030","Age":30}}
{"op":"delete","entity":{"PartitionKey":"Sales","RowKey":"00012"}}
`, args: []string{"batch", "People", "-o", "json"}},
		{name: "batch-csv", stdin: `{"op":"insert","entity":{"PartitionKey":"Sales","RowKey":"00030","Age":30}}
{"op":"upsert","entity":{"PartitionKey":"Sales","RowKey":"00031","Big@odata.type":"Edm.Int64","Big":"5"}}
`, args: []string{"batch", "People", "-o", "csv"}},
		{name: "batch-fails", stdin: `{"op":"insert","entity":{"PartitionKey":"Sales","RowKey":"00030","Age":30}}
{"op":"insert","entity":{"PartitionKey":"Sales","RowKey":"00010","Age":24}}
`, args: []string{"batch", "People"}},
		{name: "batch-two-partitions", stdin: `{"op":"insert","entity":{"PartitionKey":"Sales","RowKey":"00030"}}
{"op":"insert","entity":{"PartitionKey":"Marketing","RowKey":"00030"}}
`, args: []string{"batch", "People"}},
		{name: "batch-bad-op", stdin: `{"op":"insert","entity":{"PartitionKey":"Sales","RowKey":"00030"}}
{"op":"upsertt","entity":{"PartitionKey":"Sales","RowKey":"00031"}}
`, args: []string{"batch", "People"}},
		{name: "batch-empty", args: []string{"batch", "People"}},
		// import
		{name: "import-jsonl", noSeed: true, setup: [][]string{{"table", "create", "People"}}, args: []string{"import", "People", "../testdata/people.jsonl"}},
		{name: "import-csv", noSeed: true, setup: [][]string{{"table", "create", "People"}}, stdin: "PartitionKey,RowKey,Timestamp,Name,Age@Edm.Int32,Big@Int64,When@Edm.DateTime,Ok@Edm.Boolean,Bin@Edm.Binary,Score@Edm.Double\n" +
			"a,1,,Ann,30,9223372036854775807,2014-08-22T00:50:32.1234567Z,true,AAE=,NaN\nb,2,,\"Bo, Jr.\",,,,false,,2.5\n",
			args: []string{"import", "People", "--format", "csv"}},
		{name: "import-bad-row", noSeed: true, setup: [][]string{{"table", "create", "People"}},
			stdin: "{\"PartitionKey\":\"a\",\"RowKey\":\"1\"}\n\n{\"PartitionKey\":\"a\",\"RowKey\":2}\n{\"PartitionKey\":\"a\",\"RowKey\":\"3\"}\n",
			args:  []string{"import", "People"}},
		{name: "import-continue-on-error", setup: [][]string{},
			stdin: "{\"PartitionKey\":\"a\",\"RowKey\":\"1\"}\n\n{\"PartitionKey\":\"a\",\"RowKey\":2}\n{\"PartitionKey\":\"Sales\",\"RowKey\":\"00010\"}\n{\"PartitionKey\":\"a\",\"RowKey\":\"3\"}\n",
			args:  []string{"import", "People", "--mode", "insert", "--continue-on-error"}},
		{name: "import-insert-exists", stdin: "{\"PartitionKey\":\"a\",\"RowKey\":\"1\"}\n{\"PartitionKey\":\"Sales\",\"RowKey\":\"00010\"}\n",
			args: []string{"import", "People", "--mode", "insert"}},
		{name: "import-csv-bad-header", noSeed: true, setup: [][]string{{"table", "create", "People"}}, stdin: "PartitionKey,RowKey,Age@Edm.Decimal\na,1,2\n",
			args: []string{"import", "People", "--format", "csv"}},
		{name: "import-csv-bad-cell", noSeed: true, setup: [][]string{{"table", "create", "People"}}, stdin: "PartitionKey,RowKey,Age@Edm.Int32\na,1,2\na,2,two\n",
			args: []string{"import", "People", "--format", "csv"}},
		{name: "import-bad-mode", args: []string{"import", "People", "--mode", "append"}},
		{name: "import-no-table", noSeed: true, stdin: `{"PartitionKey":"a","RowKey":"b"}` + "\n", args: []string{"import", "Nope"}},
		{name: "import-empty", stdin: "\n", args: []string{"import", "People"}},
		{name: "batch-empty-stdin", stdin: "", args: []string{"batch", "People"}},
		{name: "import-missing-file", args: []string{"import", "People", "no/such/file.jsonl"}},
		// export
		{name: "export-jsonl", args: []string{"export", "People"}},
		{name: "export-csv", args: []string{"export", "People", "-o", "csv", "--filter", sales}},
		{name: "export-json", args: []string{"export", "People", "-o", "json"}},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			db := filepath.Join(t.TempDir(), "t.db")
			if !tc.noSeed {
				seed(t, db)
			}
			for _, s := range tc.setup {
				mustRun(t, db, "", s...)
			}
			out, errOut, status := run(context.Background(), db, tc.stdin, tc.args...)
			got := transcript(tc.args, tc.stdin, out, errOut, status)
			checkGolden(t, tc.name, strings.ReplaceAll(got, db, "$DB"))
		})
	}
}

// Every status is one line on standard error, and never a stack trace,
// even when a command panics.
func TestExecuteRecoversPanics(t *testing.T) {
	ios, _, out, errOut := iostreams.Test()
	root := NewRoot(ios)
	root.AddCommand(&cobra.Command{Use: "boom", Run: func(*cobra.Command, []string) { panic("index out of range [3]") }})
	status := Execute(context.Background(), root, []string{"boom"}, ios)
	if status != 1 || out.Len() != 0 || errOut.String() != "error: InternalError: index out of range [3] (please report this with the command you ran)\n" {
		t.Errorf("exit %d, stdout %q, stderr %q", status, out, errOut)
	}
}

// Inside the shell, query records its arguments and token for `next`, and
// prints the one-line footer when the session explains.
func TestQueryUpdatesShellSession(t *testing.T) {
	db := filepath.Join(t.TempDir(), "t.db")
	seed(t, db)
	sess := &testSession{explain: true}
	ctx := context.Background()
	out, errOut, status := runWith(ctx, &Factory{Session: sess}, db, "", "query", "People", "--filter", "PartitionKey eq 'Sales'", "--page-size", "2", "-o", "table")
	if status != 0 {
		t.Fatalf("exit %d: %s", status, errOut)
	}
	want := []string{"query", "People", "--filter=PartitionKey eq 'Sales'", "--output=table", "--page-size=2"}
	if strings.Join(sess.args, "|") != strings.Join(want, "|") || sess.token == "" {
		t.Errorf("session: %q %q", sess.args, sess.token)
	}
	footer := regexp.MustCompile(`(?m)^2 entities · partition scan · scanned 2 · \d+\.\d ms · more: next$`)
	if !footer.MatchString(out) {
		t.Errorf("no footer in:\n%s", out)
	}
	// The next page completes the query and clears the session.
	args := append(sess.args[1:], "--continuation", sess.token)
	out, _, _ = runWith(ctx, &Factory{Session: sess}, db, "", append([]string{"query"}, args...)...)
	if sess.token != "" {
		t.Errorf("the last page left a token: %q", sess.token)
	}
	if !regexp.MustCompile(`(?m)^1 entity · partition scan · scanned 1 · \d+\.\d ms$`).MatchString(out) {
		t.Errorf("footer of the last page:\n%s", out)
	}
}

// testSession records what a query tells the shell.
type testSession struct {
	explain bool
	args    []string
	token   string
}

func (s *testSession) ExplainFooter() bool { return s.explain }
func (s *testSession) ShowTiming() bool    { return true }
func (s *testSession) Expanded() string    { return "" }
func (s *testSession) QueryDone(args []string, token string) {
	s.args, s.token = args, token
}
