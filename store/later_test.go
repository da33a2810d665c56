package store

import (
	"fmt"
	"io"
	"testing"
	"time"

	"github.com/tstable/tstable/backend"
	"github.com/tstable/tstable/odata"
)

// heldSource is a load's source written by the process that holds the
// file, as tstable export T | tstable import U - on one file: it takes
// the file for reading before its first entity and lets go of it only
// after its last, as that export does once its output is read. Its keys
// come in ascending order, so that a load into an empty table would stage
// them (write while it reads). holder, when not nil, is the reader that
// already holds the file.
func heldSource(t *testing.T, path string, n int, holder *DB) backend.EntitySource {
	i := 0
	return func() (*odata.Entity, error) {
		if holder == nil && i == 0 {
			h, err := Open(path, &Options{ReadOnly: true, Wait: -1})
			if err != nil {
				t.Errorf("the source's reader cannot take the file: %v", err)
				return nil, err
			}
			holder = h
		}
		if i == n {
			if holder != nil {
				holder.Close()
				holder = nil
			}
			return nil, io.EOF
		}
		i++
		return ent("p", fmt.Sprintf("%06d", i), prop("N", odata.Int32(int32(i)))), nil
	}
}

// A load whose source is written by a reader of the same file (export |
// import) reads the whole source while that reader holds the file, rather
// than waiting for it and timing out: opened Later, the DB takes the file
// only once the source is read; opened as usual, the load does not stage
// when the file is held at its first batch.
func TestLoadReadsOnWhileTheSourcesWriterHoldsTheFile(t *testing.T) {
	const n = 2500
	for _, later := range []bool{true, false} {
		t.Run(fmt.Sprintf("later=%v", later), func(t *testing.T) {
			path := dbPath(t, "t.db")
			db, err := Open(path, nil)
			if err != nil {
				t.Fatal(err)
			}
			newTable(t, db, "Copy")
			var holder *DB
			opts := &Options{Wait: 300 * time.Millisecond, loadChunk: 100, Later: later}
			if later {
				db.Close() // the source's writer holds the file when the load opens it
				h, err := Open(path, &Options{ReadOnly: true})
				if err != nil {
					t.Fatal(err)
				}
				began := time.Now()
				if db, err = Open(path, opts); err != nil {
					t.Fatalf("opened Later while another process reads: %v", err)
				}
				if waited := time.Since(began); waited >= opts.Wait {
					t.Errorf("opening Later waited %s for the file", waited)
				}
				holder = h // the source's writer goes on holding the file
			} else {
				db.Close()
				if db, err = Open(path, opts); err != nil {
					t.Fatal(err)
				}
			}
			defer db.Close()
			res, err := db.Load(ctx, "Copy", backend.OpInsertOrMerge, heldSource(t, path, n, holder), backend.LoadOptions{})
			if err != nil {
				t.Fatalf("load while the source's writer holds the file: %v", err)
			}
			if res.Written != n {
				t.Errorf("written %d of %d", res.Written, n)
			}
			if got := len(dump(t, db, "Copy")); got != n {
				t.Errorf("the table holds %d entities, want %d", got, n)
			}
		})
	}
}

// A DB opened Later vets the file when it first takes it, as Open does:
// a missing table is TableNotFound then, and nothing is written.
func TestLaterVetsTheFileWhenItTakesIt(t *testing.T) {
	db, path := openTemp(t)
	newTable(t, db, "Some")
	db.Close()
	h, err := Open(path, &Options{ReadOnly: true})
	if err != nil {
		t.Fatal(err)
	}
	later, err := Open(path, &Options{Later: true, Wait: 2 * time.Second})
	if err != nil {
		t.Fatal(err)
	}
	defer later.Close()
	h.Close()
	_, err = later.Load(ctx, "Missing", backend.OpInsert, sliceSource([]*odata.Entity{ent("p", "1")}), backend.LoadOptions{})
	if !odata.IsCode(err, odata.CodeTableNotFound) {
		t.Fatalf("a load into a missing table of a file opened Later: %v, want TableNotFound", err)
	}
	if got := len(dump(t, later, "Some")); got != 0 {
		t.Errorf("Some holds %d entities", got)
	}
}

// A writer holding the file is waited for, Later or not: what it writes
// may change the file's format under a load that read on.
func TestLaterWaitsForAWriter(t *testing.T) {
	db, path := openTemp(t) // held for writing
	newTable(t, db, "Some")
	began := time.Now()
	later, err := Open(path, &Options{Later: true, Wait: 200 * time.Millisecond})
	if err == nil {
		later.Close()
	}
	if !odata.IsCode(err, odata.CodeDatabaseLocked) || time.Since(began) < 200*time.Millisecond {
		t.Fatalf("opened Later beside a writer: %v after %s, want DatabaseLocked after the wait", err, time.Since(began))
	}
}
