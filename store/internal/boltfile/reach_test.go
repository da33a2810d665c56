package boltfile

import (
	"context"
	"os"
	"testing"

	bolt "go.etcd.io/bbolt"
)

// Reach finds in use exactly the pages the walker, which reads every page,
// reaches from the root (the headers and the free-page list aside), though
// it reads the leaves of no tree that holds no buckets; and it finds the
// file sound.
func TestReachFindsThePagesInUse(t *testing.T) {
	path := buildFile(t)
	f, err := os.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	st, _ := f.Stat()
	w := NewWalker(context.Background(), f, st.Size(), nil, func(p Problem) { t.Errorf("the walker: %+v", p) })
	var walk func(root uint64, inline []byte, at uint64)
	walk = func(root uint64, inline []byte, at uint64) {
		w.Tree(root, inline, at, nil, nil, func(page uint64, e Elem) bool {
			if e.Bucket {
				r, _, in, err := InlinePage(e.Value)
				if err != nil {
					t.Fatal(err)
				}
				walk(r, in, page)
			}
			return true
		}, func(page uint64, lo, hi []byte, why string) { t.Errorf("page %d: %s", page, why) })
	}
	m := w.H.Meta()
	walk(m.Root, nil, 0)
	read := &countingReader{f: f}
	r := w.H.Reader(read)
	rc := r.Reach(m.Root, func(path [][]byte) bool { return len(path) == 0 }, 0)
	if len(rc.Bad) > 0 {
		t.Fatalf("damage in a sound file: %v", rc.Bad)
	}
	if uint64(read.n) > m.Pgid/20 {
		t.Fatalf("Reach read %d pages of %d", read.n, m.Pgid)
	}
	listPages := map[uint64]bool{0: true, 1: true}
	h, _ := r.Head(m.Freelist)
	for i := range uint64(h.Overflow) + 1 {
		listPages[m.Freelist+i] = true
	}
	for id := uint64(2); id < m.Pgid; id++ {
		used, err := rc.InUse(id)
		if err != nil {
			t.Fatal(err)
		}
		if want := w.Used(id) && !listPages[id]; used != want {
			t.Fatalf("page %d: in use %v, the walker says %v", id, used, want)
		}
	}
}

// Reach finds a page reached from two places, a branch page that leads
// back up, and a page whose number is not its own.
func TestReachFindsDamage(t *testing.T) {
	path := buildFile(t)
	var root, first, second uint64
	inView(t, path, func(tx *bolt.Tx, ck *Checker) {
		root = uint64(tx.Bucket([]byte("big")).RootPage())
		b, err := ck.branchIn(root)
		if err != nil {
			t.Fatal(err)
		}
		first, second = b.kids[0], b.kids[1]
	})
	// The root's second entry leads where its first does.
	overwrite(t, path, int64(root)*testPageSize+PageHeaderSize+ElemSize+8, Order.AppendUint64(nil, first))
	inView(t, path, func(tx *bolt.Tx, ck *Checker) {
		ck.snap.Root = uint64(tx.Cursor().Bucket().RootPage())
		rc := ck.Reach(func(path [][]byte) bool { return len(path) == 0 }, 0)
		if rc.Bad[first] != "is reached from two places in its tree" || rc.Reached(second) {
			t.Fatalf("bad %v; page %d reached %v", rc.Bad, second, rc.Reached(second))
		}
	})
	// And back to itself.
	overwrite(t, path, int64(root)*testPageSize+PageHeaderSize+ElemSize+8, Order.AppendUint64(nil, root))
	inView(t, path, func(tx *bolt.Tx, ck *Checker) {
		ck.snap.Root = uint64(tx.Cursor().Bucket().RootPage())
		rc := ck.Reach(func(path [][]byte) bool { return len(path) == 0 }, 0)
		if rc.Bad[root] == "" {
			t.Fatalf("bad %v", rc.Bad)
		}
	})
	overwrite(t, path, int64(second)*testPageSize, Order.AppendUint64(nil, 7))
	overwrite(t, path, int64(root)*testPageSize+PageHeaderSize+ElemSize+8, Order.AppendUint64(nil, second))
	inView(t, path, func(tx *bolt.Tx, ck *Checker) {
		ck.snap.Root = uint64(tx.Cursor().Bucket().RootPage())
		rc := ck.Reach(func(path [][]byte) bool { return len(path) == 0 }, second)
		if rc.Bad[second] != "holds something else (it does not carry its own page number)" {
			t.Fatalf("bad %v", rc.Bad)
		}
	})
}

type countingReader struct {
	f *os.File
	n int
}

func (c *countingReader) ReadAt(b []byte, off int64) (int, error) { c.n++; return c.f.ReadAt(b, off) }
