package cmd

import (
	"context"
	"io"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"github.com/tstable/tstable/iostreams"
	"github.com/tstable/tstable/odata"
)

// BenchmarkCLIQueryAllFormats times `query --all` over 100,000 entities of the
// employees sample (BENCH_N overrides) in each output format, writing to
// a discarding standard output: table output must stream about as fast as
// csv.
func BenchmarkCLIQueryAllFormats(b *testing.B) {
	n := 100_000
	if os.Getenv("BENCH_N") != "" {
		n = benchN(b)
	}
	db := filepath.Join(b.TempDir(), "q.db")
	if _, errOut, st := run(context.Background(), db, "", "sample", "load", "employees", "--size", strconv.Itoa(n/2), "--table", "Bench"); st != 0 {
		b.Fatal(errOut)
	}
	for _, format := range []string{"table", "csv", "jsonl"} {
		b.Run(format, func(b *testing.B) {
			for b.Loop() {
				ios := &iostreams.IOStreams{In: strings.NewReader(""), Out: io.Discard, ErrOut: io.Discard}
				if st := Execute(context.Background(), NewRoot(ios), []string{"--db", db, "query", "Bench", "--all", "-o", format}, ios); st != 0 {
					b.Fatalf("exit %d", st)
				}
			}
		})
	}
}

// The auto expanded display: a table while the keys fit the terminal
// (other columns cut), one property per line when they do not; the keys
// are never cut.
func TestExpandedWhenTheKeysDoNotFit(t *testing.T) {
	long := strings.Repeat("k", 50)
	e := &odata.Entity{PartitionKey: "Sales", RowKey: long, Properties: []odata.Property{
		{Name: "Email", Value: odata.String(strings.Repeat("e", 80))}, {Name: "Age", Value: odata.Int32(30)}}}
	var w strings.Builder
	renderTable(&w, []*odata.Entity{e}, tableView{width: 100})
	if !strings.HasPrefix(w.String(), "+--") || !strings.Contains(w.String(), long) || !strings.Contains(w.String(), "…") {
		t.Errorf("at 100 columns, want a table with the whole RowKey and the Email cut:\n%s", w.String())
	}
	w.Reset()
	renderTable(&w, []*odata.Entity{e}, tableView{width: 60})
	want := "-[ 1 ]"
	if !strings.HasPrefix(w.String(), want) || !strings.Contains(w.String(), "RowKey       | "+long+"\n") && !strings.Contains(w.String(), "RowKey | "+long+"\n") {
		t.Errorf("at 60 columns, want one property per line with the whole RowKey:\n%s", w.String())
	}
	for _, line := range strings.Split(strings.TrimSpace(w.String()), "\n") {
		if !strings.Contains(line, long) && displayWidth(line) > 60 {
			t.Errorf("line wider than the terminal: %q", line)
		}
	}
}
