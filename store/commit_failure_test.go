package store

import (
	"errors"
	"fmt"
	"io"
	"path/filepath"
	"strings"
	"sync/atomic"
	"syscall"
	"testing"

	"github.com/tstable/tstable/backend"
	"github.com/tstable/tstable/odata"
	"github.com/tstable/tstable/store/internal/values"
)

// failing opens a fixture whose commits fail with EIO while armed.
func failing(t *testing.T) (*DB, string, *atomic.Bool) {
	t.Helper()
	path := fixture(t)
	armed := &atomic.Bool{}
	db, err := Open(path, &Options{failCommit: func() error {
		if armed.Load() {
			return syscall.EIO
		}
		return nil
	}})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { db.Close() })
	return db, path, armed
}

// wantCommitError fails unless err says that a commit to path failed.
func wantCommitError(t *testing.T, err error, path string) *backend.CommitError {
	t.Helper()
	var ce *backend.CommitError
	if !errors.As(err, &ce) || !errors.Is(err, syscall.EIO) {
		t.Fatalf("got %v (%T), want a failed commit", err, err)
	}
	want := "saving to " + path + " failed: input/output error; the transaction was rolled back and nothing of it is stored"
	if err.Error() != want {
		t.Fatalf("message %q, want %q", err.Error(), want)
	}
	return ce
}

func TestEveryWriteReportsAFailedCommit(t *testing.T) {
	db, path, armed := failing(t)
	before := contents(t, copyFile(t, path, "before.db"))
	old := fixtureEntity("Alpha", 3)
	e := ent(old.PartitionKey, "new", prop("N", odata.Int32(1)))
	writes := map[string]func() error{
		"CreateTable": func() error { return db.CreateTable(ctx, "Delta") },
		"DeleteTable": func() error { return db.DeleteTable(ctx, "Beta") },
		"Write": func() error {
			_, err := db.Write(ctx, "Alpha", backend.Operation{Kind: backend.OpInsert, Entity: e})
			return err
		},
		"Delete": func() error {
			_, err := db.Write(ctx, "Alpha", backend.Operation{Kind: backend.OpDelete, Entity: old})
			return err
		},
		"Batch": func() error {
			_, err := db.Batch(ctx, "Alpha", []backend.Operation{{Kind: backend.OpInsert, Entity: e}, {Kind: backend.OpDelete, Entity: old}})
			return err
		},
	}
	for _, kind := range []backend.OpKind{backend.OpInsert, backend.OpReplace, backend.OpMerge, backend.OpInsertOrReplace, backend.OpInsertOrMerge} {
		kind := kind
		writes["Load "+kind.String()] = func() error {
			x := old.Clone()
			x.Set("Extra", odata.Int32(7))
			if kind == backend.OpInsert {
				x = e
			}
			res, err := db.Load(ctx, "Alpha", kind, source([]*odata.Entity{x}), backend.LoadOptions{})
			if res == nil || res.Written != 0 {
				t.Errorf("load %s counted %+v", kind, res)
			}
			var ce *backend.CommitError
			if errors.As(err, &ce) && (ce.FromKey == nil || ce.FromKey.PartitionKey != x.PartitionKey || ce.FromKey.RowKey != x.RowKey) {
				t.Errorf("load %s: FromKey = %v, want (%s, %s)", kind, ce.FromKey, x.PartitionKey, x.RowKey)
			}
			return err
		}
	}
	for name, write := range writes {
		armed.Store(true)
		err := write()
		armed.Store(false)
		t.Run(name, func(t *testing.T) { wantCommitError(t, err, path) })
	}
	db.Close()
	after := contents(t, path)
	if fmt.Sprint(sortedKeys(after)) != fmt.Sprint(sortedKeys(before)) {
		t.Fatalf("tables %v, were %v", sortedKeys(after), sortedKeys(before))
	}
	for table, es := range before {
		if len(after[table]) != len(es) {
			t.Errorf("%s holds %d entities, held %d", table, len(after[table]), len(es))
		}
		for k, e := range es {
			if a := after[table][k]; a == nil || !a.Timestamp.Equal(e.Timestamp) {
				t.Errorf("%s %s changed", table, k)
			}
		}
	}
}

func TestLoadCountsOnlyCommittedChunks(t *testing.T) {
	db, path, arm := failingAt(t, Options{loadChunk: 100, noStaging: true}, 4) // the table's commit, then two chunks
	arm()
	newTable(t, db, "Tbl")
	var es []*odata.Entity
	for i := 0; i < 1000; i++ {
		es = append(es, ent("p", fmt.Sprintf("%04d", i)))
	}
	var progress []int64
	res, err := db.Load(ctx, "Tbl", backend.OpInsert, source(es), backend.LoadOptions{Progress: func(n int64) { progress = append(progress, n) }})
	ce := wantCommitError(t, err, path)
	if res.Written != 200 || ce.FromKey == nil || *ce.FromKey != (odata.Key{PartitionKey: "p", RowKey: "0200"}) || fmt.Sprint(progress) != "[100 200]" {
		t.Fatalf("written %d, from %v, progress %v; want 200, (p, 0200), [100 200]", res.Written, ce.FromKey, progress)
	}
	if got := len(dump(t, db, "Tbl")); int64(got) != res.Written {
		t.Fatalf("the table holds %d, the load said %d", got, res.Written)
	}
}

// TestFullDiskLoadCountsWhatIsStored loads until a 3 MiB file system is
// full: the count Load reports is the count the file holds after reopening.
// The entities fit in memory (no temporary file), in random key order.
func TestFullDiskLoadCountsWhatIsStored(t *testing.T) {
	dir := smallDisk(t)
	path := filepath.Join(dir, "full.db")
	checkAtEnd(t, path) // before the file system goes
	db, err := Open(path, &Options{loadChunk: 500})
	if err != nil {
		t.Fatal(err)
	}
	newTable(t, db, "Full")
	i := 0
	res, err := db.Load(ctx, "Full", backend.OpInsert, func() (*odata.Entity, error) {
		if i == 20000 {
			return nil, io.EOF
		}
		i++
		return ent(fmt.Sprintf("p%03d", i%100), fmt.Sprintf("%08d", i), prop("Text", odata.String(strings.Repeat("x", 300)))), nil
	}, backend.LoadOptions{})
	var ce *backend.CommitError
	if !errors.As(err, &ce) || !errors.Is(err, syscall.ENOSPC) {
		t.Fatalf("load: %+v %v; want a commit that fails for want of space", res, err)
	}
	if !strings.Contains(err.Error(), "saving to "+path+" failed: the disk is full (no space left on device)") || odata.CodeOf(err) != odata.CodeInternalError {
		t.Fatalf("message: %v (code %q); want InternalError saying the disk is full", err, odata.CodeOf(err))
	}
	if res.Written == 0 || res.Written%500 != 0 || ce.FromKey == nil {
		t.Fatalf("written %d, from %v: want whole chunks before the failed one", res.Written, ce.FromKey)
	}
	db.Close()
	ro, err := Open(path, &Options{ReadOnly: true})
	if err != nil {
		t.Fatal(err)
	}
	defer ro.Close()
	got := dump(t, ro, "Full")
	if int64(len(got)) != res.Written {
		t.Fatalf("the file holds %d entities; the load said it wrote %d", len(got), res.Written)
	}
	// The load writes in key order: the file holds exactly the source's
	// entities before FromKey.
	from := string(values.EntityKey(ce.FromKey.PartitionKey, ce.FromKey.RowKey))
	before := 0
	for i := 1; i <= 20000; i++ {
		if string(values.EntityKey(fmt.Sprintf("p%03d", i%100), fmt.Sprintf("%08d", i))) < from {
			before++
		}
	}
	if int64(before) != res.Written || string(values.EntityKey(got[len(got)-1].PartitionKey, got[len(got)-1].RowKey)) >= from {
		t.Fatalf("the file holds %d entities, the last (%s, %s); %d keys of the source come before %v", len(got), got[len(got)-1].PartitionKey, got[len(got)-1].RowKey, before, ce.FromKey)
	}
	t.Logf("%d entities stored before the disk was full", res.Written)
}
