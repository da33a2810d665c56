package store

import (
	"fmt"
	"io"
	"math/rand"
	"os"
	"path/filepath"
	"runtime"
	"strconv"
	"sync"
	"testing"
	"time"

	"github.com/tstable/tstable/backend"
	"github.com/tstable/tstable/odata"
)

// benchN is the table size for benchmarks: env BENCH_N, default 1,000,000.
func benchN() int {
	if n, err := strconv.Atoi(os.Getenv("BENCH_N")); err == nil && n > 0 {
		return n
	}
	return 1_000_000
}

// benchEntity is about 200 bytes by the service's size formula; partitions
// of 1000 entities, keys zero-padded so they arrive in order.
func benchEntity(i int) *odata.Entity {
	return &odata.Entity{
		PartitionKey: fmt.Sprintf("p%05d", i/1000),
		RowKey:       fmt.Sprintf("%010d", i),
		Properties: []odata.Property{
			{Name: "Name", Value: odata.String(fmt.Sprintf("name%07d", (i*7919)%1000003))},
			{Name: "Age", Value: odata.Int32(int32(18 + (i*31)%60))},
			{Name: "Score", Value: odata.Double(float64(i%1000) / 7)},
			{Name: "Note", Value: odata.String("lorem ipsum dolor sit amet consectetur")},
			{Name: "Active", Value: odata.Bool(i%3 == 0)},
		},
	}
}

func benchSource(n int) backend.EntitySource {
	i := 0
	return func() (*odata.Entity, error) {
		if i == n {
			return nil, io.EOF
		}
		i++
		return benchEntity(i - 1), nil
	}
}

var (
	benchOnce sync.Once
	benchPath string
)

// benchDB opens (building once per run) a file of benchN() entities.
func benchDB(b *testing.B) *DB {
	benchOnce.Do(func() {
		dir, err := os.MkdirTemp("", "tstable-bench")
		if err != nil {
			b.Fatal(err)
		}
		benchPath = filepath.Join(dir, "bench.db")
		unchecked(benchPath)
		db, err := Open(benchPath, nil)
		if err != nil {
			b.Fatal(err)
		}
		db.CreateTable(ctx, "Bench")
		if _, err := db.Load(ctx, "Bench", backend.OpInsert, benchSource(benchN()), backend.LoadOptions{}); err != nil {
			b.Fatal(err)
		}
		db.Close()
	})
	db, err := Open(benchPath, &Options{ReadOnly: true})
	if err != nil {
		b.Fatal(err)
	}
	b.Cleanup(func() { db.Close() })
	return db
}

// BenchmarkLoad: bulk insert through Load (target ≥ 200k entities/s).
func BenchmarkLoad(b *testing.B) {
	n := benchN()
	for i := 0; i < b.N; i++ {
		db, err := Open(benchFile(b, "load.db"), nil)
		if err != nil {
			b.Fatal(err)
		}
		db.CreateTable(ctx, "Bench")
		start := time.Now()
		if _, err := db.Load(ctx, "Bench", backend.OpInsert, benchSource(n), backend.LoadOptions{}); err != nil {
			b.Fatal(err)
		}
		b.ReportMetric(float64(n)/time.Since(start).Seconds(), "entities/s")
		db.Close()
	}
}

// BenchmarkLoadRandom: the same entities as BenchmarkLoad, keys in random order.
func BenchmarkLoadRandom(b *testing.B) {
	n := benchN()
	perm := rand.New(rand.NewSource(1)).Perm(n)
	for i := 0; i < b.N; i++ {
		db, err := Open(benchFile(b, "load.db"), nil)
		if err != nil {
			b.Fatal(err)
		}
		db.CreateTable(ctx, "Bench")
		j := 0
		src := func() (*odata.Entity, error) {
			if j == n {
				return nil, io.EOF
			}
			j++
			return benchEntity(perm[j-1]), nil
		}
		start := time.Now()
		if _, err := db.Load(ctx, "Bench", backend.OpInsert, src, backend.LoadOptions{}); err != nil {
			b.Fatal(err)
		}
		b.ReportMetric(float64(n)/time.Since(start).Seconds(), "entities/s")
		db.Close()
	}
}

// BenchmarkPointGet: Get of random keys (target ≤ 50 µs).
func BenchmarkPointGet(b *testing.B) {
	db := benchDB(b)
	n := benchN()
	const gets = 100_000
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		start := time.Now()
		for j := 0; j < gets; j++ {
			k := (j * 7919) % n
			e := benchEntity(k)
			if _, err := db.Get(ctx, "Bench", e.PartitionKey, e.RowKey); err != nil {
				b.Fatal(err)
			}
		}
		b.ReportMetric(float64(time.Since(start).Microseconds())/gets, "µs/get")
	}
}

// BenchmarkPointQuery: a point query through the planner reads one entity.
func BenchmarkPointQuery(b *testing.B) {
	db := benchDB(b)
	mid := benchEntity(benchN() / 2)
	f, _ := odata.ParseFilter(fmt.Sprintf("PartitionKey eq '%s' and RowKey eq '%s'", mid.PartitionKey, mid.RowKey))
	const runs = 50_000
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		start := time.Now()
		for j := 0; j < runs; j++ {
			res, err := db.Query(ctx, "Bench", backend.QueryRequest{Query: odata.Query{Filter: f}}, func(*odata.Entity) error { return nil })
			if err != nil || res.Scanned != 1 {
				b.Fatal(err, res)
			}
		}
		b.ReportMetric(float64(time.Since(start).Microseconds())/runs, "µs/query")
	}
}

// BenchmarkScan: a full ordered scan decoding every entity (target ≥ 1M/s),
// and the heap it needed (flat: it does not grow with the table).
func BenchmarkScan(b *testing.B) {
	db := benchDB(b)
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		runtime.GC()
		var before runtime.MemStats
		runtime.ReadMemStats(&before)
		peak := uint64(0)
		start := time.Now()
		res, err := db.Query(ctx, "Bench", backend.QueryRequest{}, func(e *odata.Entity) error {
			if e.RowKey[9] == '0' && e.RowKey[8] == '0' && e.RowKey[7] == '0' && e.RowKey[6] == '0' { // every 10k: sample the heap
				var m runtime.MemStats
				runtime.ReadMemStats(&m)
				if m.HeapInuse > peak {
					peak = m.HeapInuse
				}
			}
			return nil
		})
		if err != nil {
			b.Fatal(err)
		}
		b.ReportMetric(float64(res.Scanned)/time.Since(start).Seconds(), "entities/s")
		b.ReportMetric(float64(peak)/(1<<20), "peak-heap-MiB")
	}
}

// BenchmarkTableScanFilter: a table scan with a one-property filter
// (target ≥ 1M entities/s/core): the filter reads the stored bytes directly.
func BenchmarkTableScanFilter(b *testing.B) {
	db := benchDB(b)
	f, _ := odata.ParseFilter("Name eq 'name0000000'")
	for _, workers := range []int{1, 2} {
		b.Run(fmt.Sprintf("workers=%d", workers), func(b *testing.B) {
			old := parallelScanWorkers
			parallelScanWorkers = func() int { return workers }
			defer func() { parallelScanWorkers = old }()
			benchTableScanFilter(b, db, f)
		})
	}
}

func benchTableScanFilter(b *testing.B, db *DB, f *odata.Filter) {
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		start := time.Now()
		res, err := db.Query(ctx, "Bench", backend.QueryRequest{Query: odata.Query{Filter: f}}, func(*odata.Entity) error { return nil })
		if err != nil {
			b.Fatal(err)
		}
		b.ReportMetric(float64(res.Scanned)/time.Since(start).Seconds(), "entities/s")
	}
}

// BenchmarkExportJSONL: every entity written as a JSON line from its
// stored bytes (export -o jsonl), on one core and on two.
func BenchmarkExportJSONL(b *testing.B) {
	db := benchDB(b)
	for _, workers := range []int{1, 2} {
		b.Run(fmt.Sprintf("workers=%d", workers), func(b *testing.B) {
			old := parallelScanWorkers
			parallelScanWorkers = func() int { return workers }
			defer func() { parallelScanWorkers = old }()
			benchQueryJSONL(b, db, nil)
		})
	}
}

// BenchmarkExportEntities: the same, through decoded entities and
// odata.AppendEntityJSON (the path of a backend without QueryJSONL).
func BenchmarkExportEntities(b *testing.B) {
	db := benchDB(b)
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		var buf []byte
		var bytes int64
		start := time.Now()
		res, err := db.Query(ctx, "Bench", backend.QueryRequest{}, func(e *odata.Entity) error {
			buf = append(odata.AppendEntityJSON(buf[:0], e), '\n')
			bytes += int64(len(buf))
			return nil
		})
		if err != nil {
			b.Fatal(err)
		}
		b.ReportMetric(float64(res.Scanned)/time.Since(start).Seconds(), "entities/s")
		b.ReportMetric(float64(bytes)/float64(res.Returned), "bytes/entity")
	}
}

// BenchmarkFilteredScanJSONL: query --all --filter "Age eq 30" -o jsonl, a
// table scan returning one entity in 60, on one core and on two.
func BenchmarkFilteredScanJSONL(b *testing.B) {
	db := benchDB(b)
	f, _ := odata.ParseFilter("Age eq 30")
	for _, workers := range []int{1, 2} {
		b.Run(fmt.Sprintf("workers=%d", workers), func(b *testing.B) {
			old := parallelScanWorkers
			parallelScanWorkers = func() int { return workers }
			defer func() { parallelScanWorkers = old }()
			benchQueryJSONL(b, db, f)
		})
	}
}

func benchQueryJSONL(b *testing.B, db *DB, f *odata.Filter) {
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		var bytes int64
		start := time.Now()
		res, err := db.QueryJSONL(ctx, "Bench", backend.QueryRequest{Query: odata.Query{Filter: f}}, func(lines []byte, n int) error {
			bytes += int64(len(lines))
			return nil
		})
		if err != nil {
			b.Fatal(err)
		}
		b.ReportMetric(float64(res.Scanned)/time.Since(start).Seconds(), "entities/s")
		b.ReportMetric(float64(bytes)/float64(max(res.Returned, 1)), "bytes/entity")
	}
}

// BenchmarkGuardWholeTree: the tree guard's check of a whole table, as a
// full scan pays it once per read transaction.
func BenchmarkGuardWholeTree(b *testing.B) {
	db := benchDB(b)
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		db.guard.Reset()
		err := db.do(false, func(o *op) error {
			return o.view(func(t *gtx) error {
				bk, err := t.table("Bench")
				if err != nil {
					return err
				}
				return bk.guard(nil, nil, true)
			})
		})
		if err != nil {
			b.Fatal(err)
		}
	}
}

// BenchmarkBatchInsert is one entity group transaction of 100 inserts a
// loop, each into a partition of its own, committed (and synced) on its
// own: the store's part of tstable serve's batches.
func BenchmarkBatchInsert(b *testing.B) {
	db, err := Open(benchFile(b, "batch.db"), nil)
	if err != nil {
		b.Fatal(err)
	}
	b.Cleanup(func() { db.Close() })
	if err := db.CreateTable(ctx, "Bench"); err != nil {
		b.Fatal(err)
	}
	ops := make([]backend.Operation, 100)
	b.ReportAllocs()
	for i := 0; b.Loop(); i++ {
		for j := range ops {
			ops[j] = backend.Operation{Kind: backend.OpInsert, Entity: benchEntity(i*1000 + j)}
		}
		if _, err := db.Batch(ctx, "Bench", ops); err != nil {
			b.Fatal(err)
		}
	}
}
