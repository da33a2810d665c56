package cmd

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// checkFile compares got with the file at path (under testdata), or
// rewrites it with -update.
func checkFile(t *testing.T, path, got string) {
	t.Helper()
	path = filepath.Join("..", "testdata", path)
	if *update {
		if err := os.WriteFile(path, []byte(got), 0o644); err != nil {
			t.Fatal(err)
		}
		return
	}
	want, err := os.ReadFile(path)
	if err != nil {
		t.Fatalf("%v (go test ./cmd -run %s -update creates it)", err, t.Name())
	}
	if string(want) != got {
		t.Errorf("%s differs (go test ./cmd -run %s -update rewrites it)\n--- got\n%s\n--- want\n%s", path, t.Name(), got, want)
	}
}

// designDB is a database with the samples loaded: employees (size 40),
// orders (100), logs (300) and bad (100).
func designDB(t *testing.T) string {
	t.Helper()
	db := filepath.Join(t.TempDir(), "design.db")
	mustRun(t, db, "", "sample", "load", "employees", "--size", "40")
	mustRun(t, db, "", "sample", "load", "orders", "--size", "100")
	mustRun(t, db, "", "sample", "load", "logs", "--size", "300")
	mustRun(t, db, "", "sample", "load", "bad", "--size", "100")
	return db
}

// TestDesignGolden runs stats, lint, advise and sample in table and json
// output against the samples and compares each transcript with
// testdata/design/NAME.golden.
func TestDesignGolden(t *testing.T) {
	db := designDB(t)
	queries := filepath.Join("..", "testdata", "design", "employees-queries.txt")
	cases := []struct {
		name  string
		stdin string
		args  []string
	}{
		{"stats-employees", "", []string{"stats", "Employees", "-o", "table"}},
		{"stats-employees-json", "", []string{"stats", "Employees", "-o", "json"}},
		{"stats-bad", "", []string{"stats", "BadDesign", "-o", "table"}},
		{"stats-logs-spread-csv", "", []string{"stats", "LogsSpread", "-o", "csv"}},
		{"stats-missing-table", "", []string{"stats", "Nope", "-o", "table"}},
		{"lint-employees", "", []string{"lint", "Employees", "-o", "table"}},
		{"lint-orders", "", []string{"lint", "Orders", "-o", "table"}},
		{"lint-bad", "", []string{"lint", "BadDesign", "-o", "table"}},
		{"lint-bad-json", "", []string{"lint", "BadDesign", "-o", "json"}},
		{"lint-single-partition-csv", "", []string{"lint", "BadSinglePartition", "-o", "csv"}},
		{"lint-logs-rate", "", []string{"lint", "LogsByDate", "--rate", "5000", "-o", "table"}},
		{"lint-logs-spread-rate-json", "", []string{"lint", "LogsSpread", "--rate", "5000", "-o", "json"}},
		{"lint-bad-rate", "", []string{"lint", "Employees", "--rate", "-1"}},
		{"advise-employees", "", []string{"advise", "Employees", "--queries", queries, "-o", "table"}},
		{"advise-employees-json", "", []string{"advise", "Employees", "--queries", queries, "-o", "json"}},
		{"advise-stdin-csv", "LastName eq 'Jones'\n", []string{"advise", "Employees", "--queries", "-", "-o", "csv"}},
		{"advise-syntax-error", "# ok\nAge gt\n", []string{"advise", "Employees", "--queries", "-"}},
		{"advise-no-queries", "", []string{"advise", "Employees"}},
		{"sample-list", "", []string{"sample", "list", "-o", "table"}},
		{"sample-list-json", "", []string{"sample", "list", "-o", "json"}},
		{"sample-unknown", "", []string{"sample", "load", "nope"}},
		{"sample-load-renamed", "", []string{"sample", "load", "logs", "--size", "10", "--table", "Audit", "-o", "table"}},
		{"learn-list", "", []string{"learn", "-o", "table"}},
		{"learn-list-csv", "", []string{"learn", "-o", "csv"}},
		{"learn-lesson-json", "", []string{"learn", "1", "-o", "json"}},
		{"sample-load-csv", "", []string{"sample", "load", "employees", "--size", "5", "--table", "Staff", "-o", "csv"}},
		{"sample-load-json", "", []string{"sample", "load", "logs", "--size", "10", "--table", "Journal", "-o", "json"}},
		{"sample-load-existing", "", []string{"sample", "load", "employees"}},
		{"sample-no-subcommand", "", []string{"sample", "lod"}},
		{"learn-unknown", "", []string{"learn", "nope"}},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			out, errOut, status := run(context.Background(), db, c.stdin, c.args...)
			got := transcript(c.args, c.stdin, out, errOut, status)
			got = strings.ReplaceAll(got, db, "DB")
			got = strings.ReplaceAll(got, queries, "testdata/design/employees-queries.txt")
			checkFile(t, filepath.Join("design", c.name+".golden"), got)
		})
	}
}

// The lint exit status gates scripts: 0 without warnings, 1 with, 2 on
// usage errors.
func TestLintExitStatus(t *testing.T) {
	db := designDB(t)
	for _, c := range []struct {
		table  string
		status int
	}{{"Employees", 0}, {"Orders", 0}, {"LogsSpread", 0}, {"LogsByDate", 1}, {"BadDesign", 1}, {"BadSinglePartition", 1}} {
		if _, errOut, status := run(context.Background(), db, "", "lint", c.table, "-o", "json"); status != c.status {
			t.Errorf("lint %s: exit %d, want %d %s", c.table, status, c.status, errOut)
		}
	}
	if _, _, status := run(context.Background(), db, "", "lint"); status != ExitUsage {
		t.Errorf("lint without a table: exit %d", status)
	}
}
