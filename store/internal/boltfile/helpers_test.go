package boltfile

import (
	"fmt"
	"math/rand"
	"os"
	"path/filepath"
	"strings"
	"testing"

	bolt "go.etcd.io/bbolt"
)

// The tests build their files with the engine itself, in pages of 4 KiB:
//
//	big  20,000 keys put in random order, 700 a transaction, a 30 KiB
//	     value on every 40th (leaves with overflow pages): a tree three
//	     pages deep
//	seq  8,000 keys put in key order in one transaction: leaves in runs
//	     of page numbers
//	one  8 keys of 300 bytes: one leaf page of its own
//	tiny 2 keys: inline in the list of buckets
const testPageSize = 4096

func testKey(i int) []byte { return []byte(fmt.Sprintf("k%06d", i)) }

func testValue(i int) []byte {
	if i%40 == 0 {
		return []byte(strings.Repeat("x", 30<<10))
	}
	return []byte(strings.Repeat(string(rune('a'+i%26)), 100+i%300))
}

// buildFile writes the file the tests read and returns its path.
func buildFile(t *testing.T) string {
	t.Helper()
	path := filepath.Join(t.TempDir(), "test.db")
	db, err := bolt.Open(path, 0o600, &bolt.Options{PageSize: testPageSize})
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	perm := rand.New(rand.NewSource(7)).Perm(20_000)
	for from := 0; from < len(perm); from += 700 {
		if err := db.Update(func(tx *bolt.Tx) error {
			b, err := tx.CreateBucketIfNotExists([]byte("big"))
			if err != nil {
				return err
			}
			for _, i := range perm[from:min(from+700, len(perm))] {
				if err := b.Put(testKey(i), testValue(i)); err != nil {
					return err
				}
			}
			return nil
		}); err != nil {
			t.Fatal(err)
		}
	}
	if err := db.Update(func(tx *bolt.Tx) error {
		for name, n := range map[string]int{"seq": 8000, "one": 8, "tiny": 2} {
			b, err := tx.CreateBucket([]byte(name))
			if err != nil {
				return err
			}
			for i := range n {
				v := testValue(i)
				if name != "seq" {
					v = []byte(strings.Repeat("o", 300*(n/8)+1))
				}
				if err := b.Put(testKey(i), v); err != nil {
					return err
				}
			}
		}
		return nil
	}); err != nil {
		t.Fatal(err)
	}
	return path
}

// inView opens the file at path with the engine, read-only, and runs fn
// in a read transaction, with a checker of its snapshot.
func inView(t *testing.T, path string, fn func(tx *bolt.Tx, c *Checker)) {
	t.Helper()
	f, err := os.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	db, err := bolt.Open(path, 0o600, &bolt.Options{ReadOnly: true})
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	g := NewGuard(f)
	if err := db.View(func(tx *bolt.Tx) error {
		fn(tx, g.Checker(snapshotOf(tx, db), false))
		return nil
	}); err != nil {
		t.Fatal(err)
	}
}

// snapshotOf is tx's snapshot.
func snapshotOf(tx *bolt.Tx, db *bolt.DB) Snapshot {
	return Snapshot{TxID: uint64(tx.ID()), Writable: tx.Writable(), Size: tx.Size(), PageSize: int64(db.Info().PageSize), Root: uint64(tx.Cursor().Bucket().RootPage())}
}
