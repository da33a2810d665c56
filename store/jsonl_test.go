package store

import (
	"bytes"
	"errors"
	"fmt"
	"math"
	"os"
	"path/filepath"
	"strings"
	"testing"

	bolt "go.etcd.io/bbolt"

	"github.com/tstable/tstable/backend"
	"github.com/tstable/tstable/odata"
	"github.com/tstable/tstable/store/internal/values"
)

// entityLines is what QueryJSONL must deliver for what Query delivered:
// each entity as odata.AppendEntityJSON writes it, a line each.
func entityLines(ents []*odata.Entity) []byte {
	var out []byte
	for _, e := range ents {
		out = append(odata.AppendEntityJSON(out, e), '\n')
	}
	return out
}

type linesRun struct {
	lines []byte
	n     int
	calls int
	res   *backend.QueryResult
	err   error
}

func runQueryJSONL(db *DB, table string, req backend.QueryRequest) linesRun {
	var r linesRun
	r.res, r.err = db.QueryJSONL(ctx, table, req, func(lines []byte, n int) error {
		if n <= 0 || bytes.Count(lines, []byte{'\n'}) != n {
			return fmt.Errorf("a call with n=%d got %d lines", n, bytes.Count(lines, []byte{'\n'}))
		}
		r.lines = append(r.lines, lines...)
		r.n += n
		r.calls++
		return nil
	})
	return r
}

// QueryJSONL delivers, byte for byte, the lines of the entities Query
// delivers, with the same counts and pages, serially and in parallel.
func TestQueryJSONLEqualsQuery(t *testing.T) {
	const n = 30_000
	db, _ := benchTable(t, n)
	g, _ := odata.Guid("a455c695-df98-5678-aaaa-81d3367e5a34")
	for _, e := range []*odata.Entity{
		ent("", "r", prop("Age", odata.Int32(30))),
		ent("a", "\"quoted\" é", prop("Age", odata.Int32(30)), prop("Note", odata.String("tab\there é \u2028 \x01"))),
		ent("zz\u00e9", "r", prop("Big", odata.Int64(-1<<62)), prop("When", odata.DateTimeTicks(odata.MinDateTimeTicks)), prop("Id", g),
			prop("Blob", odata.Binary([]byte{0, 1, 2, 0xff})), prop("Whole", odata.Double(3)), prop("NaN", odata.Double(math.NaN())),
			prop("Inf", odata.Double(math.Inf(-1))), prop("Tiny", odata.Double(5e-324)), prop("Age", odata.Int32(-7)), prop("No", odata.Bool(false))),
		ent("\u4e2d", "r", prop("Age", odata.Int32(30)), prop("Name", odata.String(""))),
	} {
		mustWrite(t, db, "Bench", backend.OpInsert, e)
	}
	filters := []string{"", "Age eq 30", "PartitionKey ge 'p00007' and PartitionKey lt 'p00021'", "Name eq 'nobody'", "RowKey gt '0000029990'"}
	starts := []*odata.Key{nil, {PartitionKey: "p00011", RowKey: "0000011500"}}
	sels := [][]string{nil, {"Age", "Name"}, {}, {"Timestamp", "Blob", "RowKey", "Missing", "Age", "odata.etag", "PartitionKey"}}
	for _, fs := range filters {
		f := filterOf(t, fs)
		for _, start := range starts {
			for _, sel := range sels {
				for _, workers := range []int{1, 2} {
					for _, page := range []int{0, 7, 1000} {
						withWorkers(t, workers)
						req := backend.QueryRequest{Query: odata.Query{Filter: f, Select: sel}, Start: start, PageSize: page}
						want := runQuery(db, "Bench", req)
						got := runQueryJSONL(db, "Bench", req)
						name := fmt.Sprintf("filter %q start %v select %q workers %d page %d", fs, start, sel, workers, page)
						if want.err != nil || got.err != nil {
							t.Fatalf("%s: %v / %v", name, want.err, got.err)
						}
						if w := entityLines(want.ents); !bytes.Equal(got.lines, w) || got.n != len(want.ents) {
							t.Fatalf("%s: %d lines (%d bytes), want %d (%d bytes)", name, got.n, len(got.lines), len(want.ents), len(w))
						}
						if got.res.Scanned != want.res.Scanned || got.res.Returned != want.res.Returned || fmt.Sprint(got.res.Next) != fmt.Sprint(want.res.Next) {
							t.Fatalf("%s: %+v, Query %+v", name, got.res, want.res)
						}
					}
				}
			}
		}
	}
	// Lines arrive in batches, not one call per entity.
	if got := runQueryJSONL(db, "Bench", backend.QueryRequest{}); got.calls >= got.n/100 {
		t.Fatalf("%d calls for %d lines", got.calls, got.n)
	}
}

// An entity that does not decode stops both forms of a query at the same
// place, after the same matches, with the same error.
func TestQueryJSONLStopsAtACorruptEntity(t *testing.T) {
	db, path := benchTable(t, 20_000)
	db.Close()
	underTheEngine(t, path, func(tx *bolt.Tx) error {
		return tx.Bucket(tableBucketName("Bench")).Put(values.EntityKey("p00012", "0000012345x"), []byte{1, 0, 0, 0, 0, 0, 0, 0, 1, 9, 9, 9})
	})
	// A process remembers a file found damaged, so each run has a copy.
	data, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	open := func() *DB {
		p := filepath.Join(t.TempDir(), "copy.db")
		damaging(p)
		if err := os.WriteFile(p, data, 0o644); err != nil {
			t.Fatal(err)
		}
		db, err := Open(p, &Options{ReadOnly: true})
		if err != nil {
			t.Fatal(err)
		}
		t.Cleanup(func() { db.Close() })
		return db
	}
	// (A filter on a property passes over a value it cannot read; one on
	// the keys does not read it.)
	keys, _ := odata.ParseFilter("PartitionKey ge 'p'")
	for _, f := range []*odata.Filter{nil, keys} {
		for _, workers := range []int{1, 2} {
			withWorkers(t, workers)
			req := backend.QueryRequest{Query: odata.Query{Filter: f}}
			db1, db2 := open(), open()
			want := runQuery(db1, "Bench", req)
			got := runQueryJSONL(db2, "Bench", req)
			if want.err == nil || !strings.Contains(want.err.Error(), "cannot be decoded") || got.err == nil ||
				strings.ReplaceAll(got.err.Error(), db2.Path(), db1.Path()) != want.err.Error() {
				t.Fatalf("workers %d: errors %v / %v", workers, got.err, want.err)
			}
			if len(want.ents) != 12_346 || !bytes.Equal(got.lines, entityLines(want.ents)) {
				t.Fatalf("workers %d: %d lines, Query %d entities", workers, got.n, len(want.ents))
			}
		}
	}
}

// A callback's error stops QueryJSONL and is returned, with no more calls.
func TestQueryJSONLCallbackError(t *testing.T) {
	db, _ := benchTable(t, 20_000)
	stop := errors.New("stop")
	for _, workers := range []int{1, 2} {
		withWorkers(t, workers)
		calls := 0
		_, err := db.QueryJSONL(ctx, "Bench", backend.QueryRequest{}, func([]byte, int) error {
			calls++
			if calls == 3 {
				return stop
			}
			return nil
		})
		if err != stop || calls != 3 {
			t.Fatalf("workers %d: err %v after %d calls", workers, err, calls)
		}
	}
}
