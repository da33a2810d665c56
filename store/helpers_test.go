package store

import (
	"context"
	"errors"
	"syscall"
	"testing"

	"github.com/tstable/tstable/backend"
	"github.com/tstable/tstable/odata"
	"github.com/tstable/tstable/store/internal/values"
)

var ctx = context.Background()

func openTemp(t *testing.T) (*DB, string) {
	t.Helper()
	path := dbPath(t, "t.db")
	db, err := Open(path, nil)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { db.Close() })
	return db, path
}

// benchTable opens a new database holding table Bench with the first n
// benchmark entities.
func benchTable(t *testing.T, n int) (*DB, string) {
	t.Helper()
	db, path := openTemp(t)
	newTable(t, db, "Bench")
	if _, err := db.Load(ctx, "Bench", backend.OpInsert, benchSource(n), backend.LoadOptions{}); err != nil {
		t.Fatal(err)
	}
	return db, path
}

// failingAt opens a new database with opts whose n-th commit after arm is
// called fails as a disk would (EIO); the commits before arm do not count.
func failingAt(t *testing.T, opts Options, n int) (db *DB, path string, arm func()) {
	t.Helper()
	path = dbPath(t, "t.db")
	commits, armed := 0, false
	opts.failCommit = func() error {
		if armed {
			if commits++; commits == n {
				return syscall.EIO
			}
		}
		return nil
	}
	db, err := Open(path, &opts)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { db.Close() })
	return db, path, func() { armed = true }
}

func newTable(t *testing.T, db *DB, name string) {
	t.Helper()
	if err := db.CreateTable(ctx, name); err != nil {
		t.Fatal(err)
	}
}

func ent(pk, rk string, props ...odata.Property) *odata.Entity {
	return &odata.Entity{PartitionKey: pk, RowKey: rk, Properties: props}
}

func prop(name string, v odata.Value) odata.Property { return odata.Property{Name: name, Value: v} }

func mustWrite(t *testing.T, db *DB, table string, kind backend.OpKind, e *odata.Entity) *odata.Entity {
	t.Helper()
	out, err := db.Write(ctx, table, backend.Operation{Kind: kind, Entity: e})
	if err != nil {
		t.Fatalf("%s (%s,%s): %v", kind, e.PartitionKey, e.RowKey, err)
	}
	return out
}

// wantCode fails unless err is an *odata.Error with the code and status.
func wantCode(t *testing.T, err error, code odata.Code, status int) *odata.Error {
	t.Helper()
	var e *odata.Error
	if !errors.As(err, &e) {
		t.Fatalf("got %v (%T), want %s", err, err, code)
	}
	if damaged := errors.Is(err, ErrDamaged); damaged != (code == odata.CodeDatabaseDamaged) {
		t.Fatalf("got %v: marked as damage %v, with code %s", err, damaged, e.Code)
	}
	if e.Code != code || e.Status() != status {
		t.Fatalf("got %s %d (%s), want %s %d", e.Code, e.Status(), e.Message, code, status)
	}
	return e
}

// dump returns every entity of the table, fully, in order.
func dump(t *testing.T, db *DB, table string) []*odata.Entity {
	t.Helper()
	var all []*odata.Entity
	if _, err := db.Query(ctx, table, backend.QueryRequest{}, func(e *odata.Entity) error {
		all = append(all, e)
		return nil
	}); err != nil {
		t.Fatal(err)
	}
	return all
}

func keysOf(es []*odata.Entity) []string {
	var ks []string
	for _, e := range es {
		ks = append(ks, e.PartitionKey+"/"+e.RowKey)
	}
	return ks
}

// inlineValue is a stored value of the current format that names its
// properties itself (shape 0), for tests that write a file under the
// engine.
func inlineValue(ticks int64, props []odata.Property) []byte {
	v, err := values.AppendValue2(nil, ticks, 0, props)
	if err != nil {
		panic(err)
	}
	return v
}

// tableBucketName is the name of the bucket of table name's entities.
func tableBucketName(name string) []byte { return values.TableBucket(name) }
