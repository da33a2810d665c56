package store

import (
	"encoding/binary"
	"strings"
	"testing"

	"github.com/tstable/tstable/store/internal/values"
	bolt "go.etcd.io/bbolt"
)

// setFormat rewrites (or, with v 0, removes) a closed file's format record.
func setFormat(t *testing.T, path string, v uint64) {
	t.Helper()
	if v > values.FormatVersion {
		damaging(path) // Check reports a file this tstable cannot read
	}
	b, err := bolt.Open(path, 0o644, nil)
	if err != nil {
		t.Fatal(err)
	}
	defer b.Close()
	if err := b.Update(func(tx *bolt.Tx) error {
		m := tx.Bucket(values.MetaBucket)
		if v == 0 {
			return m.Delete(values.FormatKey)
		}
		var buf [8]byte
		binary.BigEndian.PutUint64(buf[:], v)
		return m.Put(values.FormatKey, buf[:])
	}); err != nil {
		t.Fatal(err)
	}
}

func readFormat(t *testing.T, path string) []byte {
	t.Helper()
	b, err := bolt.Open(path, 0o644, &bolt.Options{ReadOnly: true})
	if err != nil {
		t.Fatal(err)
	}
	defer b.Close()
	var v []byte
	b.View(func(tx *bolt.Tx) error {
		v = append([]byte(nil), tx.Bucket(values.MetaBucket).Get(values.FormatKey)...)
		return nil
	})
	return v
}

func TestFileFormat(t *testing.T) {
	db, path := openTemp(t)
	newTable(t, db, "Alpha")
	db.Close()
	if v := readFormat(t, path); len(v) != 8 || binary.BigEndian.Uint64(v) != values.FormatVersion {
		t.Fatalf("a new file records format %x, want %d", v, values.FormatVersion)
	}

	// A file from before the format was recorded is format 1: it opens.
	setFormat(t, path, 0)
	for _, ro := range []bool{true, false} {
		db, err := Open(path, &Options{ReadOnly: ro})
		if err != nil {
			t.Fatalf("a file without a format record (read-only %v): %v", ro, err)
		}
		if _, err := db.ListTables(ctx); err != nil {
			t.Fatal(err)
		}
		db.Close()
	}

	// A newer format is refused, for reading and for writing, saying why.
	setFormat(t, path, values.FormatVersion+1)
	for _, ro := range []bool{true, false} {
		_, err := Open(path, &Options{ReadOnly: ro})
		if err == nil || !strings.Contains(err.Error(), "newer tstable") || !strings.Contains(err.Error(), path) {
			t.Fatalf("a newer format (read-only %v): %v", ro, err)
		}
	}
	rep, err := Check(ctx, path, nil)
	if err != nil {
		t.Fatal(err)
	}
	found := false
	for _, p := range rep.Problems {
		found = found || strings.Contains(p.What, "newer than this tstable reads")
	}
	if !found {
		t.Fatalf("check does not tell of the newer format: %v", rep.Problems)
	}
}
