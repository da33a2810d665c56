package boltfile

import (
	"context"
	"os"
	"path/filepath"
	"testing"

	bolt "go.etcd.io/bbolt"
)

// BucketSequence reads the sequence the engine keeps in a bucket's value
// (Bucket.SetSequence), for a bucket inline in its parent's page and for
// one with pages of its own.
func TestBucketSequenceIsTheEngines(t *testing.T) {
	path := filepath.Join(t.TempDir(), "seq.db")
	db, err := bolt.Open(path, 0o600, &bolt.Options{PageSize: testPageSize})
	if err != nil {
		t.Fatal(err)
	}
	want := map[string]uint64{"small": 7, "large": 1<<63 + 5, "none": 0}
	if err := db.Update(func(tx *bolt.Tx) error {
		for name, seq := range want {
			b, err := tx.CreateBucket([]byte(name))
			if err != nil {
				return err
			}
			if err := b.SetSequence(seq); err != nil {
				return err
			}
			for i := range map[string]int{"small": 1, "large": 5000}[name] {
				if err := b.Put(testKey(i), testValue(i)); err != nil {
					return err
				}
			}
		}
		return nil
	}); err != nil {
		t.Fatal(err)
	}
	db.Close()
	f, err := os.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	st, _ := f.Stat()
	w := NewWalker(context.Background(), f, st.Size(), nil, func(p Problem) { t.Errorf("%+v", p) })
	got := map[string]uint64{}
	w.Tree(w.H.Meta().Root, nil, 0, nil, nil, func(_ uint64, e Elem) bool {
		got[string(e.Key)] = BucketSequence(e.Value)
		return true
	}, func(page uint64, lo, hi []byte, why string) { t.Errorf("page %d: %s", page, why) })
	for name, seq := range want {
		if got[name] != seq {
			t.Errorf("%s: sequence %d, want %d", name, got[name], seq)
		}
	}
	if BucketSequence([]byte{1, 2}) != 0 {
		t.Error("a value too short for a bucket has a sequence")
	}
}
