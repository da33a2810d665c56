package store

import (
	"bytes"
	"encoding/binary"
	"fmt"
	"io"
	"maps"
	"math"
	"os"
	"slices"
	"strings"
	"testing"
	"time"

	bolt "go.etcd.io/bbolt"

	"github.com/tstable/tstable/backend"
	"github.com/tstable/tstable/odata"
	"github.com/tstable/tstable/store/internal/values"
)

// testdata/format1.db was written by a tstable of format 1 (before format
// 2 existed): table Types holds testdata/format1-source.jsonl (every Edm
// type, keys around U+FFFD, 😀 and U+E000), then one entity merged and
// one deleted; table Empty is empty, and a table Gone was created and
// deleted. testdata/format1-export.jsonl is what that tstable exported
// of Types.

// format1Copy is a copy of testdata/format1.db, checked when the test
// ends.
func format1Copy(t *testing.T) string {
	t.Helper()
	return copyFile(t, "testdata/format1.db", "format1.db")
}

// exportOf is what tstable export writes of a table: its JSON lines.
func exportOf(t *testing.T, db *DB, table string) string {
	t.Helper()
	var out []byte
	if _, err := db.QueryJSONL(ctx, table, backend.QueryRequest{}, func(b []byte, n int) error {
		out = append(out, b...)
		return nil
	}); err != nil {
		t.Fatal(err)
	}
	return string(out)
}

// storedUnder reads, under the engine, what the file holds for a table:
// key → value, and the table bucket's sequence.
func storedUnder(t *testing.T, path, table string) (map[string][]byte, uint64, bool) {
	t.Helper()
	b, err := bolt.Open(path, 0o644, &bolt.Options{ReadOnly: true})
	if err != nil {
		t.Fatal(err)
	}
	defer b.Close()
	out := map[string][]byte{}
	var seq uint64
	shapes := false
	b.View(func(tx *bolt.Tx) error {
		shapes = tx.Bucket(values.ShapesBucket) != nil
		bk := tx.Bucket(tableBucketName(table))
		seq = bk.Sequence()
		return bk.ForEach(func(k, v []byte) error {
			out[string(k)] = bytes.Clone(v)
			return nil
		})
	})
	return out, seq, shapes
}

// A file of format 1 is read as the tstable that wrote it read it: the
// same bytes exported, its keys in code point order, its filters
// comparing text in that order. It is written as that tstable wrote it
// too: keys as UTF-8, values in format 1, no dictionary.
func TestFormat1ReadAndWrittenAsBefore(t *testing.T) {
	path := format1Copy(t)
	db, err := Open(path, nil)
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	want, err := os.ReadFile("testdata/format1-export.jsonl")
	if err != nil {
		t.Fatal(err)
	}
	if got := exportOf(t, db, "Types"); got != string(want) {
		t.Fatalf("export of a format-1 file differs from what its tstable exported:\n%s\nwant\n%s", got, want)
	}
	if db.KeyOrder() != odata.CodePoint {
		t.Fatalf("a format-1 file's order: %v", db.KeyOrder())
	}
	f, _ := odata.ParseFilter("PartitionKey eq 'p' and RowKey gt '\uFFFD'")
	var got []string
	if _, err := db.Query(ctx, "Types", backend.QueryRequest{Query: odata.Query{Filter: f}}, func(e *odata.Entity) error {
		got = append(got, e.RowKey)
		return nil
	}); err != nil {
		t.Fatal(err)
	}
	if !slices.Equal(got, []string{"😀"}) {
		t.Fatalf("RowKey gt U+FFFD in a format-1 file: %+q, want 😀 (code point order, as it was)", got)
	}

	// Writes: one at a time, a batch, a load (sorted and staged into an
	// empty table), a merge.
	mustWrite(t, db, "Types", backend.OpInsert, ent("p", "\uFFFE", prop("Name", odata.String("new"))))
	if _, err := db.Batch(ctx, "Types", []backend.Operation{{Kind: backend.OpInsertOrMerge, Entity: ent("q", "bare", prop("More", odata.Int64(7)))}}); err != nil {
		t.Fatal(err)
	}
	if _, err := db.Load(ctx, "Empty", backend.OpInsert, sliceSource([]*odata.Entity{ent("a", "1", prop("X", odata.Bool(true))), ent("😀", "2")}), backend.LoadOptions{}); err != nil {
		t.Fatal(err)
	}
	if _, err := db.Load(ctx, "Types", backend.OpInsertOrMerge, sliceSource([]*odata.Entity{ent("p", "a", prop("Loaded", odata.Double(1.5)))}), backend.LoadOptions{}); err != nil {
		t.Fatal(err)
	}
	e, err := db.Get(ctx, "Types", "p", "a")
	loaded := err == nil && slices.ContainsFunc(e.Properties, func(p odata.Property) bool {
		return p.Name == "Loaded" && p.Value == odata.Double(1.5)
	})
	if !loaded || len(e.Properties) != 11 { // a merge keeps the properties sorted by name
		t.Fatalf("merged by a load: %+v %v", e, err)
	}
	db.Close()
	for _, table := range []string{"Types", "Empty"} {
		stored, seq, shapes := storedUnder(t, path, table)
		if seq != 0 || shapes {
			t.Fatalf("%s: a format-1 file was given an incarnation (%d) or dictionaries (%v)", table, seq, shapes)
		}
		for k, v := range stored {
			if !strings.Contains(k, "\x00") || v[0] != values.FormatV1 {
				t.Fatalf("%s: %+q stored as %x, not in format 1", table, k, v)
			}
		}
	}
	if stored, _, _ := storedUnder(t, path, "Types"); stored["p\x00\uFFFE"] == nil {
		t.Fatal("the key U+FFFE is not stored as UTF-8")
	}
	if v := readFormat(t, path); binary.BigEndian.Uint64(v) != 1 {
		t.Fatalf("the file's format became %x", v)
	}
}

// allEntities reads every entity of every table of the file at path.
func allEntities(t *testing.T, path string) map[string][]*odata.Entity {
	t.Helper()
	db, err := Open(path, &Options{ReadOnly: true})
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	names, err := db.ListTables(ctx)
	if err != nil {
		t.Fatal(err)
	}
	out := map[string][]*odata.Entity{}
	for _, n := range names {
		out[n] = dump(t, db, n)
	}
	return out
}

// sameValue compares two values exactly: a Double by its bits (-0, NaN).
func sameValue(a, b odata.Value) bool {
	if a.Type != b.Type {
		return false
	}
	if a.Type == odata.EdmDouble {
		return math.Float64bits(a.Float) == math.Float64bits(b.Float)
	}
	return a == b
}

// Compact rewrites a format-1 file in format 2: every table (the empty
// one too), every entity with every property (name, type, value, to the
// bit) and its Timestamp (so its ETag), the export byte for byte (only
// the order of keys changes, to the service's), the clock no earlier.
// The new file passes Check, and is read and written in format 2.
func TestCompactUpgradesFormat1(t *testing.T) {
	path := format1Copy(t)
	unchecked(compactCopy(path))
	before := allEntities(t, path)
	db, err := Open(path, &Options{ReadOnly: true})
	if err != nil {
		t.Fatal(err)
	}
	exportBefore := exportOf(t, db, "Types")
	db.Close()

	res, err := Compact(path, nil)
	if err != nil {
		t.Fatal(err)
	}
	if res.FormatBefore != 1 || res.FormatAfter != values.FormatVersion {
		t.Fatalf("compact: %+v", res)
	}
	if v := readFormat(t, path); binary.BigEndian.Uint64(v) != values.FormatVersion {
		t.Fatalf("after compact the file records format %x", v)
	}
	after := allEntities(t, path)
	if len(after) != len(before) {
		t.Fatalf("tables %v, want %v", slices.Sorted(maps.Keys(after)), slices.Sorted(maps.Keys(before)))
	}
	for table, es := range before {
		got := after[table]
		if len(got) != len(es) {
			t.Fatalf("%s: %d entities, want %d", table, len(got), len(es))
		}
		byKey := map[odata.Key]*odata.Entity{}
		for _, e := range got {
			byKey[odata.Key{PartitionKey: e.PartitionKey, RowKey: e.RowKey}] = e
		}
		for _, e := range es {
			g := byKey[odata.Key{PartitionKey: e.PartitionKey, RowKey: e.RowKey}]
			if g == nil || !g.Timestamp.Equal(e.Timestamp) || g.ETag() != e.ETag() || len(g.Properties) != len(e.Properties) {
				t.Fatalf("%s %+q/%+q: %+v, want %+v", table, e.PartitionKey, e.RowKey, g, e)
			}
			for i, p := range e.Properties {
				if g.Properties[i].Name != p.Name || !sameValue(g.Properties[i].Value, p.Value) {
					t.Fatalf("%s %+q/%+q: property %d is %+v, want %+v", table, e.PartitionKey, e.RowKey, i, g.Properties[i], p)
				}
			}
		}
		if !slices.IsSortedFunc(got, func(a, b *odata.Entity) int {
			return odata.CompareKeys(odata.Key{PartitionKey: a.PartitionKey, RowKey: a.RowKey}, odata.Key{PartitionKey: b.PartitionKey, RowKey: b.RowKey})
		}) {
			t.Fatalf("%s is not in UTF-16 order after the upgrade: %v", table, keysOf(got))
		}
	}
	db, err = Open(path, nil)
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	exportAfter := exportOf(t, db, "Types")
	lines := func(s string) []string { l := strings.Split(s, "\n"); slices.Sort(l); return l }
	if !slices.Equal(lines(exportAfter), lines(exportBefore)) {
		t.Fatalf("the export's lines changed:\n%s\nwant (in another order)\n%s", exportAfter, exportBefore)
	}
	if exportAfter == exportBefore {
		t.Fatal("the export kept code point order")
	}
	var latest int64
	for _, es := range after {
		for _, e := range es {
			latest = max(latest, odata.TicksOf(e.Timestamp))
		}
	}
	if e := mustWrite(t, db, "Types", backend.OpInsert, ent("new", "1")); odata.TicksOf(e.Timestamp) <= latest {
		t.Fatal("a write after the upgrade got a Timestamp no later than an entity's: the clock went back")
	}
	if db.KeyOrder() != odata.UTF16 {
		t.Fatal("the upgraded file is not in UTF-16 order")
	}
}

// A load lets the file go while it reads its source; when another process
// (here another DB) upgrades the file meanwhile, the load, whose records
// are in the format it began with, stops when it takes the file back,
// saying why, and writes nothing; the upgraded file is sound.
func TestLoadStopsWhenTheFileIsUpgradedUnderIt(t *testing.T) {
	path := format1Copy(t)
	unchecked(compactCopy(path))
	db, err := Open(path, nil)
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	read, proceed := make(chan struct{}), make(chan struct{})
	n := 0
	src := func() (*odata.Entity, error) {
		n++
		switch n {
		case 1:
			return ent("z", "1", prop("A", odata.Int32(1))), nil
		case 2:
			close(read)
			<-proceed
			return ent("z", "2", prop("A", odata.Int32(2))), nil
		}
		return nil, io.EOF
	}
	done := make(chan error)
	go func() {
		_, err := db.Load(ctx, "Types", backend.OpInsert, src, backend.LoadOptions{})
		done <- err
	}()
	<-read
	if res, err := Compact(path, &Options{Wait: 5 * time.Second}); err != nil || res.FormatAfter != values.FormatVersion {
		t.Fatalf("compact while the load reads: %+v %v", res, err)
	}
	close(proceed)
	err = <-done
	wantCode(t, err, odata.CodeServerBusy, 503)
	if !strings.Contains(err.Error(), fmt.Sprintf("rewritten in file format %d", values.FormatVersion)) {
		t.Fatalf("the load says %v", err)
	}
	if _, err := db.Get(ctx, "Types", "z", "1"); !odata.IsCode(err, odata.CodeResourceNotFound) {
		t.Fatalf("the stopped load wrote: %v", err)
	}
	if db.KeyOrder() != odata.UTF16 {
		t.Fatal("the DB did not take the upgraded file's format")
	}
}
