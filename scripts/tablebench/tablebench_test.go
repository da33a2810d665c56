// Package tablebench measures why tstable draws its own tables rather
// than using github.com/olekukonko/tablewriter: the same rows rendered by
// tablewriter in its streaming mode, against tstable's query --all in the
// table format and in csv. It is a module of its own so that tablewriter
// (and the newer go-runewidth it needs) never enters tstable's build.
//
//	make bench-tables        (or: cd scripts/tablebench && go test -bench . -benchtime 3x)
//
// BENCH_N sets the rows (default 100,000). Each benchmark reports ns/row.
// tablewriter is timed rendering rows already in memory; tstable's figures
// are whole commands (reading the file, decoding, rendering), so the
// comparison favours tablewriter.
package tablebench

import (
	"bufio"
	"context"
	"io"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"sync"
	"testing"

	"github.com/olekukonko/tablewriter"
	"github.com/olekukonko/tablewriter/tw"
	"github.com/tstable/tstable/cmd"
	"github.com/tstable/tstable/iostreams"
	"github.com/tstable/tstable/odata"
)

// fixture is a database holding the employees sample as table Bench, and
// the cells of its rows as tstable's table shows them.
type fixture struct {
	db     string
	header []string
	rows   [][]string
}

var (
	fixtureOnce sync.Once
	shared      fixture
)

// rows is how many rows the benchmarks render.
func rows(b *testing.B) int {
	n := 100_000
	if s := os.Getenv("BENCH_N"); s != "" {
		v, err := strconv.Atoi(s)
		if err != nil || v < 2 {
			b.Fatalf("BENCH_N=%q", s)
		}
		n = v
	}
	return n
}

// load makes the fixture once: the sample through tstable's own command,
// then its export decoded into cells.
func load(b *testing.B) fixture {
	fixtureOnce.Do(func() {
		dir, err := os.MkdirTemp("", "tablebench")
		if err != nil {
			b.Fatal(err)
		}
		shared.db = filepath.Join(dir, "bench.db")
		if _, st := tstable(b, shared.db, io.Discard, "sample", "load", "employees", "--size", strconv.Itoa(rows(b)/2), "--table", "Bench"); st != 0 {
			b.Fatal("sample load failed")
		}
		var export strings.Builder
		tstable(b, shared.db, &export, "export", "Bench")
		shared.header, shared.rows = cells(b, export.String())
	})
	return shared
}

// tstable runs one tstable command line, its output to out.
func tstable(b *testing.B, db string, out io.Writer, args ...string) (string, int) {
	var errOut strings.Builder
	ios := &iostreams.IOStreams{In: strings.NewReader(""), Out: out, ErrOut: &errOut}
	st := cmd.Execute(context.Background(), cmd.NewRoot(ios), append([]string{"--db", db}, args...), ios)
	return errOut.String(), st
}

// cells turns an export into a header (the keys, then every property name
// in first-seen order) and a row of cell texts per entity.
func cells(b *testing.B, export string) ([]string, [][]string) {
	var ents []*odata.Entity
	seen := map[string]bool{}
	header := []string{odata.PartitionKey, odata.RowKey}
	sc := bufio.NewScanner(strings.NewReader(export))
	sc.Buffer(nil, 1<<20)
	for sc.Scan() {
		e, err := odata.DecodeEntityJSON(sc.Bytes())
		if err != nil {
			b.Fatal(err)
		}
		for _, p := range e.Properties {
			if !seen[p.Name] {
				seen[p.Name] = true
				header = append(header, p.Name)
			}
		}
		ents = append(ents, e)
	}
	out := make([][]string, len(ents))
	for i, e := range ents {
		row := []string{e.PartitionKey, e.RowKey}
		for _, name := range header[2:] {
			v, _ := e.Get(name)
			row = append(row, v.Text())
		}
		out[i] = row
	}
	return header, out
}

// perRow reports the time of one loop per row rendered.
func perRow(b *testing.B, n int) {
	b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(b.N)/float64(n), "ns/row")
}

// BenchmarkTablewriterStreaming renders the rows with tablewriter v1.1.5
// in its streaming mode (the mode a listing of any length needs), to a
// discarding writer.
func BenchmarkTablewriterStreaming(b *testing.B) {
	f := load(b)
	for b.Loop() {
		t := tablewriter.NewTable(io.Discard, tablewriter.WithStreaming(tw.StreamConfig{Enable: true}))
		if err := t.Start(); err != nil {
			b.Fatal(err)
		}
		t.Header(f.header)
		for _, r := range f.rows {
			if err := t.Append(r); err != nil {
				b.Fatal(err)
			}
		}
		if err := t.Close(); err != nil {
			b.Fatal(err)
		}
	}
	perRow(b, len(f.rows))
}

// BenchmarkTstableTable is tstable query --all -o table: the whole command.
func BenchmarkTstableTable(b *testing.B) { benchQuery(b, "table") }

// BenchmarkTstableCSV is tstable query --all -o csv: the whole command.
func BenchmarkTstableCSV(b *testing.B) { benchQuery(b, "csv") }

func benchQuery(b *testing.B, format string) {
	f := load(b)
	for b.Loop() {
		if errOut, st := tstable(b, f.db, io.Discard, "query", "Bench", "--all", "-o", format); st != 0 {
			b.Fatal(errOut)
		}
	}
	perRow(b, len(f.rows))
}
