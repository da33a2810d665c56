package store

import (
	"bytes"
	"fmt"
	"os"
	"strings"
	"testing"

	"github.com/tstable/tstable/backend"
	"github.com/tstable/tstable/odata"
	"github.com/tstable/tstable/store/internal/boltfile"
	"github.com/tstable/tstable/store/internal/values"
)

// manyCommitFile writes a small file of format 3 in many commits: three
// tables (two of whose shapes have the same types, so that only their
// names tell them apart), several partitions each, entities inserted,
// replaced and deleted one commit at a time and loaded in batches, some
// of them larger than a page (on overflow pages).
func manyCommitFile(t *testing.T) string {
	t.Helper()
	path := dbPath(t, "many.db")
	db, err := Open(path, nil)
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	for _, name := range []string{"People", "Orders", "Logs"} {
		newTable(t, db, name)
	}
	person := func(i int) *odata.Entity {
		return ent(fmt.Sprintf("p%d", i%4), fmt.Sprintf("person%04d", i), prop("FirstName", odata.String(fmt.Sprintf("name %d", i))), prop("Age", odata.Int32(int32(i%90))))
	}
	order := func(i int) *odata.Entity {
		return ent(fmt.Sprintf("o%d", i%3), fmt.Sprintf("order%04d", i), prop("Item", odata.String(fmt.Sprintf("item %d", i))), prop("Quantity", odata.Int32(int32(i%7))))
	}
	logLine := func(i int) *odata.Entity {
		e := ent(fmt.Sprintf("l%d", i%2), fmt.Sprintf("line%04d", i), prop("Message", odata.String(strings.Repeat("m", 40+i%50))), prop("Level", odata.Int64(int64(i%5))), prop("Ok", odata.Bool(i%2 == 0)))
		if i%25 == 0 {
			e.Properties = append(e.Properties, prop("Trace", odata.String(strings.Repeat(fmt.Sprint(i%10), 9000))))
		}
		return e
	}
	for i := range 120 {
		mustWrite(t, db, "People", backend.OpInsert, person(i))
		mustWrite(t, db, "Orders", backend.OpInsertOrReplace, order(i))
		if i%3 == 0 {
			mustWrite(t, db, "Logs", backend.OpInsert, logLine(i))
		}
		if i%10 == 9 {
			mustWrite(t, db, "People", backend.OpInsertOrReplace, person(i-5))
			mustWrite(t, db, "Orders", backend.OpDelete, ent(fmt.Sprintf("o%d", (i-3)%3), fmt.Sprintf("order%04d", i-3)))
		}
	}
	var batch []*odata.Entity
	for i := 1000; i < 1200; i++ {
		batch = append(batch, logLine(i))
	}
	if _, err := db.Load(ctx, "Logs", backend.OpInsert, sliceSource(batch), backend.LoadOptions{}); err != nil {
		t.Fatal(err)
	}
	return path
}

// onPage is where an entity lies in a file: its table (lower-cased), its
// key ("pk/rk") and the pages of its leaf (the leaf and its overflow).
type onPage struct {
	table, key  string
	first, last uint64
}

// pagesOfEntities maps every entity of every table of the file at path to
// its leaf page, reading the pages with boltfile alone (not the store's
// check or recover).
func pagesOfEntities(t *testing.T, path string) (out []onPage, pages uint64, pageSize int64) {
	t.Helper()
	data, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	f := bytes.NewReader(data)
	w := boltfile.NewWalker(ctx, f, int64(len(data)), nil, func(p boltfile.Problem) { t.Fatalf("the undamaged file: %+v", p) })
	r := w.H.Reader(f)
	var tables []boltfile.Elem
	w.Tree(w.H.Meta().Root, nil, 0, nil, nil, func(_ uint64, e boltfile.Elem) bool {
		if e.Bucket && bytes.HasPrefix(e.Key, []byte(values.TablePrefix)) {
			tables = append(tables, boltfile.Elem{Key: bytes.Clone(e.Key), Value: bytes.Clone(e.Value)})
		}
		return true
	}, nil)
	for _, tb := range tables {
		root, _, inline, err := boltfile.InlinePage(tb.Value)
		if err != nil || root == 0 {
			t.Fatalf("table %s: root %d, %v (want a tree of its own)", tb.Key, root, err)
		}
		w.Tree(root, inline, 0, nil, nil, func(page uint64, e boltfile.Elem) bool {
			h, err := r.Head(page)
			if err != nil {
				t.Fatal(err)
			}
			out = append(out, onPage{table: string(tb.Key[len(values.TablePrefix):]), key: keyText(e.Key), first: page, last: page + uint64(h.Overflow)})
			return true
		}, nil)
	}
	return out, w.H.Meta().Pgid, w.H.PageSize
}

// Whatever single page of the file is lost (here zeroed), and wherever
// the file is cut, Recover saves every entity whose leaf page (and its
// overflow pages) is intact, with every property, name and Timestamp, in
// its own table; in format 3 no page holds what the entities of other
// pages need to be read.
func TestEveryEntityOnAnIntactPageIsRecovered(t *testing.T) {
	path := manyCommitFile(t)
	want := contents(t, path)
	located, pages, ps := pagesOfEntities(t, path)
	overflow := 0
	for _, e := range located {
		if e.last > e.first {
			overflow++
		}
	}
	if len(located) < 400 || overflow < 10 || pages < 40 {
		t.Fatalf("the file is too small to tell: %d entities (%d on overflow pages) on %d pages", len(located), overflow, pages)
	}
	names := map[string]string{}
	for n := range want {
		names[strings.ToLower(n)] = n
	}
	try := func(what string, damage func(p string), intact func(onPage) bool) {
		p := copyFile(t, path, "damaged.db")
		damage(p)
		out := dbPath(t, "saved.db")
		if _, err := Recover(ctx, p, out, nil); err != nil {
			t.Fatalf("%s: %v", what, err)
		}
		got := contents(t, out)
		missing := 0
		lostAndFound := 0
		for _, e := range located {
			if !intact(e) {
				continue
			}
			table := names[e.table]
			g := got[table][e.key]
			if g == nil { // its table could not be told: see readableBy
				if g = got["LostAndFound"][e.key]; g != nil {
					lostAndFound++
				}
			}
			if g == nil || !sameEntity(want[table][e.key], g) {
				if missing++; missing <= 3 {
					t.Errorf("%s: %s %s (pages %d to %d) was intact and is not saved in its table as it was: %v", what, table, e.key, e.first, e.last, g != nil)
				}
			}
		}
		if missing > 3 {
			t.Errorf("%s: %d more", what, missing-3)
		}
		if lostAndFound > 0 {
			t.Logf("%s: %d intact entities saved in LostAndFound (their table could not be told)", what, lostAndFound)
		}
		os.Remove(p)
		os.Remove(out)
	}
	for id := uint64(0); id < pages; id++ {
		try(fmt.Sprintf("page %d zeroed", id), func(p string) { writeAt(t, p, make([]byte, ps), int64(id)*ps) },
			func(e onPage) bool { return id < e.first || id > e.last })
	}
	for _, at := range []uint64{3, 5, pages / 4, pages / 3, pages / 2, 2 * pages / 3, pages - 2} {
		for _, cut := range []int64{int64(at) * ps, int64(at)*ps + ps/2} {
			try(fmt.Sprintf("cut at %d", cut), func(p string) { truncate(t, p, cut) },
				func(e onPage) bool { return int64(e.last+1)*ps <= cut })
		}
	}
}

// A table of 150 shapes, more than the copy in the header could hold:
// wherever the file is cut, Recover saves every entity whose leaf page
// lies before the cut, with its properties' names (the shapes past the
// copy's room name their properties in the entities themselves).
func TestACutFileOfManyShapesLosesNoIntactEntity(t *testing.T) {
	path := manyShapesFile(t)
	want := contents(t, path)["Things"]
	located, pages, ps := pagesOfEntities(t, path)
	for _, at := range []uint64{4, pages / 5, pages / 3, pages / 2, 3 * pages / 4, pages - 3} {
		p := copyFile(t, path, "cut.db")
		truncate(t, p, int64(at)*ps)
		out := dbPath(t, "saved.db")
		if _, err := Recover(ctx, p, out, nil); err != nil {
			t.Fatalf("cut at page %d: %v", at, err)
		}
		got := contents(t, out)["Things"]
		missing := 0
		for _, e := range located {
			if e.last >= at {
				continue
			}
			if g := got[e.key]; g == nil || !sameEntity(want[e.key], g) {
				missing++
			}
		}
		if missing > 0 {
			t.Errorf("cut at page %d of %d: %d entities on pages before the cut were not saved as they were", at, pages, missing)
		}
		os.Remove(p)
		os.Remove(out)
	}
}
