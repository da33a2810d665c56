package boltfile

import (
	"fmt"
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
	r *Reader
	// over is each page reached, with its overflow when the walk read
	// its header (unread: a leaf known only from its parent).
	over map[uint64]uint32
	// Bad is what is wrong with each page the walk found damaged, said of
	// the page ("is reached from two places in its tree").
	Bad map[uint64]string
	ids []uint64 // the pages reached, sorted (for InUse)
}

const unread = ^uint32(0)

// Nested says whether the leaves of the tree of the bucket at path (the
// names of the buckets from the top level down; none for the top-level
// tree) hold buckets, which the walk then reaches too.
type Nested func(path [][]byte) bool

// Reach walks the trees of c's snapshot (see Reach). It reads page target
// whole wherever it finds it, so that Bad says whether it is sound (0:
// none).
func (c *Checker) Reach(nested Nested, target uint64) *Reach {
	w := &reachWalk{rc: &Reach{r: &c.r, over: map[uint64]uint32{}, Bad: map[uint64]string{}}, nested: nested, target: target}
	w.tree(c.snap.Root, nil, nil, nil)
	w.rc.ids = make([]uint64, 0, len(w.rc.over))
	for id := range w.rc.over {
		w.rc.ids = append(w.rc.ids, id)
	}
	slices.Sort(w.rc.ids)
	return w.rc
}

// Reached reports whether the walk reached page id itself (not as an
// overflow page of another).
func (rc *Reach) Reached(id uint64) bool { _, ok := rc.over[id]; return ok }

// InUse reports whether page id is in use: reached, or an overflow page
// of a page reached (for which it reads the header of the nearest leaf
// below id that it has not read yet).
func (rc *Reach) InUse(id uint64) (bool, error) {
	if rc.Reached(id) {
		return true, nil
	}
	i, _ := slices.BinarySearch(rc.ids, id)
	if i == 0 {
		return false, nil
	}
	below := rc.ids[i-1]
	o := rc.over[below]
	if o == unread {
		h, err := rc.r.Head(below)
		if err != nil {
			return false, err
		}
		o = h.Overflow
		rc.over[below] = o
	}
	return id <= below+uint64(o), nil
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
// was reached before.
func (w *reachWalk) reach(id uint64, over uint32) bool {
	if _, seen := w.rc.over[id]; seen {
		w.bad(id, "is reached from two places in its tree")
		return false
	}
	w.rc.over[id] = over
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
	w.page(root, path, above)
}

// page walks the subtree at page id.
func (w *reachWalk) page(id uint64, path [][]byte, above []uint64) {
	if len(above) >= MaxTreeDepth {
		w.bad(id, fmt.Sprintf("lies more than %d pages deep in its tree (a page leads back up)", MaxTreeDepth))
		return
	}
	h, err := w.rc.r.Head(id)
	if err != nil {
		w.reach(id, 0)
		w.bad(id, whatOfPage(err))
		return
	}
	if !w.reach(id, h.Overflow) {
		return
	}
	if h.Flags != FlagBranch && h.Flags != FlagLeaf {
		w.bad(id, "is a "+h.Kind()+" page where a data page belongs")
		return
	}
	if h.Flags == FlagLeaf {
		if w.nested(path) || id == w.target {
			w.leaf(h, path, above)
		}
		return
	}
	_, b, err := w.rc.r.Read(h, FlagBranch)
	if err != nil {
		w.bad(id, whatOfPage(err))
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
	first, err := w.rc.r.Head(es[0].Child)
	if err == nil && first.Flags == FlagLeaf && !w.nested(path) {
		// Its children are leaves, known by their numbers alone.
		for _, e := range es {
			if e.Child == w.target {
				w.page(e.Child, path, above)
			} else {
				w.reach(e.Child, unread)
			}
		}
		return
	}
	for _, e := range es {
		w.page(e.Child, path, above)
	}
}

// leaf reads the leaf page whose header is h, and walks the buckets on it
// when its tree's leaves hold buckets.
func (w *reachWalk) leaf(h PageHead, path [][]byte, above []uint64) {
	_, b, err := w.rc.r.Read(h, FlagLeaf)
	if err != nil {
		w.bad(h.ID, whatOfPage(err))
		return
	}
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
