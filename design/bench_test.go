package design

import (
	"context"
	"io"
	"os"
	"runtime"
	"strconv"
	"testing"
	"time"

	"github.com/tstable/tstable/odata"
)

// benchN is the table size of the benchmarks: $BENCH_N, default 1,000,000.
func benchN(b *testing.B) int {
	if s := os.Getenv("BENCH_N"); s != "" {
		n, err := strconv.Atoi(s)
		if err != nil || n <= 0 {
			b.Fatalf("BENCH_N=%q is not a positive number", s)
		}
		return n
	}
	return 1_000_000
}

// benchEntities yields n entities in key order, 1,000 to a partition, each
// with six properties of five types (about 200 bytes), as a store scan
// would hand them over: new key strings for every entity.
func benchEntities(n int, fn func(*odata.Entity)) {
	props := func(i int) []odata.Property {
		return []odata.Property{
			{Name: "EntityType", Value: odata.String("Reading")},
			{Name: "Device", Value: odata.String("sensor-" + strconv.Itoa(i%97))},
			{Name: "Value", Value: odata.Double(float64(i) * 0.5)},
			{Name: "Count", Value: odata.Int32(int32(i % 1000))},
			{Name: "Total", Value: odata.Int64(int64(i))},
			{Name: "At", Value: odata.DateTimeTicks(odata.MinDateTimeTicks + int64(i)*10_000_000)},
		}
	}
	buf := make([]byte, 0, 32)
	var pk string
	for i := 0; i < n; i++ {
		if i%1000 == 0 {
			buf = append(buf[:0], "dev_"...)
			buf = strconv.AppendInt(buf, int64(100000+i/1000), 10)
			pk = string(buf)
		}
		buf = strconv.AppendInt(buf[:0], int64(1000000+i%1000), 10)
		fn(&odata.Entity{PartitionKey: pk, RowKey: string(buf), Properties: props(i)})
	}
}

// heapInuse is the live heap after a collection, in MiB.
func heapInuse() float64 {
	runtime.GC()
	var m runtime.MemStats
	runtime.ReadMemStats(&m)
	return float64(m.HeapInuse) / (1 << 20)
}

// BenchmarkStatsLint feeds BENCH_N entities from memory through Stats and
// Lint, reporting entities a second and the live heap after 100,000
// entities and after all of them (flat: the accumulator does not grow).
func BenchmarkStatsLint(b *testing.B) {
	n := benchN(b)
	for b.Loop() {
		s := NewStats()
		var at100k float64
		began := time.Now()
		count := 0
		benchEntities(n, func(e *odata.Entity) {
			s.Add(e)
			count++
			if count == 100_000 {
				pause := time.Now()
				at100k = heapInuse()
				began = began.Add(time.Since(pause)) // the measurement is not timed
			}
		})
		fs := s.Lint(LintOptions{Rate: 1000})
		el := time.Since(began)
		b.ReportMetric(float64(n)/el.Seconds(), "entities/s")
		b.ReportMetric(at100k, "heapMiB@100k")
		b.ReportMetric(heapInuse(), "heapMiB@end")
		if len(fs) == 0 {
			b.Fatal("no throughput finding")
		}
	}
}

// BenchmarkStatsLintStore loads BENCH_N entities into a bbolt store (not
// timed) and times one scan through Backend.Query into Stats and Lint.
func BenchmarkStatsLintStore(b *testing.B) {
	n := benchN(b)
	ents := make(chan *odata.Entity, 1024)
	go func() {
		benchEntities(n, func(e *odata.Entity) { ents <- e })
		close(ents)
	}()
	db := loadedFrom(b, "Bench", func() (*odata.Entity, error) {
		e, ok := <-ents
		if !ok {
			return nil, io.EOF
		}
		return e, nil
	})
	ctx := context.Background()
	for b.Loop() {
		s := NewStats()
		began := time.Now()
		res, err := db.Query(ctx, "Bench", storeScanAll(), func(e *odata.Entity) error {
			s.Add(e)
			return nil
		})
		if err != nil {
			b.Fatal(err)
		}
		s.Lint(LintOptions{})
		el := time.Since(began)
		if res.Returned != int64(n) {
			b.Fatalf("scanned %d of %d", res.Returned, n)
		}
		b.ReportMetric(float64(n)/el.Seconds(), "entities/s")
		b.ReportMetric(heapInuse(), "heapMiB@end")
	}
}
