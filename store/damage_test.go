package store

import (
	"errors"
	"fmt"
	"os"
	"strings"
	"testing"

	"github.com/tstable/tstable/backend"
	"github.com/tstable/tstable/store/internal/boltfile"

	"github.com/tstable/tstable/odata"
)

// everyCall is every call of a DB into the file, for a table and an
// entity that exist in the fixture, by method name (and, after a space, a
// variant). TestEveryDBMethodIsADamageTestsCall holds it to the DB's
// methods, so that a new method fails the tests until it is here.
func everyCall(db *DB) map[string]func() error {
	e := fixtureEntity("Alpha", 1)
	return map[string]func() error{
		"ListTables": func() error { _, err := db.ListTables(ctx); return err },
		"Get":        func() error { _, err := db.Get(ctx, "Alpha", e.PartitionKey, e.RowKey); return err },
		"Query": func() error {
			_, err := db.Query(ctx, "Alpha", backend.QueryRequest{}, func(*odata.Entity) error { return nil })
			return err
		},
		"Query filtered": func() error { // a stream with a filter: the parallel scan
			f, _ := odata.ParseFilter("N ge 0")
			_, err := db.Query(ctx, "Alpha", backend.QueryRequest{Query: odata.Query{Filter: f}}, func(*odata.Entity) error { return nil })
			return err
		},
		"QueryJSONL": func() error { // a stream of lines: the parallel scan too
			_, err := db.QueryJSONL(ctx, "Alpha", backend.QueryRequest{}, func([]byte, int) error { return nil })
			return err
		},
		"Write": func() error {
			_, err := db.Write(ctx, "Alpha", backend.Operation{Kind: backend.OpInsertOrReplace, Entity: e})
			return err
		},
		"Batch": func() error {
			_, err := db.Batch(ctx, "Alpha", []backend.Operation{{Kind: backend.OpInsertOrMerge, Entity: e}})
			return err
		},
		"CreateTable": func() error { return db.CreateTable(ctx, "Delta") },
		"DeleteTable": func() error { return db.DeleteTable(ctx, "Beta") },
		"Load": func() error {
			_, err := db.Load(ctx, "Alpha", backend.OpInsertOrReplace, source([]*odata.Entity{e}), backend.LoadOptions{})
			return err
		},
	}
}

func TestTruncatedFileIsRefusedBeforeItIsRead(t *testing.T) {
	base := fixture(t)
	size := int64(len(readAll(t, base)))
	for _, cut := range []int64{8 << 10, 16 << 10, 64 << 10, 1 << 20, size / 2} {
		for _, ro := range []bool{true, false} {
			t.Run(fmt.Sprintf("%d/readonly=%v", cut, ro), func(t *testing.T) {
				path := copyFile(t, base, "cut.db")
				truncate(t, path, cut)
				_, err := Open(path, &Options{ReadOnly: ro})
				wantDamaged(t, err, path, "cut short", "tstable check "+path, "tstable recover "+path+" NEW")
				if got := int64(len(readAll(t, path))); got != cut {
					t.Fatalf("opening changed the file's length to %d", got)
				}
			})
		}
	}
}

// Damage a call meets is an error, whatever the call. A damaged leaf is
// met by the calls that read it (Alpha's entity 1 is on it), and the others
// go on. A damaged branch page is found when the file is opened for
// writing, which then refuses every write; the reads that do not pass it
// go on.
func TestEveryCallTurnsDamageIntoAnError(t *testing.T) {
	base := fixture(t)
	raw := openRaw(t, base)
	e := fixtureEntity("Alpha", 1)
	leaf, _ := raw.leafOf("Alpha", e.PartitionKey, e.RowKey)
	root := raw.tableRoot("Alpha")
	sound := map[string]map[string]bool{
		"leaf":   {"ListTables": true, "CreateTable": true, "DeleteTable": true},
		"branch": {"ListTables": true},
	}
	for damage, page := range map[string]uint64{"leaf": leaf, "branch": root} {
		for name := range everyCall(nil) {
			t.Run(damage+"/"+name, func(t *testing.T) {
				path := copyFile(t, base, "d.db")
				smash(t, path, page, 2)
				db, err := Open(path, nil)
				if err != nil {
					t.Fatal(err)
				}
				defer db.Close()
				err = everyCall(db)[name]()
				if sound[damage][name] {
					if err != nil {
						t.Fatalf("%s does not read page %d: %v", name, page, err)
					}
					return
				}
				wantDamaged(t, err, fmt.Sprintf("page %d", page))
			})
		}
	}
}

func TestAPageThatLeadsBackUpIsAnError(t *testing.T) {
	path := fixture(t)
	raw := openRaw(t, path)
	root := raw.tableRoot("Alpha")
	h, es := raw.elems(root)
	if h.Flags != boltfile.FlagBranch || len(es) < 3 {
		t.Fatalf("Alpha's root is not a branch with children: %+v", h)
	}
	// Entry 2 of the root now leads to the root itself.
	var b [8]byte
	boltfile.Order.PutUint64(b[:], root)
	writeAt(t, path, b[:], int64(root)*raw.h.PageSize+boltfile.PageHeaderSize+2*boltfile.ElemSize+8)

	db, err := Open(path, &Options{ReadOnly: true})
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	n := 0
	_, err = db.Query(ctx, "Alpha", backend.QueryRequest{}, func(*odata.Entity) error { n++; return nil })
	wantDamaged(t, err, fmt.Sprintf("page %d leads back to page %d", root, root))
	if n != 0 {
		t.Fatalf("delivered %d entities before finding the loop", n)
	}
}

func TestTheCallersPanicIsNotDamage(t *testing.T) {
	path := fixture(t)
	db, err := Open(path, nil)
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	mustPanic := func(name string, f func()) {
		t.Helper()
		defer func() {
			if r := recover(); r != "mine" {
				t.Errorf("%s: recovered %v, want the caller's own panic", name, r)
			}
		}()
		f()
	}
	mustPanic("Query", func() {
		db.Query(ctx, "Alpha", backend.QueryRequest{}, func(*odata.Entity) error { panic("mine") })
	})
	mustPanic("Query filtered", func() { // the parallel scan
		f, _ := odata.ParseFilter("N ge 0")
		db.Query(ctx, "Alpha", backend.QueryRequest{Query: odata.Query{Filter: f}}, func(*odata.Entity) error { panic("mine") })
	})
	mustPanic("Load source", func() {
		db.Load(ctx, "Alpha", backend.OpInsertOrReplace, func() (*odata.Entity, error) { panic("mine") }, backend.LoadOptions{})
	})
	mustPanic("Load OnReject", func() {
		db.Load(ctx, "Alpha", backend.OpInsert, source([]*odata.Entity{fixtureEntity("Alpha", 1)}), backend.LoadOptions{
			OnReject: func(int64, *odata.Entity, error) error { panic("mine") },
		})
	})
	// The DB is not taken for damaged, and the engine's locks were released.
	if _, err := db.Write(ctx, "Alpha", backend.Operation{Kind: backend.OpInsertOrReplace, Entity: fixtureEntity("Alpha", 1)}); err != nil {
		t.Fatal(err)
	}
	if db.damaged.Load() != nil {
		t.Fatal("the DB took the caller's panic for damage")
	}
}

func TestEmptyFile(t *testing.T) {
	path := dbPath(t, "empty.db")
	if err := os.WriteFile(path, nil, 0o644); err != nil {
		t.Fatal(err)
	}
	_, err := Open(path, &Options{ReadOnly: true})
	wantDamaged(t, err, path+" is empty", "not a tstable database")
	if strings.Contains(err.Error(), "bad file descriptor") {
		t.Fatal(err)
	}
	db, err := Open(path, nil) // a write makes it a database
	if err != nil {
		t.Fatal(err)
	}
	newTable(t, db, "Fresh")
	db.Close()
	if got := contents(t, path); len(got) != 1 {
		t.Fatalf("tables %v", got)
	}
}

func TestNotADatabaseIsLeftAlone(t *testing.T) {
	for name, data := range map[string][]byte{
		"short": []byte("PartitionKey,RowKey\n"),
		"text":  []byte(strings.Repeat("PartitionKey,RowKey,Name\na,b,c\n", 2000)),
	} {
		t.Run(name, func(t *testing.T) {
			path := t.TempDir() + "/x.csv"
			if err := os.WriteFile(path, data, 0o644); err != nil {
				t.Fatal(err)
			}
			for _, ro := range []bool{true, false} {
				_, err := Open(path, &Options{ReadOnly: ro})
				wantDamaged(t, err, "is not a tstable database")
			}
			if string(readAll(t, path)) != string(data) {
				t.Fatal("opening changed the file")
			}
		})
	}
}

func TestOneDamagedHeaderCopyIsSurvivable(t *testing.T) {
	path := fixture(t)
	raw := openRaw(t, path)
	newest := raw.h.Use
	writeAt(t, path, []byte("garbage!"), int64(newest)*raw.h.PageSize+boltfile.PageHeaderSize+20)
	db, err := Open(path, &Options{ReadOnly: true}) // the older copy is used
	if err != nil {
		t.Fatal(err)
	}
	db.Close()
	writeAt(t, path, []byte("garbage!"), int64(1-newest)*raw.h.PageSize+boltfile.PageHeaderSize+20)
	_, err = Open(path, &Options{ReadOnly: true})
	wantDamaged(t, err, "both copies of its header are unreadable", "checksum")
}

func TestDamagedFreeListIsRefusedForWriting(t *testing.T) {
	path := fixture(t)
	raw := openRaw(t, path)
	fl := raw.h.Meta().Freelist
	writeAt(t, path, []byte{0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0x7f}, int64(fl)*raw.h.PageSize+boltfile.PageHeaderSize)
	_, err := Open(path, nil)
	wantDamaged(t, err, fmt.Sprintf("page %d", fl), "free-page list")
	ro, err := Open(path, &Options{ReadOnly: true})
	if err != nil {
		t.Fatalf("reading does not use the free-page list: %v", err)
	}
	ro.Close()
}

func TestDescribePanic(t *testing.T) {
	for in, want := range map[string]string{
		"assertion failed: Page expected to be: 16, but self identifies as 2869062633887539886": "page 16 does not hold what the page that leads to it expects",
		"invalid page type: 37: 8":              "page 37 does not hold",
		"runtime error: index out of range [5]": "a page points outside itself",
		"something else":                        "a page does not hold what the database expects",
	} {
		if got := boltfile.DescribePanic(in); !strings.HasPrefix(got, want) {
			t.Errorf("%q: got %q, want %q…", in, got, want)
		}
	}
	if got := boltfile.DescribePanic(errors.New("x")); strings.Contains(got, "Go") {
		t.Error(got)
	}
}

func TestAPageReachedTwiceIsAnError(t *testing.T) {
	path := fixture(t)
	// The engine would read that part twice (and a few such pages make it
	// endless).
	twice, _ := leadTwice(t, path, "Alpha")
	db, err := Open(path, &Options{ReadOnly: true})
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	_, err = db.Query(ctx, "Alpha", backend.QueryRequest{}, func(*odata.Entity) error { return nil })
	wantDamaged(t, err, fmt.Sprintf("page %d is reached from two places in its tree", twice))
}
