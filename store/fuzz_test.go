package store

import (
	"context"
	"fmt"
	"hash/fnv"
	"io"
	"os"
	"path/filepath"
	"testing"
	"time"

	"github.com/tstable/tstable/backend"
	"github.com/tstable/tstable/store/internal/boltfile"
	"github.com/tstable/tstable/store/internal/values"

	bolt "go.etcd.io/bbolt"

	"github.com/tstable/tstable/odata"
)

// fuzzSeed builds a small database with pages of 1 KiB (so that a few
// hundred entities make a tree of branch pages): table Small inline,
// table Big with 300 entities, some deleted, so the file has free pages.
func fuzzSeed(f *testing.F) []byte {
	path := dbPath(f, "seed.db")
	b, err := bolt.Open(path, 0o644, &bolt.Options{PageSize: 1024})
	if err != nil {
		f.Fatal(err)
	}
	b.Close()
	db, err := Open(path, nil)
	if err != nil {
		f.Fatal(err)
	}
	for _, t := range []string{"Small", "Big"} {
		if err := db.CreateTable(ctx, t); err != nil {
			f.Fatal(err)
		}
	}
	n := 0
	if _, err := db.Load(ctx, "Big", backend.OpInsert, func() (*odata.Entity, error) {
		if n == 300 {
			return nil, io.EOF
		}
		n++
		return ent(fmt.Sprintf("p%d", n%3), fmt.Sprintf("%04d", n), prop("N", odata.Int32(int32(n))), prop("S", odata.String("some text"))), nil
	}, backend.LoadOptions{}); err != nil {
		f.Fatal(err)
	}
	for i := 0; i < 5; i++ {
		mustWriteF(f, db, "Small", ent("s", fmt.Sprint(i), prop("B", odata.Bool(true))))
		if _, err := db.Write(ctx, "Big", backend.Operation{Kind: backend.OpDelete, Entity: ent(fmt.Sprintf("p%d", (i*7+7)%3), fmt.Sprintf("%04d", i*7+7))}); err != nil {
			f.Fatal(err)
		}
	}
	db.Close()
	return readSeed(f, path)
}

// withLeftStaging is the database seed with what a load killed while it
// staged leaves: a staging bucket of a process that is gone, holding its
// marker and 200 rows staged for a table Staged.
func withLeftStaging(f *testing.F, seed []byte) []byte {
	path := filepath.Join(f.TempDir(), "staged.db")
	if err := os.WriteFile(path, seed, 0o644); err != nil {
		f.Fatal(err)
	}
	b, err := bolt.Open(path, 0o644, nil)
	if err != nil {
		f.Fatal(err)
	}
	if err := b.Update(func(tx *bolt.Tx) error {
		p, err := tx.CreateBucket([]byte(values.StagingPrefix + "999999999:00"))
		if err != nil {
			return err
		}
		child := tableBucketName("Staged")
		if err := p.Put(values.StagingMarker, child); err != nil {
			return err
		}
		c, err := p.CreateBucket(child)
		if err != nil {
			return err
		}
		for i := range 200 {
			e := ent("p", fmt.Sprintf("%04d", i), prop("S", odata.String("staged text")))
			if err := c.Put(values.EntityKey(e.PartitionKey, e.RowKey), values.EncodeEntity(nil, 1, e.Properties)); err != nil {
				return err
			}
		}
		return nil
	}); err != nil {
		f.Fatal(err)
	}
	b.Close()
	return readSeed(f, path)
}

// readSeed returns the bytes of a seed file.
func readSeed(f *testing.F, path string) []byte {
	data, err := os.ReadFile(path)
	if err != nil {
		f.Fatal(err)
	}
	return data
}

func mustWriteF(f *testing.F, db *DB, table string, e *odata.Entity) {
	if _, err := db.Write(ctx, table, backend.Operation{Kind: backend.OpInsert, Entity: e}); err != nil {
		f.Fatal(err)
	}
}

// fixSums recomputes the checksum of both copies of the meta (at page 0
// and at the page size the first names, else 1 KiB), so that mutations of
// the meta's fields get past it.
func fixSums(data []byte) {
	ps := 1024
	if len(data) >= boltfile.PageHeaderSize+boltfile.MetaSize {
		if m, _ := boltfile.ParseMeta(data[boltfile.PageHeaderSize:]); m.PageSize >= 1024 && m.PageSize <= 1<<16 {
			ps = int(m.PageSize)
		}
	}
	for _, off := range []int{boltfile.PageHeaderSize, ps + boltfile.PageHeaderSize} {
		if off+boltfile.MetaSize <= len(data) {
			h := fnv.New64a()
			h.Write(data[off : off+boltfile.MetaSumOffset])
			boltfile.Order.PutUint64(data[off+boltfile.MetaSumOffset:], h.Sum64())
		}
	}
}

// FuzzOpenDamaged writes database files made by mutating a small valid
// one (with fix, the meta's checksums are made right again, so that the
// fuzzer reaches past them) and opens, lists, queries, writes, checks and
// recovers them. Only errors may come out: no panic, no fault, no hang.
// And what Recover writes passes Check.
func FuzzOpenDamaged(f *testing.F) {
	seed := fuzzSeed(f)
	f.Add(seed, false)
	staged := withLeftStaging(f, seed)
	f.Add(staged, false)
	for _, page := range []int{2, 4, 7} {
		d := append([]byte(nil), staged...)
		for i := page * 1024; i < (page+1)*1024 && i < len(d); i++ {
			d[i] = byte(i * 5)
		}
		f.Add(d, false)
	}
	f.Add(seed[:len(seed)/2], false)
	f.Add(seed[:3000], false)
	f.Add([]byte{}, false)
	for _, page := range []int{2, 3, 5, 9} {
		d := append([]byte(nil), seed...)
		for i := page * 1024; i < (page+1)*1024 && i < len(d); i++ {
			d[i] = byte(i * 7)
		}
		f.Add(d, false)
	}
	d := append([]byte(nil), seed...)
	boltfile.Order.PutUint64(d[boltfile.PageHeaderSize+40:], 1<<40) // a high-water mark past the file
	f.Add(d, true)
	f.Fuzz(func(t *testing.T, data []byte, fix bool) {
		if len(data) > 1<<20 {
			return
		}
		data = append([]byte(nil), data...)
		if fix {
			fixSums(data)
		}
		dir := t.TempDir()
		path := filepath.Join(dir, "f.db")
		damaging(path)
		checkAtEnd(t, filepath.Join(dir, "recovered.db"))
		if err := os.WriteFile(path, data, 0o644); err != nil {
			t.Fatal(err)
		}
		done := make(chan struct{})
		go func() {
			defer close(done)
			exercise(t, path, filepath.Join(dir, "recovered.db"))
		}()
		select {
		case <-done:
		case <-time.After(20 * time.Second):
			t.Fatal("the damaged file hung a call")
		}
	})
}

// exercise uses a possibly damaged file every way a command does.
func exercise(t *testing.T, path, recovered string) {
	ctx := context.Background()
	count := func(*odata.Entity) error { return nil }
	if db, err := Open(path, &Options{ReadOnly: true, Wait: -1}); err == nil {
		names, _ := db.ListTables(ctx)
		for i, n := range names {
			if i == 4 {
				break
			}
			db.Query(ctx, n, backend.QueryRequest{}, count)
			db.Query(ctx, n, backend.QueryRequest{PageSize: 7, Start: &odata.Key{PartitionKey: "p1", RowKey: "0100"}}, count)
			db.Get(ctx, n, "p1", "0001")
		}
		db.Close()
	} else if odata.CodeOf(err) == "" {
		t.Logf("open: %v", err)
	}
	if db, err := Open(path, &Options{Wait: -1}); err == nil {
		db.CreateTable(ctx, "Fz")
		db.Write(ctx, "Big", backend.Operation{Kind: backend.OpInsertOrMerge, Entity: ent("p1", "0001", prop("X", odata.Int32(1)))})
		db.Batch(ctx, "Small", []backend.Operation{{Kind: backend.OpInsertOrReplace, Entity: ent("s", "9")}, {Kind: backend.OpDelete, Entity: ent("s", "1")}})
		db.Load(ctx, "Big", backend.OpInsertOrReplace, source([]*odata.Entity{ent("p2", "0002"), ent("p9", "9")}), backend.LoadOptions{})
		db.DeleteTable(ctx, "Small")
		db.Close()
	}
	if _, err := Check(ctx, path, &ScanOptions{Wait: -1}); err != nil {
		t.Fatalf("check: %v", err)
	}
	if _, err := Recover(ctx, path, recovered, &ScanOptions{Wait: -1}); err == nil {
		rep, err := Check(ctx, recovered, nil)
		if err != nil || !rep.OK() {
			t.Fatalf("the recovered file: %v %v", err, rep.Problems)
		}
	} else if !odata.IsCode(err, odata.CodeDatabaseDamaged) {
		t.Fatalf("recover: %v", err)
	}
}
