package store

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/tstable/tstable/backend"
	"github.com/tstable/tstable/odata"
	bolt "go.etcd.io/bbolt"
)

// Compacting gives back the space of a deleted table and keeps every
// other entity as it was.
func TestCompact(t *testing.T) {
	ctx := context.Background()
	path := dbPath(t, "c.db")
	db, err := Open(path, nil)
	if err != nil {
		t.Fatal(err)
	}
	for _, name := range []string{"Keep", "Drop"} {
		if err := db.CreateTable(ctx, name); err != nil {
			t.Fatal(err)
		}
		n := 0
		_, err := db.Load(ctx, name, backend.OpInsertOrReplace, func() (*odata.Entity, error) {
			if n == 20000 {
				return nil, io.EOF
			}
			n++
			return &odata.Entity{PartitionKey: "p", RowKey: fmt.Sprintf("%06d", n), Properties: []odata.Property{{Name: "V", Value: odata.String("some text to take room")}}}, nil
		}, backend.LoadOptions{})
		if err != nil {
			t.Fatal(err)
		}
	}
	if err := db.DeleteTable(ctx, "Drop"); err != nil {
		t.Fatal(err)
	}
	text := func(ents []*odata.Entity) string {
		var b []byte
		for _, e := range ents {
			b = append(odata.AppendEntityJSON(b, e), '\n')
		}
		return string(b)
	}
	before := text(dump(t, db, "Keep"))
	db.Close()

	res, err := Compact(path, nil)
	if err != nil {
		t.Fatal(err)
	}
	if res.After >= res.Before {
		t.Errorf("compacted %d bytes to %d; the deleted table's space was not given back", res.Before, res.After)
	}
	db, err = Open(path, &Options{ReadOnly: true})
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	if after := text(dump(t, db, "Keep")); after != before || len(after) == 0 {
		t.Error("the kept table differs after compaction")
	}
	if names, _ := db.ListTables(ctx); len(names) != 1 || names[0] != "Keep" {
		t.Errorf("tables after compaction: %v", names)
	}
}

// A damaged file is not compacted: the copy would keep the damage, and
// the original, which recover can still read, would be gone.
func TestCompactRefusesADamagedFile(t *testing.T) {
	path := fixture(t)
	raw := openRaw(t, path)
	e := fixtureEntity("Alpha", 42)
	leaf, keys := raw.leafOf("Alpha", e.PartitionKey, e.RowKey)
	smash(t, path, leaf, 5)
	before := readAll(t, path)
	_, err := Compact(path, nil)
	firstPK, _, _ := strings.Cut(keys[0], "/") // the damage is named from the leaf's first key
	wantDamaged(t, err, fmt.Sprintf("table Alpha, keys from (%q", firstPK), fmt.Sprintf("page %d", leaf), "tstable recover")
	if !bytes.Equal(before, readAll(t, path)) {
		t.Fatal("the damaged file changed")
	}
	if _, err := os.Stat(filepath.Join(filepath.Dir(path), ".fixture.db.compact")); err == nil {
		t.Fatal("the copy was left behind")
	}
}

// An interrupted compaction leaves the database as it was and no copy
// beside it, whether the interrupt comes before the copy or during it.
func TestCompactStopsWhenCancelled(t *testing.T) {
	path := fixture(t)
	before := readAll(t, path)
	cctx, cancel := context.WithCancel(ctx)
	cancel()
	if _, err := CompactContext(cctx, path, nil); !errors.Is(err, context.Canceled) {
		t.Fatalf("compact with the context cancelled: %v", err)
	}
	if !bytes.Equal(before, readAll(t, path)) {
		t.Error("the database changed")
	}
	if _, err := os.Stat(compactCopy(path)); err == nil {
		t.Error("the copy was left behind")
	}

	// During the copy: the context ends after its first check.
	db, _ := benchTable(t, 5_000)
	dst, err := bolt.Open(filepath.Join(t.TempDir(), "copy.db"), 0o600, nil)
	if err != nil {
		t.Fatal(err)
	}
	defer dst.Close()
	if err := compactInto(&endsAfter{Context: ctx, checks: 1}, dst, db.bolt, compactTxBytes); !errors.Is(err, context.Canceled) {
		t.Fatalf("the copy went on after the interrupt: %v", err)
	}
}

// endsAfter is a context that ends after checks calls of Err.
type endsAfter struct {
	context.Context
	checks int
}

func (c *endsAfter) Err() error {
	if c.checks--; c.checks < 0 {
		return context.Canceled
	}
	return nil
}

// The copy a compaction killed before it ended leaves beside the database
// is removed when the database is next opened for writing (as a killed
// import's temporary file is), not only by the next compaction; opening
// it for reading leaves it.
func TestAKilledCompactionsCopyIsRemovedAtTheNextWriteOpen(t *testing.T) {
	path := newFile(t)
	left := filepath.Join(filepath.Dir(path), "."+filepath.Base(path)+".compact")
	if err := os.WriteFile(left, bytes.Repeat([]byte{1}, 1<<16), 0o644); err != nil {
		t.Fatal(err)
	}
	ro, err := Open(path, &Options{ReadOnly: true})
	if err != nil {
		t.Fatal(err)
	}
	ro.Close()
	if _, err := os.Stat(left); err != nil {
		t.Fatalf("opening for reading removed the copy: %v", err)
	}
	db, err := Open(path, nil)
	if err != nil {
		t.Fatal(err)
	}
	db.Close()
	if _, err := os.Stat(left); !os.IsNotExist(err) {
		t.Fatalf("the killed compaction's copy is still there after an open for writing: %v", err)
	}
}
