package store

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"reflect"
	"testing"

	"github.com/tstable/tstable/backend"
	"github.com/tstable/tstable/odata"
)

func withWorkers(t *testing.T, n int) {
	t.Helper()
	old := parallelScanWorkers
	parallelScanWorkers = func() int { return n }
	t.Cleanup(func() { parallelScanWorkers = old })
}

type queryRun struct {
	ents []*odata.Entity
	res  *backend.QueryResult
	err  error
}

func runQuery(db *DB, table string, req backend.QueryRequest) queryRun {
	var r queryRun
	r.res, r.err = db.Query(ctx, table, req, func(e *odata.Entity) error {
		r.ents = append(r.ents, e)
		return nil
	})
	return r
}

// A query answered by several cores returns what the serial scan does:
// the same entities in the same order, the same counts, and the same pages.
func TestParallelScanEqualsSerial(t *testing.T) {
	const n = 30_000
	db, _ := benchTable(t, n)
	// keys outside the benchmark's pattern, so the splits fall unevenly
	for _, pk := range []string{"", "a", "zz\u00e9", "\u4e2d"} {
		mustWrite(t, db, "Bench", backend.OpInsert, ent(pk, "r", prop("Age", odata.Int32(30))))
	}
	filters := []string{"", "Age eq 30", "Age eq 30 or Active eq true", "PartitionKey ge 'p00007' and PartitionKey lt 'p00021'",
		"PartitionKey eq 'p00003' or PartitionKey eq 'p00025'", "Name eq 'nobody'", "RowKey gt '0000029990'", "Age eq 30 and PartitionKey ge 'p00012'"}
	starts := []*odata.Key{nil, {PartitionKey: "p00011", RowKey: "0000011500"}, {PartitionKey: "p00011", RowKey: "x"}}
	for _, fs := range filters {
		f := filterOf(t, fs)
		for _, start := range starts {
			for _, sel := range [][]string{nil, {"Age", "Name"}} {
				req := backend.QueryRequest{Query: odata.Query{Filter: f, Select: sel}, Start: start}
				withWorkers(t, 1)
				serial := runQuery(db, "Bench", req)
				withWorkers(t, 2)
				par := runQuery(db, "Bench", req)
				name := fmt.Sprintf("filter %q start %v select %v", fs, start, sel)
				if serial.err != nil || par.err != nil {
					t.Fatalf("%s: %v / %v", name, serial.err, par.err)
				}
				if len(par.ents) != len(serial.ents) || !reflect.DeepEqual(par.ents, serial.ents) {
					t.Fatalf("%s: parallel returned %d entities, serial %d, or they differ", name, len(par.ents), len(serial.ents))
				}
				if par.res.Scanned != serial.res.Scanned || par.res.Returned != serial.res.Returned || par.res.Next != nil || serial.res.Next != nil {
					t.Fatalf("%s: parallel %+v, serial %+v", name, par.res, serial.res)
				}
				// Pages and $top (the serial path) walk the same entities.
				for _, page := range []int{1, 7, 1000} {
					var paged []*odata.Entity
					var scanned int64
					r := req
					for {
						r.PageSize = page
						got := runQuery(db, "Bench", r)
						if got.err != nil {
							t.Fatal(got.err)
						}
						paged = append(paged, got.ents...)
						scanned += got.res.Scanned
						if got.res.Next == nil {
							break
						}
						r.Start = got.res.Next
						if page == 1 && len(paged) > 50 {
							break
						}
					}
					if page == 1 && len(paged) > 50 {
						if !reflect.DeepEqual(paged, serial.ents[:len(paged)]) {
							t.Fatalf("%s: pages of 1 differ", name)
						}
						continue
					}
					if !reflect.DeepEqual(paged, serial.ents) || scanned != serial.res.Scanned {
						t.Fatalf("%s: pages of %d gave %d entities (%d scanned), the stream %d (%d)", name, page, len(paged), scanned, len(serial.ents), serial.res.Scanned)
					}
				}
			}
		}
	}
	// The split points exist for this table, so the parallel path really ran.
	if err := db.do(false, func(o *op) error {
		return o.view(func(t *gtx) error {
			b, err := t.table("Bench")
			if err != nil {
				return err
			}
			if splits, err := scanSplits(b, odata.PlanQuery(nil).Ranges, nil); err != nil || len(splits) == 0 {
				return fmt.Errorf("no split points for a 30k-entity table (%v)", err)
			}
			return nil
		})
	}); err != nil {
		t.Fatal(err)
	}
}

// A callback's error stops the scan and is returned, with no more calls.
func TestParallelScanCallbackError(t *testing.T) {
	withWorkers(t, 2)
	db, _ := benchTable(t, 20_000)
	stop := errors.New("stop")
	calls := 0
	all, _ := odata.ParseFilter("Age ge 0")
	_, err := db.Query(ctx, "Bench", backend.QueryRequest{Query: odata.Query{Filter: all}}, func(*odata.Entity) error {
		calls++
		if calls == 12_345 {
			return stop
		}
		return nil
	})
	if err != stop || calls != 12_345 {
		t.Fatalf("err %v after %d calls", err, calls)
	}
}

func TestMidKey(t *testing.T) {
	cases := [][2]string{{"a", "c"}, {"a", "b"}, {"p00000\x000000000000", "p00199\x000000199999"}, {"", "\xff"}, {"abc", "abd"}, {"x", "x\x00\x01"}}
	for _, c := range cases {
		a, b := []byte(c[0]), []byte(c[1])
		m := midKey(a, b)
		if m != nil && (bytes.Compare(m, a) <= 0 || bytes.Compare(m, b) >= 0) {
			t.Errorf("midKey(%q, %q) = %q, not between", a, b, m)
		}
	}
	if midKey([]byte("a"), []byte("a")) != nil {
		t.Error("midKey of equal keys")
	}
}

// An interrupt stops a streaming query at once, even when the workers
// read ahead of a slow caller: after the batch being delivered, no other
// is, and the query returns the context's error. (The workers checked it
// only every 4096 keys of a batch, which a batch of lines never holds,
// so export ran to its end.)
func TestParallelScanStopsWhenCancelled(t *testing.T) {
	withWorkers(t, 2)
	db, _ := benchTable(t, 20_000)
	for _, filter := range []string{"", "Age ge 0"} {
		cctx, cancel := context.WithCancel(ctx)
		calls := 0
		_, err := db.QueryJSONL(cctx, "Bench", backend.QueryRequest{Query: odata.Query{Filter: filterOf(t, filter)}}, func([]byte, int) error {
			calls++
			cancel()
			return nil
		})
		cancel()
		if !errors.Is(err, context.Canceled) || calls != 1 {
			t.Errorf("filter %q: %v after %d batches; want context.Canceled after 1", filter, err, calls)
		}
	}
}
