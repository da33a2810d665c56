package store

import (
	"bytes"
	"fmt"
	"hash/fnv"
	"strings"
	"testing"

	"github.com/tstable/tstable/backend"
	"github.com/tstable/tstable/odata"
	"github.com/tstable/tstable/store/internal/boltfile"
)

// opensForWriting are the commands' ways to open a file for writing: a
// plain open (insert, upsert, serve), an import, a compaction.
var opensForWriting = map[string]func(path string) error{
	"open": func(path string) error {
		db, err := Open(path, nil)
		if err == nil {
			_, err = db.Write(ctx, "Alpha", backend.Operation{Kind: backend.OpInsertOrReplace, Entity: ent("new", "one")})
			db.Close()
		}
		return err
	},
	"import": func(path string) error {
		db, err := Open(path, nil)
		if err == nil {
			_, err = db.Load(ctx, "Alpha", backend.OpInsertOrReplace, source([]*odata.Entity{ent("new", "one"), ent("new", "two")}), backend.LoadOptions{})
			db.Close()
		}
		return err
	},
	"compact": func(path string) error { _, err := Compact(path, nil); return err },
}

// wantRefusedForWriting opens the file at path for writing every way a
// command does: each is refused with DatabaseDamaged saying what, and the
// file's bytes stay as they were. Reading it still works.
func wantRefusedForWriting(t *testing.T, path string, what string) {
	t.Helper()
	wantNoWriteOpen(t, path, what)
	ro, err := Open(path, &Options{ReadOnly: true})
	if err != nil {
		t.Fatalf("reading it: %v", err)
	}
	ro.Close()
}

// wantRefused checks that every open of the file, for writing and for
// reading, is refused with the DatabaseDamaged error that says what, and
// that none writes to it.
func wantRefused(t *testing.T, path string, what string) {
	t.Helper()
	wantNoWriteOpen(t, path, what)
	_, err := Open(path, &Options{ReadOnly: true})
	wantDamaged(t, err, what)
}

// wantNoWriteOpen checks that every open of the file for writing is
// refused with the DatabaseDamaged error that says what, and writes
// nothing.
func wantNoWriteOpen(t *testing.T, path string, what string) {
	t.Helper()
	before := readAll(t, path)
	for how, open := range opensForWriting {
		err := open(path)
		if !strings.Contains(fmt.Sprint(err), "found earlier in this process") {
			wantDamaged(t, err, what)
		}
		if !bytes.Equal(before, readAll(t, path)) {
			t.Fatalf("%s wrote to the file", how)
		}
	}
}

// A file whose list of free pages names a page in use is refused for
// writing before anything is written: the engine would take the page for
// a write and overwrite what it holds. In use: a leaf (entities), a
// branch page, an overflow page of a leaf that holds a large entity, the
// free-page list's own page.
func TestAFreeListNamingAPageInUseIsRefusedForWriting(t *testing.T) {
	base := fixture(t)
	db, err := Open(base, nil)
	if err != nil {
		t.Fatal(err)
	}
	big := ent("p05", "beta-big", prop("Text", odata.String(strings.Repeat("b", 30<<10))), prop("More", odata.String(strings.Repeat("c", 30<<10))))
	mustWrite(t, db, "Beta", backend.OpInsert, big)
	db.Close()
	raw := openRaw(t, base)
	e := fixtureEntity("Alpha", 77)
	leaf, _ := raw.leafOf("Alpha", e.PartitionKey, e.RowKey)
	bigLeaf, _ := raw.leafOf("Beta", big.PartitionKey, big.RowKey)
	h, err := raw.r.Head(bigLeaf)
	if err != nil || h.Overflow == 0 {
		t.Fatalf("the large entity's leaf has no overflow pages (%v)", err)
	}
	for name, page := range map[string]uint64{
		"leaf":     leaf,
		"branch":   raw.tableRoot("Alpha"),
		"overflow": bigLeaf + uint64(h.Overflow),
		"its own":  raw.h.Meta().Freelist,
	} {
		t.Run(name, func(t *testing.T) {
			path := copyFile(t, base, "f.db")
			addToFreeList(t, path, page)
			wantRefusedForWriting(t, path, fmt.Sprintf("page %d is in use but also on the list of free pages", page))
		})
	}
}

// A header whose root page is not the list of tables (a leaf of a table,
// the page of the catalogue) is refused for writing before anything is
// written (an open used to add the file's own records to that page), and
// for reading (a read found no table, or took a table's page for the
// list).
func TestAHeaderRootThatIsNotTheListOfTablesIsRefusedForWriting(t *testing.T) {
	base := fixture(t)
	raw := openRaw(t, base)
	e := fixtureEntity("Alpha", 77)
	leaf, _ := raw.leafOf("Alpha", e.PartitionKey, e.RowKey)
	for name, page := range map[string]uint64{"a table's leaf": leaf, "a table's branch": raw.tableRoot("Alpha")} {
		t.Run(name, func(t *testing.T) {
			path := copyFile(t, base, "r.db")
			setRoot(t, path, page)
			wantRefused(t, path, fmt.Sprintf("its root page %d is not the list of tables", page))
		})
	}
}

// setRoot makes the header in use name page as the root, its checksum
// made right, as damage that keeps the header valid would.
func setRoot(t *testing.T, path string, page uint64) {
	t.Helper()
	raw := openRaw(t, path)
	off := int64(raw.h.Use)*raw.h.PageSize + boltfile.PageHeaderSize
	data := readAll(t, path)
	m := data[off : off+boltfile.MetaSize]
	boltfile.Order.PutUint64(m[16:], page)
	h := fnv.New64a()
	h.Write(m[:boltfile.MetaSumOffset])
	boltfile.Order.PutUint64(m[boltfile.MetaSumOffset:], h.Sum64())
	writeAt(t, path, m, off)
}
