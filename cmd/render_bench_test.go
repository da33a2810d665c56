package cmd

import (
	"context"
	"io"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
	"unicode/utf8"

	"github.com/mattn/go-runewidth"
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

// displayWidth and cut measure and cut exactly as go-runewidth does, with
// their ASCII shortcuts.
func FuzzDisplayWidthAndCut(f *testing.F) {
	for _, s := range []string{"", "abc", "note 00500000 lorem ipsum dolor sit amet", "Zoë", "e\u0301t\u00e9", "1\ufe0f\u20e3 keycap",
		"日本語のテキスト", "a😀b", "👩\u200d💻 dev", "x\u0300\u0301", "abc…", "\u200b", "tab\there"} {
		f.Add(s, 5)
	}
	f.Fuzz(func(t *testing.T, s string, n int) {
		if !utf8.ValidString(s) || n < 0 || n > 200 {
			return
		}
		if got, want := displayWidth(s), runewidth.StringWidth(s); got != want {
			t.Fatalf("displayWidth(%q) = %d, runewidth says %d", s, got, want)
		}
		if got, want := cut(s, n), runewidth.Truncate(s, n, "…"); got != want {
			t.Fatalf("cut(%q, %d) = %q, runewidth.Truncate gives %q", s, n, got, want)
		}
	})
}
