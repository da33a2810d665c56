package store

import (
	"bytes"
	"fmt"
	"io"
	"math/rand"
	"reflect"
	"strings"
	"testing"

	"github.com/tstable/tstable/backend"
	"github.com/tstable/tstable/store/internal/boltfile"
	"github.com/tstable/tstable/store/internal/values"

	bolt "go.etcd.io/bbolt"

	"github.com/tstable/tstable/odata"
)

// leafScanFixture holds Big (a tree three pages deep, loaded in random
// order in small pieces, with a 30 KiB value on every 40th entity, so
// leaves with overflow pages), Seq (the same, in key order), One (a tree of one leaf page) and Tiny
// (inline in the list of tables).
func leafScanFixture(t *testing.T) *DB {
	t.Helper()
	db, _ := openTemp(t)
	rng := rand.New(rand.NewSource(7))
	mk := func(i int) *odata.Entity {
		text := strings.Repeat(string(rune('a'+i%26)), 100+i%300)
		if i%40 == 0 {
			text = strings.Repeat("x", 30<<10)
		}
		return ent(fmt.Sprintf("p%03d", i%37), fmt.Sprintf("r%06d", i), prop("N", odata.Int64(int64(i))), prop("Text", odata.String(text)))
	}
	load := func(table string, ids []int) {
		for from := 0; from < len(ids); from += 700 {
			part := ids[from:min(from+700, len(ids))]
			j := 0
			if _, err := db.Load(ctx, table, backend.OpInsert, func() (*odata.Entity, error) {
				if j == len(part) {
					return nil, io.EOF
				}
				j++
				return mk(part[j-1]), nil
			}, backend.LoadOptions{}); err != nil {
				t.Fatal(err)
			}
		}
	}
	newTable(t, db, "Big")
	load("Big", rng.Perm(20_000))
	// Seq, loaded in key order, has its leaves in runs of page numbers,
	// overflow pages among them.
	var seq []int
	for pk := 0; pk < 37; pk++ {
		for i := pk; i < 8000; i += 37 {
			seq = append(seq, i)
		}
	}
	newTable(t, db, "Seq")
	load("Seq", seq)
	newTable(t, db, "One")
	load("One", []int{1, 2, 3, 4, 5, 6, 7, 8})
	newTable(t, db, "Tiny")
	load("Tiny", []int{1, 2})
	return db
}

type scanned struct {
	keys, vals []string
	n          int
}

func scanAll(s *scanner, hi []byte) scanned {
	var out scanned
	for s.next() {
		if hi != nil && bytes.Compare(s.k, hi) >= 0 {
			break
		}
		out.n++
		out.keys = append(out.keys, string(s.k))
		out.vals = append(out.vals, string(s.v))
	}
	return out
}

func randomKey(rng *rand.Rand) []byte {
	return values.EntityKey(fmt.Sprintf("p%03d", rng.Intn(40)), fmt.Sprintf("r%06d", rng.Intn(21_000)))
}

func randomRanges(rng *rand.Rand) []odata.KeyRange {
	bound := func() *odata.Bound {
		if rng.Intn(4) == 0 {
			return nil
		}
		pk, rk := values.SplitKey(randomKey(rng))
		return &odata.Bound{PartitionKey: string(pk), RowKey: string(rk), HasRowKey: rng.Intn(2) == 0, Inclusive: rng.Intn(2) == 0}
	}
	var rs []odata.KeyRange
	for i := rng.Intn(3); i > 0; i-- {
		rs = append(rs, odata.KeyRange{Lower: bound(), Upper: bound()})
	}
	// in order and apart, as the planner gives them
	for i := 0; i < len(rs); i++ {
		if i > 0 && (rs[i-1].Upper == nil || rs[i].Lower == nil || spanOf(rs[i], values.Layout(values.FormatVersion)).start == nil ||
			bytes.Compare(spanOf(rs[i-1], values.Layout(values.FormatVersion)).end, spanOf(rs[i], values.Layout(values.FormatVersion)).start) >= 0) {
			return rs[:i]
		}
	}
	return rs
}

// A scan that reads the leaves with pread (see boltfile.LeafCursor, whose
// own tests hold it to the engine's cursor key by key) gives what one
// through the engine's cursor gives: the same keys and values in the same
// order, over random ranges, starts and ends.
func TestLeafScanEqualsEngineScan(t *testing.T) {
	db := leafScanFixture(t)
	raw := openRaw(t, db.Path())
	if h, es := raw.elems(raw.tableRoot("Big")); h.Flags != boltfile.FlagBranch || raw.kind(es[0].Child) != boltfile.FlagBranch {
		t.Fatal("Big's tree is not three deep")
	}
	if h, _ := raw.elems(raw.tableRoot("One")); h.Flags != boltfile.FlagLeaf {
		t.Fatal("One is not one leaf")
	}
	if raw.tableRoot("Tiny") != 0 {
		t.Fatal("Tiny is not inline")
	}
	rng := rand.New(rand.NewSource(1))
	err := db.bolt.View(func(tx *bolt.Tx) error {
		ck := db.guard.Checker(db.snapshot(tx, false), false)
		for _, table := range []string{"Big", "Seq", "One", "Tiny"} {
			b := tx.Bucket(tableBucketName(table))
			var room boltfile.LeafRoom
			for i := 0; i < 300; i++ {
				ranges := randomRanges(rng)
				var from, hi []byte
				if rng.Intn(2) == 0 {
					from = randomKey(rng)
				}
				if rng.Intn(2) == 0 {
					hi = randomKey(rng)
				}
				mk := func() *scanner {
					s := newScanner(b, values.Layout(values.FormatVersion), ranges, nil)
					s.from = from
					return s
				}
				want := scanAll(mk(), hi)
				s := mk()
				var r *boltfile.LeafRoom
				if i%2 == 0 {
					r = &room
				}
				s.readLeaves(ck, hi, r)
				got := scanAll(s, hi)
				if err := s.err(); err != nil {
					t.Fatal(err)
				}
				if want.n != got.n || !reflect.DeepEqual(want.keys, got.keys) || !reflect.DeepEqual(want.vals, got.vals) {
					t.Fatalf("%s %v from %q to %q: %d keys, want %d", table, ranges, from, hi, got.n, want.n)
				}
			}
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
}

// The parallel scan, which reads leaves with pread, returns what the serial
// scan, through the engine's cursor, does.
func TestLeafScanQueryEqualsSerial(t *testing.T) {
	db := leafScanFixture(t)
	for _, fs := range []string{"N ge 0", "N lt 5000", "PartitionKey ge 'p010' and PartitionKey lt 'p020' and N ge 100", "Text eq 'nothing'"} {
		f, err := odata.ParseFilter(fs)
		if err != nil {
			t.Fatal(err)
		}
		for _, table := range []string{"Big", "Seq", "One", "Tiny"} {
			req := backend.QueryRequest{Query: odata.Query{Filter: f}}
			withWorkers(t, 1)
			want := runQuery(db, table, req)
			withWorkers(t, 3)
			got := runQuery(db, table, req)
			if want.err != nil || got.err != nil {
				t.Fatal(want.err, got.err)
			}
			if !reflect.DeepEqual(want.ents, got.ents) || want.res.Scanned != got.res.Scanned || want.res.Returned != got.res.Returned {
				t.Fatalf("%s %q: %d/%d entities, want %d/%d", table, fs, got.res.Returned, got.res.Scanned, want.res.Returned, want.res.Scanned)
			}
		}
	}
}

// A leaf damaged in the middle of a parallel scan's range, which the guard
// (reading branch pages) does not see, is DatabaseDamaged naming it, not a
// crash: a page of other bytes, and a leaf whose header claims more entries
// than fit.
func TestLeafScanDamagedLeaf(t *testing.T) {
	for _, how := range []string{"smashed", "count"} {
		t.Run(how, func(t *testing.T) {
			withWorkers(t, 2)
			path := fixture(t)
			raw := openRaw(t, path)
			e := fixtureEntity("Alpha", 1502)
			leaf, _ := raw.leafOf("Alpha", e.PartitionKey, e.RowKey)
			want := "page " + fmt.Sprint(leaf)
			if how == "smashed" {
				smash(t, path, leaf, 9)
			} else {
				var b [2]byte
				boltfile.Order.PutUint16(b[:], 0xFFF0)
				writeAt(t, path, b[:], int64(leaf)*raw.h.PageSize+10)
				want += " it claims"
			}
			db, err := Open(path, &Options{ReadOnly: true})
			if err != nil {
				t.Fatal(err)
			}
			defer db.Close()
			f, _ := odata.ParseFilter("N ge 0")
			n := 0
			_, err = db.Query(ctx, "Alpha", backend.QueryRequest{Query: odata.Query{Filter: f}}, func(*odata.Entity) error { n++; return nil })
			wantDamaged(t, err, want)
			if n == 0 || n >= fixtureTables["Alpha"] {
				t.Fatalf("%d entities before the damage", n)
			}
		})
	}
}
