package boltfile

import (
	"fmt"
	"io"
	"slices"
)

// Reach is a walk of every tree of a snapshot, from its root page down,
// as the engine reaches them: the pages in use, and what is wrong with
// the ones that cannot be what the walk reached them as. It reads every
// branch page and the header of the first child of each, but the leaves
// only of the trees whose leaves hold buckets (the caller says which), and
// the one page it is asked about: for a large table it reads about one
// page in a hundred.
type Reach struct {
	r       *Reader
	reached []uint64          // a bit for each page below the high-water mark
	over    map[uint64]uint32 // the overflow of the pages whose header the walk read
	// Bad is what is wrong with each page the walk found damaged, said of
	// the page ("is reached from two places in its tree").
	Bad map[uint64]string
}

// maxOverflow bounds how far below a page InUse looks for the page whose
// overflow it could be: an entity is at most 1 MiB, and a page at least
// 1 KiB.
const maxOverflow = 1<<20/1024 + 2

// Nested says whether the leaves of the tree of the bucket at path (the
// names of the buckets from the top level down; none for the top-level
// tree) hold buckets, which the walk then reaches too.
type Nested func(path [][]byte) bool

// Reach walks the trees of c's snapshot (see Reach), from its Root. It
// reads page target whole wherever it finds it, so that Bad says whether
// it is sound (0: none).
func (c *Checker) Reach(nested Nested, target uint64) *Reach {
	return c.r.Reach(c.snap.Root, nested, target)
}

// Reach walks the trees of the state whose top-level tree is at root, as
// Checker.Reach does, in the pages r reads.
func (r *Reader) Reach(root uint64, nested Nested, target uint64) *Reach {
	rc := &Reach{r: r, reached: make([]uint64, (r.HWM+63)/64), over: map[uint64]uint32{}, Bad: map[uint64]string{}}
	w := &reachWalk{rc: rc, nested: nested, target: target}
	w.tree(root, nil, nil, nil)
	return rc
}

// Reached reports whether the walk reached page id itself (not as an
// overflow page of another).
func (rc *Reach) Reached(id uint64) bool {
	return id < rc.r.HWM && rc.reached[id/64]&(1<<(id%64)) != 0
}

// InUse reports whether page id is in use: reached, or an overflow page
// of a page reached (for which it reads the header of the nearest page
// reached below id, when the walk did not).
func (rc *Reach) InUse(id uint64) (bool, error) {
	if rc.Reached(id) {
		return true, nil
	}
	for below := id; below > 1 && id-below < maxOverflow; {
		below--
		if !rc.Reached(below) {
			continue
		}
		o, ok := rc.over[below]
		if !ok {
			h, err := rc.r.Head(below)
			if err != nil {
				return false, err
			}
			o = h.Overflow
			rc.over[below] = o
		}
		return id <= below+uint64(o), nil
	}
	return false, nil
}

// reachWalk is one Reach.
type reachWalk struct {
	rc     *Reach
	nested Nested
	target uint64
}

func (w *reachWalk) bad(id uint64, what string) {
	if _, ok := w.rc.Bad[id]; !ok {
		w.rc.Bad[id] = what
	}
}

// reach marks page id reached, reporting false (and the damage) when it
// was reached before. A page outside the high-water mark is left
// unmarked (its damage says so).
func (w *reachWalk) reach(id uint64) bool {
	if id >= w.rc.r.HWM {
		return true
	}
	if w.rc.Reached(id) {
		w.bad(id, "is reached from two places in its tree")
		return false
	}
	w.rc.reached[id/64] |= 1 << (id % 64)
	return true
}

// tree walks the tree of the bucket at path whose root is root, or whose
// inline page is inline (root 0), below the pages above.
func (w *reachWalk) tree(root uint64, inline []byte, path [][]byte, above []uint64) {
	if root == 0 {
		if inline != nil && w.nested(path) {
			if es, err := ParseElems(ParseHead(inline), inline); err == nil {
				w.buckets(es, path, above)
			}
		}
		return
	}
	leaves := -1 // the level of the tree's leaves, once one is found
	w.page(root, path, above, 0, &leaves)
}

// page walks the subtree at page id, at level of its tree (0: the root).
// The engine's trees are balanced: once the walk has found a leaf, it
// knows the children of a page one level above the leaves to be leaves,
// by their numbers alone.
func (w *reachWalk) page(id uint64, path [][]byte, above []uint64, level int, leaves *int) {
	if len(above) >= MaxTreeDepth {
		w.bad(id, fmt.Sprintf("lies more than %d pages deep in its tree (a page leads back up)", MaxTreeDepth))
		return
	}
	h, b, err := w.rc.r.Page(id, FlagBranch, FlagLeaf)
	if err != nil {
		w.reach(id)
		w.bad(id, whatOfPage(err))
		return
	}
	if !w.reach(id) {
		return
	}
	w.rc.over[id] = h.Overflow
	if h.Flags == FlagLeaf {
		*leaves = level
		if w.nested(path) || id == w.target {
			w.leaf(h, b, path, above)
		}
		return
	}
	es, err := ParseElems(h, b)
	switch {
	case err != nil:
		w.bad(id, err.Error())
		return
	case len(es) == 0:
		w.bad(id, "is a branch page with no entries")
		return
	}
	for _, e := range es {
		if e.Child < 2 || e.Child >= w.rc.r.HWM {
			w.bad(id, fmt.Sprintf("leads to page %d, outside the %d pages the file counts", e.Child, w.rc.r.HWM))
			return
		}
		if j := slices.Index(above, e.Child); j >= 0 || e.Child == id {
			w.bad(id, fmt.Sprintf("leads back to page %d above it", e.Child))
			return
		}
	}
	above = append(above, id)
	for i, e := range es {
		if i > 0 && *leaves == level+1 && !w.nested(path) && e.Child != w.target {
			w.reach(e.Child)
			continue
		}
		w.page(e.Child, path, above, level+1, leaves)
	}
}

// leaf reads the entries of the leaf page b (whose header is h), and
// walks the buckets among them when its tree's leaves hold buckets.
func (w *reachWalk) leaf(h PageHead, b []byte, path [][]byte, above []uint64) {
	es, err := ParseElems(h, b)
	if err != nil {
		w.bad(h.ID, err.Error())
		return
	}
	if w.nested(path) {
		w.buckets(es, path, append(above, h.ID))
	}
}

// buckets walks the trees of the buckets among a leaf's entries.
func (w *reachWalk) buckets(es []Elem, path [][]byte, above []uint64) {
	for _, e := range es {
		if !e.Bucket {
			continue
		}
		root, _, inline, err := InlinePage(e.Value)
		if err != nil {
			continue // not a bucket the engine can follow either
		}
		w.tree(root, inline, append(path[:len(path):len(path)], e.Key), above)
	}
}

// whatOfPage is what a page error says of its page.
func whatOfPage(err error) string {
	if pe, ok := err.(*PageError); ok {
		return pe.What
	}
	return err.Error()
}

// Used returns a bit for each page below the high-water mark that is in
// use: reached, or an overflow page of one reached. It reads the header of
// every page reached whose overflow the walk did not read (the leaves of
// the trees that hold no buckets): as many reads as leaves.
func (rc *Reach) Used() ([]uint64, error) {
	used := make([]uint64, len(rc.reached))
	var cover uint64 // pages up to here are an overflow of the last page reached
	for id := uint64(2); id < rc.r.HWM; id++ {
		if rc.Reached(id) {
			o, ok := rc.over[id]
			if !ok {
				h, err := rc.r.Head(id)
				if err != nil {
					return nil, err
				}
				o = h.Overflow
			}
			cover = id + uint64(o)
		}
		if id <= cover && cover != 0 {
			used[id/64] |= 1 << (id % 64)
		}
	}
	return used, nil
}

// GuessPageSize finds the page size of a file whose headers cannot say
// it: the possible size at which most of the file's first pages carry
// their own number (and a data or free-page list kind). It returns 0 when
// no size makes even two pages do.
func GuessPageSize(f io.ReaderAt, size int64) int64 {
	best, bestN := int64(0), 1
	for ps := int64(1024); ps <= 1<<16; ps *= 2 {
		n := 0
		for id := uint64(2); id < 2+1024 && int64(id+1)*ps <= size; id++ {
			var b [PageHeaderSize]byte
			if _, err := f.ReadAt(b[:], int64(id)*ps); err != nil {
				break
			}
			h := ParseHead(b[:])
			if h.ID == id && (h.Flags == FlagLeaf || h.Flags == FlagBranch || h.Flags == FlagFreelist) {
				n++
			}
		}
		if n > bestN {
			best, bestN = ps, n
		}
	}
	return best
}
