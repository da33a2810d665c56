package boltfile

import (
	"bytes"
	"fmt"
	"math/rand"
	"testing"

	bolt "go.etcd.io/bbolt"
)

// The leaves read with pread give what the engine's cursor gives: the same
// keys and values in the same order, at every First, Seek and Next.
func TestLeafCursorEqualsEngineCursor(t *testing.T) {
	path := buildFile(t)
	rng := rand.New(rand.NewSource(1))
	inView(t, path, func(tx *bolt.Tx, ck *Checker) {
		for _, name := range []string{"big", "seq", "one"} {
			b := tx.Bucket([]byte(name))
			root := uint64(b.RootPage())
			bi, err := ck.branchIn(root)
			if err != nil {
				t.Fatal(err)
			}
			switch {
			case name == "big" && (bi.leaf || bi.leaves):
				t.Fatal("big's tree is not three deep")
			case name == "one" && !bi.leaf:
				t.Fatal("one is not one leaf")
			}
			if name == "seq" {
				c := NewLeafCursor(ck, root, nil, nil)
				if k, _ := c.First(); k == nil || c.bufN < 8 {
					t.Fatalf("seq's first read took %d pages", c.bufN)
				}
			}
			lc, ec := NewLeafCursor(ck, root, nil, nil), b.Cursor()
			for i := 0; i < 300; i++ {
				key := []byte(fmt.Sprintf("k%06d", rng.Intn(21_000)))
				if i%3 == 0 {
					key = key[:1+rng.Intn(len(key))]
				}
				k1, v1 := ec.Seek(key)
				k2, v2 := lc.Seek(key)
				if i%10 == 0 {
					k1, v1 = ec.First()
					k2, v2 = lc.First()
				}
				for j := 0; j < 30; j++ {
					if !bytes.Equal(k1, k2) || !bytes.Equal(v1, v2) {
						t.Fatalf("%s seek %q step %d: %q, want %q", name, key, j, k2, k1)
					}
					if k1 == nil {
						break
					}
					k1, v1 = ec.Next()
					k2, v2 = lc.Next()
				}
			}
			if lc.Err() != nil {
				t.Fatal(lc.Err())
			}
		}
		if tx.Bucket([]byte("tiny")).RootPage() != 0 {
			t.Fatal("tiny is not inline")
		}
	})
}

// A damaged leaf ends the walk with a *PageError (damage), never a panic.
func TestLeafCursorStopsAtADamagedLeaf(t *testing.T) {
	path := buildFile(t)
	var leaf uint64
	inView(t, path, func(tx *bolt.Tx, ck *Checker) {
		leaf = leafOf(t, ck, uint64(tx.Bucket([]byte("seq")).RootPage()), testKey(4000))
	})
	overwrite(t, path, int64(leaf)*testPageSize, bytes.Repeat([]byte{0xA5}, 64))
	inView(t, path, func(tx *bolt.Tx, ck *Checker) {
		c := NewLeafCursor(ck, uint64(tx.Bucket([]byte("seq")).RootPage()), nil, nil)
		n := 0
		for k, _ := c.First(); k != nil; k, _ = c.Next() {
			n++
		}
		var pe *PageError
		if !errorsAs(c.Err(), &pe) || pe.ID != leaf || n == 0 || n >= 8000 {
			t.Fatalf("after %d keys: %v", n, c.Err())
		}
	})
}
