package store

import (
	"fmt"
	"math/rand/v2"
	"os"
	"strings"
	"testing"

	bolt "go.etcd.io/bbolt"

	"github.com/tstable/tstable/backend"
	"github.com/tstable/tstable/odata"
	"github.com/tstable/tstable/store/internal/values"
)

// narrowRows are n entities of five properties (~150 bytes as JSON), keys
// in random order: the narrow rows of make bench-peer, at a test's size.
func narrowRows(n int) []*odata.Entity {
	first := []string{"Don", "Jun", "Ken", "Ana", "Li", "Eva", "Raj", "Mia", "Tom", "Zoe", "Ali", "Kim"}
	last := []string{"Hall", "Cao", "Kwok", "Silva", "Wei", "Novak", "Patel", "Rossi", "Berg", "Okafor"}
	cities := []string{"Lisbon", "Osaka", "Lagos", "Quito", "Oslo", "Perth", "Hanoi", "Dakar", "Turin"}
	es := make([]*odata.Entity, n)
	for j, i := range rand.New(rand.NewPCG(1, 2)).Perm(n) {
		f, l := first[(i*7)%len(first)], last[(i*2654435761>>7)%len(last)]
		es[j] = ent(fmt.Sprintf("p%05d", i/1000), fmt.Sprintf("%010d", i),
			prop("FirstName", odata.String(f)), prop("LastName", odata.String(l)), prop("Age", odata.Int32(int32(18+i%60))),
			prop("Email", odata.String(fmt.Sprintf("%s.%s%d@example.com", strings.ToLower(f), strings.ToLower(l), i))), prop("City", odata.String(cities[(i*5)%len(cities)])))
	}
	return es
}

// usedBytes is what the file at path uses: its pages up to the engine's
// high-water mark.
func usedBytes(t *testing.T, path string) int64 {
	t.Helper()
	b, err := bolt.Open(path, 0o644, &bolt.Options{ReadOnly: true})
	if err != nil {
		t.Fatal(err)
	}
	defer b.Close()
	var n int64
	b.View(func(tx *bolt.Tx) error {
		n = tx.Size()
		return nil
	})
	return n
}

// The file a load of narrow rows in random order writes: at most 90 bytes
// an entity in format 2 (17 of keys, 16 the engine's header of an entry,
// 8 of Timestamp, and packed values without names, in full pages), where
// format 1 takes 1.4 times as much at least; the file is no longer than
// what it uses by more than one step of the engine's growth.
func TestFileSizeOfNarrowRows(t *testing.T) {
	const n = 40_000
	rows := narrowRows(n)
	per := map[uint64]float64{}
	for _, v := range []uint64{1, values.FormatVersion} {
		path := dbPath(t, fmt.Sprintf("f%d.db", v))
		db, err := Open(path, &Options{format: v})
		if err != nil {
			t.Fatal(err)
		}
		newTable(t, db, "Bench")
		if _, err := db.Load(ctx, "Bench", backend.OpInsert, sliceSource(rows), backend.LoadOptions{}); err != nil {
			t.Fatal(err)
		}
		db.Close()
		used := usedBytes(t, path)
		per[v] = float64(used) / n
		st, err := os.Stat(path)
		if err != nil {
			t.Fatal(err)
		}
		if st.Size() > used+allocStep+4096 {
			t.Errorf("format %d: the file is %d bytes, %d past what it uses", v, st.Size(), st.Size()-used)
		}
		t.Logf("format %d: %.1f bytes an entity (the file %d bytes)", v, per[v], st.Size())
	}
	if per[values.FormatVersion] > 90 {
		t.Errorf("format %d: %.1f bytes an entity, want at most 90", values.FormatVersion, per[values.FormatVersion])
	}
	if per[1] < 1.4*per[values.FormatVersion] {
		t.Errorf("format 1 takes %.1f bytes an entity and format %d %.1f: want it 1.4 times as much at least", per[1], values.FormatVersion, per[values.FormatVersion])
	}
}

// A load leaves no unused pages at the file's end once the DB closes:
// the file is as long as the pages it uses, and it grows again as later
// writes need, every entity still there.
func TestALoadedFileEndsAtItsLastPage(t *testing.T) {
	db, path := openTemp(t)
	newTable(t, db, "Narrow")
	rows := narrowRows(30_000)
	if _, err := db.Load(ctx, "Narrow", backend.OpInsert, sliceSource(rows), backend.LoadOptions{}); err != nil {
		t.Fatal(err)
	}
	db.Close()
	st, err := os.Stat(path)
	if err != nil {
		t.Fatal(err)
	}
	if used := usedBytes(t, path); st.Size() != used {
		t.Errorf("the loaded file is %d bytes and uses %d", st.Size(), used)
	}
	db, err = Open(path, nil)
	if err != nil {
		t.Fatal(err)
	}
	for i := range 100 {
		mustWrite(t, db, "Narrow", backend.OpInsert, ent("zz", fmt.Sprintf("%05d", i), prop("Note", odata.String(strings.Repeat("n", 2000)))))
	}
	if got := dump(t, db, "Narrow"); len(got) != len(rows)+100 {
		t.Errorf("read back %d entities, want %d", len(got), len(rows)+100)
	}
	db.Close()
	if rep, err := Check(ctx, path, nil); err != nil || !rep.OK() {
		t.Fatalf("check: %v %+v", err, rep)
	}
}
