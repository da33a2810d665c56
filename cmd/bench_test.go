package cmd

import (
	"bufio"
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strconv"
	"testing"
	"time"

	"github.com/tstable/tstable/backend"
)

// benchN is the entity count of the command-line benchmarks: $BENCH_N,
// default 1,000,000.
func benchN(b *testing.B) int {
	if s := os.Getenv("BENCH_N"); s != "" {
		n, err := strconv.Atoi(s)
		if err != nil || n < 1 {
			b.Fatalf("BENCH_N=%q is not a positive count", s)
		}
		return n
	}
	return 1_000_000
}

// writeBenchRows writes n entities of about 200 bytes of JSON each, 1000
// per partition, as JSONL.
func writeBenchRows(b *testing.B, path string, n int) {
	f, err := os.Create(path)
	if err != nil {
		b.Fatal(err)
	}
	defer f.Close()
	w := bufio.NewWriterSize(f, 1<<20)
	for i := 0; i < n; i++ {
		fmt.Fprintf(w, `{"PartitionKey":"p%05d","RowKey":"%010d","Name":"name%07d","Age":%d,"Score@odata.type":"Edm.Double","Score":%d.5,"Email":"user%07d@example.com","Active":%t,"Joined@odata.type":"Edm.DateTime","Joined":"2015-%02d-%02dT10:20:30Z"}`+"\n",
			i/1000, i, (i*7919)%1000003, 18+(i*31)%60, i%100000, i, i%3 == 0, 1+i%12, 1+i%28)
	}
	if err := w.Flush(); err != nil {
		b.Fatal(err)
	}
}

// benchDB is a database of benchN entities, imported once per run.
type benchDB struct {
	c       *cli
	n       int
	elapsed time.Duration
}

var benchDBs = map[int]*benchDB{}

func importedBenchDB(b *testing.B) *benchDB {
	n := benchN(b)
	if d := benchDBs[n]; d != nil {
		return d
	}
	dir, err := os.MkdirTemp("", "tstable-bench")
	if err != nil {
		b.Fatal(err)
	}
	rows := filepath.Join(dir, "rows.jsonl")
	writeBenchRows(b, rows, n)
	c := &cli{t: b, bin: buildBinary(b), db: filepath.Join(dir, "bench.db")}
	c.ok("", "table", "create", "Bench")
	start := time.Now()
	c.ok("", "import", "Bench", rows)
	d := &benchDB{c: c, n: n, elapsed: time.Since(start)}
	os.Remove(rows)
	benchDBs[n] = d
	return d
}

// BenchmarkCLIImport times `tstable import` of BENCH_N ~200-byte entities
// from a JSONL file, the whole process (target: ≥ 150k entities/s).
func BenchmarkCLIImport(b *testing.B) {
	for b.Loop() {
		d := importedBenchDB(b)
		b.ReportMetric(float64(d.n)/d.elapsed.Seconds(), "entities/s")
		b.ReportMetric(d.elapsed.Seconds(), "s/import")
	}
}

// BenchmarkCLIPointQuery times the process wall time of `tstable query` on
// one key in a BENCH_N-entity file, best of 20 (target: ≤ 30 ms).
func BenchmarkCLIPointQuery(b *testing.B) {
	d := importedBenchDB(b)
	mid := d.n / 2
	filter := fmt.Sprintf("PartitionKey eq 'p%05d' and RowKey eq '%010d'", mid/1000, mid)
	for b.Loop() {
		best := time.Duration(1 << 62)
		for range 20 {
			start := time.Now()
			out, _ := d.c.ok("", "query", "Bench", "--filter", filter, "-o", "jsonl")
			if took := time.Since(start); took < best {
				best = took
			}
			if len(out) == 0 {
				b.Fatal("the point query found nothing")
			}
		}
		b.ReportMetric(float64(best.Microseconds())/1000, "ms/query")
	}
}

// discardLoad is a backend whose Load only drains the source: it measures
// the command's own share of an import (reading, decoding, line tracking).
// Import calls nothing else of it but Close.
type discardLoad struct{ backend.Backend }

func (*discardLoad) Close() error { return nil }

func (*discardLoad) Load(ctx context.Context, table string, kind backend.OpKind, src backend.EntitySource, opts backend.LoadOptions) (*backend.LoadResult, error) {
	res := &backend.LoadResult{}
	for {
		_, err := src()
		if errors.Is(err, io.EOF) {
			return res, nil
		}
		if err != nil {
			return res, err
		}
		res.Written++
	}
}

// BenchmarkImportCommandOverhead runs `import` in-process over BENCH_N
// (default 200,000 here) ~200-byte JSONL entities into a backend that
// discards them: the ceiling the command itself puts on import speed.
func BenchmarkImportCommandOverhead(b *testing.B) {
	n := 200_000
	if os.Getenv("BENCH_N") != "" {
		n = benchN(b)
	}
	dir := b.TempDir()
	rows := filepath.Join(dir, "rows.jsonl")
	writeBenchRows(b, rows, n)
	db := filepath.Join(dir, "t.db")
	os.WriteFile(db, nil, 0o644)
	discard := func(context.Context, Target, bool) (backend.Backend, error) { return &discardLoad{}, nil }
	for b.Loop() {
		start := time.Now()
		if _, errOut, status := runWith(context.Background(), &Factory{Opener: discard}, db, "", "import", "Bench", rows); status != 0 {
			b.Fatal(errOut)
		}
		b.ReportMetric(float64(n)/time.Since(start).Seconds(), "entities/s")
	}
}
