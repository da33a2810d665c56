package store

import (
	"bytes"
	"encoding/binary"
	"fmt"
	"os"
	"strings"
	"sync"
	"testing"

	bolt "go.etcd.io/bbolt"

	"github.com/tstable/tstable/backend"
	"github.com/tstable/tstable/odata"
	"github.com/tstable/tstable/store/internal/boltfile"
	"github.com/tstable/tstable/store/internal/dictcopy"
	"github.com/tstable/tstable/store/internal/values"
)

// dictionaryOf reads, under the engine, the shapes the file's dictionary
// holds for table (its definitions, by number), and the table's values.
func dictionaryOf(t *testing.T, path, table string) (shapes map[uint64]string, stored map[string][]byte) {
	t.Helper()
	b, err := bolt.Open(path, 0o644, &bolt.Options{ReadOnly: true})
	if err != nil {
		t.Fatal(err)
	}
	defer b.Close()
	shapes, stored = map[uint64]string{}, map[string][]byte{}
	b.View(func(tx *bolt.Tx) error {
		tb := tx.Bucket(tableBucketName(table))
		tb.ForEach(func(k, v []byte) error {
			stored[string(k)] = bytes.Clone(v)
			return nil
		})
		d := tx.Bucket(values.ShapesBucket)
		if d == nil {
			return nil
		}
		prefix := values.IncarnationKey(tb.Sequence())
		c := d.Cursor()
		for k, v := c.Seek(prefix); k != nil && bytes.HasPrefix(k, prefix); k, v = c.Next() {
			shapes[uint64(binary.BigEndian.Uint32(k[8:]))] = string(v)
		}
		return nil
	})
	return shapes, stored
}

// The names are stored once per table: entities of one shape share one
// entry of the dictionary, and their values hold no name.
func TestNamesStoredOncePerTable(t *testing.T) {
	db, path := openTemp(t)
	newTable(t, db, "People")
	var es []*odata.Entity
	for i := range 500 {
		es = append(es, ent("p", fmt.Sprintf("%04d", i), prop("LastName", odata.String("Cao")), prop("Age", odata.Int32(int32(i)))))
	}
	if _, err := db.Load(ctx, "People", backend.OpInsert, sliceSource(es), backend.LoadOptions{}); err != nil {
		t.Fatal(err)
	}
	mustWrite(t, db, "People", backend.OpInsert, ent("q", "1", prop("LastName", odata.String("Wei")), prop("Age", odata.Int32(3))))
	mustWrite(t, db, "People", backend.OpInsert, ent("q", "2", prop("Age", odata.Int32(3)), prop("LastName", odata.String("Wei"))))
	db.Close()
	shapes, stored := dictionaryOf(t, path, "People")
	if len(shapes) != 2 {
		t.Fatalf("the dictionary holds %d shapes, want 2 (one per order of the names)", len(shapes))
	}
	for k, v := range stored {
		if bytes.Contains(v, []byte("LastName")) {
			t.Fatalf("the value of %q holds a name: %q", k, v)
		}
	}
}

// In a file of format 2, a table holds at most values.MaxShapes shapes;
// entities of shapes past that name their properties themselves, and read
// back the same, as do the others. (Format 3 bounds the dictionaries by
// its copy in the header first: TestTheHeadersCopyHoldsEveryShape.)
func TestShapesPastTheBoundNameThemselves(t *testing.T) {
	path := dbPath(t, "t.db")
	db, err := Open(path, &Options{format: 2})
	if err != nil {
		t.Fatal(err)
	}
	newTable(t, db, "Wide")
	n := values.MaxShapes + 20
	var es []*odata.Entity
	for i := range n {
		es = append(es, ent("p", fmt.Sprintf("%05d", i), prop(fmt.Sprintf("P%05d", i), odata.Int64(int64(i)))))
	}
	if _, err := db.Load(ctx, "Wide", backend.OpInsert, sliceSource(es), backend.LoadOptions{}); err != nil {
		t.Fatal(err)
	}
	mustWrite(t, db, "Wide", backend.OpInsert, ent("q", "1", prop("Other", odata.Bool(true))))
	got := dump(t, db, "Wide")
	if len(got) != n+1 || got[n-1].Properties[0].Name != fmt.Sprintf("P%05d", n-1) || got[0].Properties[0].Value.Int != 0 {
		t.Fatalf("read back %d entities, the last %+v", len(got), got[n])
	}
	db.Close()
	shapes, stored := dictionaryOf(t, path, "Wide")
	if len(shapes) != values.MaxShapes {
		t.Fatalf("the dictionary holds %d shapes, want %d", len(shapes), values.MaxShapes)
	}
	last := stored[string(values.Layout(2).Key("p", fmt.Sprintf("%05d", n-1)))]
	if last[8] != 0 || !bytes.Contains(last, []byte(fmt.Sprintf("P%05d", n-1))) {
		t.Fatalf("an entity past the bound is stored as %x, not with its name", last)
	}

	// The bytes bound too: long names fill the dictionary first.
	db, err = Open(path, nil)
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	newTable(t, db, "Long")
	for i := range 20 {
		var props []odata.Property
		for j := range 250 {
			props = append(props, prop(fmt.Sprintf("N%03d%03d%s", i, j, strings.Repeat("x", 240)), odata.Bool(true)))
		}
		mustWrite(t, db, "Long", backend.OpInsert, ent("p", fmt.Sprint(i), props...))
	}
	if got := dump(t, db, "Long"); len(got) != 20 || len(got[19].Properties) != 250 {
		t.Fatalf("long names read back as %d entities", len(got))
	}
	db.Close()
	if shapes, _ := dictionaryOf(t, path, "Long"); len(shapes) >= 20 || len(shapes) == 0 {
		t.Fatalf("the dictionary of long names holds %d shapes; want fewer than the 20 entities (at most %d bytes)", len(shapes), values.MaxShapeBytes)
	}
}

// In a file of format 3, a dictionary takes a new shape only while the
// copy in the header still holds every shape of every table (leaving room
// for tables to come): entities of the shapes past that name their
// properties themselves, so that every entity on a page that survives
// reads without the dictionaries' pages. Every entity reads back.
func TestTheHeadersCopyHoldsEveryShape(t *testing.T) {
	db, path := openTemp(t)
	for _, tb := range []string{"Wide", "Other"} {
		newTable(t, db, tb)
		for i := range 150 {
			name := fmt.Sprintf("Property_%03d_%s", i, strings.Repeat("x", 20))
			mustWrite(t, db, tb, backend.OpInsert, ent("p", fmt.Sprintf("r%03d", i), prop(name, odata.Int32(int32(i))), prop("N", odata.Int64(int64(i)))))
		}
	}
	want := map[string][]*odata.Entity{"Wide": dump(t, db, "Wide"), "Other": dump(t, db, "Other")}
	db.Close()
	copies := 0
	for i := range 2 {
		f, err := os.Open(path)
		if err != nil {
			t.Fatal(err)
		}
		st, _ := f.Stat()
		c, err := dictcopy.Parse(boltfile.Spare(f, st.Size(), 4096, i))
		f.Close()
		if err != nil {
			continue
		}
		copies++
		if !c.Complete {
			t.Errorf("the copy in header page %d holds %d shapes and not all", i, len(c.Shapes))
		}
	}
	if copies == 0 {
		t.Fatal("no copy in the header")
	}
	inline := 0
	for _, tb := range []string{"Wide", "Other"} {
		shapes, values := dictionaryOf(t, path, tb)
		if len(shapes) == 0 || len(shapes) >= 150 {
			t.Errorf("%s's dictionary holds %d shapes; want some, and fewer than its 150", tb, len(shapes))
		}
		for _, v := range values {
			if v[8] == 0 {
				inline++
			}
		}
	}
	if inline == 0 {
		t.Error("no entity names its properties itself")
	}
	db, err := Open(path, &Options{ReadOnly: true})
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	for tb, es := range want {
		got := dump(t, db, tb)
		if len(got) != len(es) {
			t.Fatalf("%s: %d entities read back, want %d", tb, len(got), len(es))
		}
		for i := range es {
			if !sameEntity(es[i], got[i]) {
				t.Errorf("%s: read back %+v, want %+v", tb, got[i], es[i])
			}
		}
	}
}

// A table deleted and created again has a dictionary of its own, and
// nothing of the old one is read for it or left in the file.
func TestShapesOfATableCreatedAgain(t *testing.T) {
	db, path := openTemp(t)
	newTable(t, db, "Tbl")
	mustWrite(t, db, "Tbl", backend.OpInsert, ent("p", "1", prop("Old", odata.String("a"))))
	dump(t, db, "Tbl") // its shapes are known to the DB now
	if err := db.DeleteTable(ctx, "Tbl"); err != nil {
		t.Fatal(err)
	}
	newTable(t, db, "Tbl")
	mustWrite(t, db, "Tbl", backend.OpInsert, ent("p", "1", prop("New", odata.Int32(1))))
	if got := dump(t, db, "Tbl"); len(got) != 1 || got[0].Properties[0].Name != "New" {
		t.Fatalf("read %+v", got[0])
	}
	db.Close()
	b, err := bolt.Open(path, 0o644, &bolt.Options{ReadOnly: true})
	if err != nil {
		t.Fatal(err)
	}
	defer b.Close()
	b.View(func(tx *bolt.Tx) error {
		n := 0
		tx.Bucket(values.ShapesBucket).ForEach(func(k, v []byte) error {
			if v != nil {
				n++
			}
			return nil
		})
		if n != 1 {
			t.Errorf("the file holds %d shapes; the deleted table's should be gone", n)
		}
		return nil
	})
}

// A write that adds a shape and then fails takes its shape with it: the
// writers committed with it in one transaction (a group commit) and those
// after it number their shapes as if it never ran, and every entity
// reads back with its own names.
func TestShapesOfAFailedWriteAreNotKept(t *testing.T) {
	db, _ := openTemp(t)
	newTable(t, db, "Tbl")
	mustWrite(t, db, "Tbl", backend.OpInsert, ent("p", "taken"))
	var wg sync.WaitGroup
	for w := range 8 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for i := range 30 {
				name := fmt.Sprintf("W%dN%d", w, i)
				ops := []backend.Operation{{Kind: backend.OpInsert, Entity: ent("p", name, prop(name, odata.Int32(int32(i))))}}
				if i%3 == 0 { // this one fails after its first operation has added a shape
					ops = append(ops, backend.Operation{Kind: backend.OpInsert, Entity: ent("p", "taken")})
				}
				_, err := db.Batch(ctx, "Tbl", ops)
				if (err != nil) != (i%3 == 0) {
					t.Errorf("%s: %v", name, err)
				}
			}
		}()
	}
	wg.Wait()
	got := dump(t, db, "Tbl")
	if len(got) != 1+8*20 {
		t.Fatalf("%d entities", len(got))
	}
	for _, e := range got[:len(got)-1] {
		if len(e.Properties) != 1 || e.Properties[0].Name != e.RowKey {
			t.Fatalf("%s reads back as %+v", e.RowKey, e.Properties)
		}
	}
}

// Readers and writers at once, the writers adding shapes all the time
// (each entity its own), the readers scanning on several cores and
// getting entities: every entity read has its own names.
func TestShapesWithReadersAndWritersAtOnce(t *testing.T) {
	db, _ := openTemp(t)
	newTable(t, db, "Tbl")
	if _, err := db.Load(ctx, "Tbl", backend.OpInsert, sliceSource(func() []*odata.Entity {
		var es []*odata.Entity
		for i := range 3000 {
			rk := fmt.Sprintf("base%05d", i)
			es = append(es, ent("p", rk, prop("N"+rk, odata.String(rk)), prop("K", odata.Int32(int32(i%5)))))
		}
		return es
	}()), backend.LoadOptions{}); err != nil {
		t.Fatal(err)
	}
	check := func(e *odata.Entity) error {
		if len(e.Properties) < 1 || e.Properties[0].Name != "N"+e.RowKey || e.Properties[0].Value.Str != e.RowKey {
			return fmt.Errorf("%s reads back as %+v", e.RowKey, e.Properties)
		}
		return nil
	}
	stop := make(chan struct{})
	var wg sync.WaitGroup
	for w := range 3 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for i := 0; ; i++ {
				select {
				case <-stop:
					return
				default:
				}
				rk := fmt.Sprintf("w%d_%05d", w, i)
				if _, err := db.Write(ctx, "Tbl", backend.Operation{Kind: backend.OpInsertOrReplace, Entity: ent("p", rk, prop("N"+rk, odata.String(rk)))}); err != nil {
					t.Error(err)
					return
				}
			}
		}()
	}
	f, _ := odata.ParseFilter("K eq 3 or K ne 3 or RowKey ge 'w'")
	for round := range 20 {
		if _, err := db.Query(ctx, "Tbl", backend.QueryRequest{Query: odata.Query{Filter: f}}, check); err != nil {
			t.Fatal(err)
		}
		if e, err := db.Get(ctx, "Tbl", "p", fmt.Sprintf("base%05d", round)); err != nil || check(e) != nil {
			t.Fatal(e, err)
		}
	}
	close(stop)
	wg.Wait()
	if _, err := db.Query(ctx, "Tbl", backend.QueryRequest{}, check); err != nil {
		t.Fatal(err)
	}
}
