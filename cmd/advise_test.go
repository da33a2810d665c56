package cmd

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// advise --queries on the log a real tstable serve --log wrote, driven by
// the command line going through the server: the report says how many
// lines it read and which it skipped, and why (reads without a filter,
// other tables, repeats, a line cut short); a table scan that matches
// nothing gets a table scan's proposal.
func TestAdviseOnTheServeLog(t *testing.T) {
	db := designDB(t)
	logFile := filepath.Join(t.TempDir(), "queries.jsonl")
	stop := serveInBackground(t, db, "--log", logFile)
	for _, args := range [][]string{
		{"query", "Employees", "--filter", "LastName eq 'Jones'"},
		{"query", "Employees", "--filter", "LastName eq 'Jones'"},
		{"query", "Employees", "--filter", "LastName eq 'Nobody'"},
		{"query", "Employees"},
		{"query", "Orders", "--filter", "Status eq 'placed'"},
		{"query", "Employees", "--filter", "PartitionKey eq 'Sales' and RowKey eq 'empid_000001'"},
	} {
		mustRun(t, db, "", append(args, "-o", "jsonl")...)
	}
	if _, status := stop(); status != 0 {
		t.Fatalf("serve: exit %d", status)
	}
	f, err := os.OpenFile(logFile, os.O_APPEND|os.O_WRONLY, 0)
	if err != nil {
		t.Fatal(err)
	}
	f.WriteString(`{"time":"2026-01-01T00:00:00Z","table":"Employees","filter":"Age gt` + "\n") // cut short
	f.Close()

	for _, c := range []struct{ name, output string }{{"advise-serve-log", "table"}, {"advise-serve-log-json", "json"}} {
		args := []string{"advise", "Employees", "--queries", logFile, "-o", c.output}
		out, errOut, status := run(context.Background(), db, "", args...)
		got := strings.ReplaceAll(transcript(args, "", out, errOut, status), logFile, "queries.jsonl")
		checkFile(t, filepath.Join("design", c.name+".golden"), got)
	}

	args := []string{"advise", "Customers", "--queries", logFile}
	out, errOut, status := run(context.Background(), db, "", args...)
	got := strings.ReplaceAll(transcript(args, "", out, errOut, status), logFile, "queries.jsonl")
	checkFile(t, filepath.Join("design", "advise-serve-log-other-table.golden"), got)
}
