package store

import (
	"bytes"
	"errors"
	"fmt"
	"reflect"
	"slices"
	"strings"
	"sync"
	"sync/atomic"
	"testing"

	"github.com/tstable/tstable/backend"
	"github.com/tstable/tstable/odata"
	"github.com/tstable/tstable/store/internal/boltfile"
)

// notIntoTheFile are the DB's methods that do not read or write the file
// (OthersWaiting and CloseForWaiter look at its locks, not its pages;
// HeaderNote says what the open found).
var notIntoTheFile = []string{"Close", "CloseForWaiter", "Describe", "Format", "HeaderNote", "KeyOrder", "OthersWaiting", "Path"}

// Every method of DB that reads or writes the file is among the calls the
// damage tests make (everyCall): a new method fails here until it is.
func TestEveryDBMethodIsADamageTestsCall(t *testing.T) {
	calls := everyCall(nil)
	covered := map[string]bool{}
	for name := range calls {
		method, _, _ := strings.Cut(name, " ")
		covered[method] = true
	}
	typ := reflect.TypeOf(&DB{})
	for i := range typ.NumMethod() {
		m := typ.Method(i).Name
		if !covered[m] && !slices.Contains(notIntoTheFile, m) {
			t.Errorf("DB.%s is not among the damage tests' calls (everyCall): add it there, or to notIntoTheFile if it never uses the file", m)
		}
	}
	for m := range covered {
		if _, ok := typ.MethodByName(m); !ok {
			t.Errorf("everyCall has %q, which is no method of DB", m)
		}
	}
}

// Damage found in a page, and found again when read afresh, fails every
// read that meets it with DatabaseDamaged (marked with ErrDamaged), while
// the reads of the sound parts go on, at the same time as well as after;
// every write is refused from then on and writes nothing; and this
// process opens the file for writing no more.
func TestConfirmedDamageFailsItsReadsAndRefusesWrites(t *testing.T) {
	path := fixture(t)
	raw := openRaw(t, path)
	e := fixtureEntity("Alpha", 1234)
	leaf, _ := raw.leafOf("Alpha", e.PartitionKey, e.RowKey)
	smash(t, path, leaf, 1)
	db, err := Open(path, nil) // the cheap checks cannot see it
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()

	// Readers of Beta keep going while others meet the damage in Alpha.
	var stop atomic.Bool
	var wg sync.WaitGroup
	sound := make(chan error, 4)
	for w := range 2 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for i := 0; !stop.Load(); i++ {
				b := fixtureEntity("Beta", (i*7+w)%400)
				if _, err := db.Get(ctx, "Beta", b.PartitionKey, b.RowKey); err != nil && !odata.IsCode(err, odata.CodeResourceNotFound) {
					sound <- err
					return
				}
			}
		}()
	}
	f, _ := odata.ParseFilter("N ge 0")
	for range 20 {
		_, err = db.Query(ctx, "Alpha", backend.QueryRequest{Query: odata.Query{Filter: f}}, func(*odata.Entity) error { return nil })
		wantDamaged(t, err, fmt.Sprintf("page %d", leaf), "tstable check")
		_, err = db.Get(ctx, "Alpha", e.PartitionKey, e.RowKey)
		wantDamaged(t, err, fmt.Sprintf("page %d", leaf))
	}
	stop.Store(true)
	wg.Wait()
	close(sound)
	for err := range sound {
		t.Errorf("a read of a sound part failed beside the damage: %v", err)
	}

	before := readAll(t, path)
	reads := map[string]bool{"ListTables": true, "Get": true, "Query": false, "Query filtered": false, "QueryJSONL": false}
	for name, call := range everyCall(db) {
		err := call()
		switch sound, read := reads[name]; {
		case read && sound && err != nil:
			t.Errorf("%s, of a sound part, after the damage: %v", name, err)
		case read && !sound:
			wantDamaged(t, err, fmt.Sprintf("page %d", leaf))
		case !read: // a write
			wantDamaged(t, err, fmt.Sprintf("page %d", leaf))
		}
		if !errors.Is(err, ErrDamaged) && err != nil {
			t.Errorf("%s: %v is not marked as damage", name, err)
		}
	}
	if !bytes.Equal(before, readAll(t, path)) {
		t.Fatal("a write changed the damaged file")
	}
	db.Close()
	_, err = Open(path, nil)
	wantDamaged(t, err, "found earlier in this process")
	ro, err := Open(path, &Options{ReadOnly: true})
	if err != nil {
		t.Fatal(err)
	}
	defer ro.Close()
	if n := len(dump(t, ro, "Beta")); n != fixtureTables["Beta"]-50 {
		t.Fatalf("Beta holds %d entities", n)
	}
}

// falseFinding is a finding the tests inject: page p, sound in the file,
// said to be damaged, at the n-th time step comes (counting from 1).
// It counts the steps in seen.
func falseFinding(p uint64, step string, n int64, seen *atomic.Int64) func(string) error {
	return func(s string) error {
		if s == step && seen.Add(1) == n {
			return &boltfile.PageError{ID: p, What: "is a leaf page where a branch page belongs (a false finding)"}
		}
		return nil
	}
}

// A finding that reading the file again does not confirm never reaches the
// caller as damage: a call that has handed nothing to the caller's code
// runs again, afresh, and answers; nothing is marked, and writes go on.
func TestAFalseFindingIsReadAgain(t *testing.T) {
	path := fixture(t)
	root := openRaw(t, path).tableRoot("Alpha")
	e := fixtureEntity("Alpha", 1234)
	for name, call := range map[string]func(db *DB) error{
		"Get": func(db *DB) error {
			got, err := db.Get(ctx, "Alpha", e.PartitionKey, e.RowKey)
			if err == nil && got.RowKey != e.RowKey {
				err = fmt.Errorf("got %s", got.RowKey)
			}
			return err
		},
		"Query": func(db *DB) error {
			n := 0
			_, err := db.Query(ctx, "Alpha", backend.QueryRequest{PageSize: 100}, func(*odata.Entity) error { n++; return nil })
			if err == nil && n != 100 {
				err = fmt.Errorf("%d entities", n)
			}
			return err
		},
		"Write": func(db *DB) error {
			_, err := db.Write(ctx, "Alpha", backend.Operation{Kind: backend.OpInsertOrMerge, Entity: ent(e.PartitionKey, e.RowKey, prop("X", odata.Int32(1)))})
			return err
		},
	} {
		t.Run(name, func(t *testing.T) {
			p := copyFile(t, path, "f.db")
			var seen atomic.Int64
			db, err := Open(p, &Options{finding: falseFinding(root, "table", 2, &seen)})
			if err != nil {
				t.Fatal(err)
			}
			defer db.Close()
			seen.Store(1) // opening opened no table; the call's first does
			if err := call(db); err != nil {
				t.Fatalf("a false finding reached the caller: %v", err)
			}
			if seen.Load() < 3 {
				t.Fatalf("the call opened its table %d times; want it run again after the finding", seen.Load()-1)
			}
			if db.damaged.Load() != nil {
				t.Fatal("a false finding marked the file damaged")
			}
			mustWrite(t, db, "Beta", backend.OpInsertOrReplace, ent("after", "false finding"))
		})
	}
}

// A finding not confirmed after the caller's code has had part of the
// answer cannot be run again: the call stops with ServerBusy, a transient
// error that says nothing is damaged, after the entities delivered before
// it; nothing is marked.
func TestAFalseFindingAfterDeliveryIsTransient(t *testing.T) {
	path := fixture(t)
	root := openRaw(t, path).tableRoot("Alpha")
	var seen atomic.Int64
	db, err := Open(path, &Options{finding: falseFinding(root, "scan", 5, &seen)})
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	n := 0
	_, err = db.Query(ctx, "Alpha", backend.QueryRequest{}, func(*odata.Entity) error { n++; return nil })
	e := wantCode(t, err, odata.CodeServerBusy, 503)
	for _, want := range []string{path, fmt.Sprintf("page %d", root), "nothing is damaged", "retry"} {
		if !strings.Contains(e.Message, want) {
			t.Errorf("message %q lacks %q", e.Message, want)
		}
	}
	if n != 4 {
		t.Fatalf("%d entities delivered before the finding, want 4", n)
	}
	if db.damaged.Load() != nil {
		t.Fatal("a false finding marked the file damaged")
	}
	mustWrite(t, db, "Beta", backend.OpInsertOrReplace, ent("after", "false finding"))
}

// The caller's own error passes through a call as it is, even one that
// wraps ErrDamaged: it is no finding of the call.
func TestTheCallersErrorIsNoFinding(t *testing.T) {
	path := fixture(t)
	db, err := Open(path, nil)
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	mine := fmt.Errorf("another file: %w", ErrDamaged)
	_, err = db.Query(ctx, "Alpha", backend.QueryRequest{}, func(*odata.Entity) error { return mine })
	if err != mine {
		t.Fatalf("got %v, want the callback's own error", err)
	}
	if db.damaged.Load() != nil {
		t.Fatal("the caller's error marked the file damaged")
	}
}
