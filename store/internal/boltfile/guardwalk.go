package boltfile

import (
	"bytes"
	"fmt"
	"slices"
)

// guardWalk is one check: a page reached twice in it is damage (in a tree
// each page has one parent; the engine would walk a shared page once for
// each way to it, and a few shared pages make that endless).
type guardWalk struct {
	s      *state
	r      *Reader
	lo, hi []byte
	next   bool
	few    []uint64 // the pages reached, while they are few (a point's way down and its leaves)
	buf    [16]uint64
	many   map[uint64]*pageBits // then a bit for each, by id/512
	last   *pageBits            // the block marked last, and its key
	lastK  uint64
}

// fewReached is how many pages reach keeps in a list before bit blocks: a
// lookup's way down reaches its branch pages and the hundred or so leaves
// of the lowest, which a list holds in a few hundred bytes.
const fewReached = 256

// pageBits is a bit for each of 512 consecutive pages.
type pageBits [8]uint64

// reach records page id as reached, reporting whether it was already.
func (w *guardWalk) reach(id uint64) bool {
	if w.many != nil {
		return w.mark(id)
	}
	if slices.Contains(w.few, id) {
		return true
	}
	if w.few == nil {
		w.few = w.buf[:0]
	}
	if len(w.few) < fewReached {
		w.few = append(w.few, id)
		return false
	}
	w.many = map[uint64]*pageBits{}
	for _, p := range w.few {
		w.mark(p)
	}
	return w.mark(id)
}

// mark sets page id's bit, reporting whether it was set. A tree's pages
// lie mostly in runs, so consecutive marks mostly fall in one block.
func (w *guardWalk) mark(id uint64) bool {
	if k := id / 512; w.last == nil || k != w.lastK {
		b := w.many[k]
		if b == nil {
			b = new(pageBits)
			w.many[k] = b
		}
		w.last, w.lastK = b, k
	}
	i := id % 512
	word, bit := &w.last[i/64], uint64(1)<<(i%64)
	seen := *word&bit != 0
	*word |= bit
	return seen
}

// reachLeaves records as reached, at once, the leaves kids of one branch
// page, when they fit the list and are sound: none above it or on the
// free list, none reached already, none twice. It reports false (having
// recorded nothing) otherwise, and the caller goes through them one by
// one, which finds and names what is wrong. One at a time, each leaf
// would be looked for in the list of the ones before it (a hundred
// leaves, five thousand steps); here the list before them is the way
// down, a few pages, and the leaves are checked against each other
// sorted.
func (w *guardWalk) reachLeaves(kids []uint64) bool {
	if w.many != nil || len(w.few)+len(kids) > fewReached {
		return false
	}
	var buf [fewReached]uint64
	sorted := append(buf[:0], kids...)
	slices.Sort(sorted)
	for i, kid := range sorted {
		if (i > 0 && sorted[i-1] == kid) || w.s.free[kid] || slices.Contains(w.few, kid) {
			return false
		}
	}
	if w.few == nil {
		w.few = w.buf[:0]
	}
	w.few = append(w.few, kids...)
	return true
}

func (w *guardWalk) walk(id uint64, above []uint64, from, to []byte) ([]byte, []byte, error) {
	s, r, lo, hi, next := w.s, w.r, w.lo, w.hi, w.next
	if len(above) >= MaxTreeDepth {
		return nil, nil, &PageError{ID: id, What: fmt.Sprintf("lies more than %d pages deep in its tree (a page leads back up)", MaxTreeDepth)}
	}
	if w.reach(id) {
		return nil, nil, &PageError{ID: id, What: "is reached from two places in its tree"}
	}
	if s.free[id] {
		return nil, nil, inFreeList(id)
	}
	b, err := s.branch(r, id)
	if err == nil && b.leaf && s.free != nil {
		err = s.leafFits(r, id)
	}
	if err != nil || b.leaf {
		return from, to, err
	}
	if b.leaves && s.free != nil {
		if from, to, err = w.leavesFit(b, from, to); err != nil {
			return nil, nil, err
		}
	}
	if b.whole {
		return from, to, nil
	}
	above = append(above, id)
	if b.leaves {
		// All its children at once: the next lookup below it costs nothing.
		if w.reachLeaves(b.kids) {
			b.whole = true
			return from, to, nil
		}
		for _, kid := range b.kids {
			if j := slices.Index(above, kid); j >= 0 {
				return nil, nil, &PageError{ID: id, What: fmt.Sprintf("leads back to page %d above it", above[j])}
			}
			if s.free[kid] {
				return nil, nil, inFreeList(kid)
			}
			if w.reach(kid) {
				return nil, nil, &PageError{ID: kid, What: "is reached from two places in its tree"}
			}
		}
		b.whole = true
		return from, to, nil
	}
	i0, i1 := 0, len(b.kids)-1
	if lo != nil {
		i0 = Slot(b.keys, lo)
	}
	if hi != nil {
		if lo == nil || !bytes.Equal(lo, hi) {
			i1 = Slot(b.keys, hi)
		} else {
			i1 = i0
		}
		if next && i1 < len(b.kids)-1 {
			i1++
		}
	}
	for i := i0; i <= i1; i++ {
		if j := slices.Index(above, b.kids[i]); j >= 0 {
			return nil, nil, &PageError{ID: id, What: fmt.Sprintf("leads back to page %d above it", above[j])}
		}
		if s.free[b.kids[i]] {
			return nil, nil, inFreeList(b.kids[i])
		}
	}
	cf, ct := from, to
	for i := i0; i <= i1; i++ {
		cf, ct = from, to
		if i > 0 {
			cf = b.keys[i]
		}
		if i < len(b.keys)-1 {
			ct = b.keys[i+1]
		}
		if cf, ct, err = w.walk(b.kids[i], above, cf, ct); err != nil {
			return nil, nil, err
		}
	}
	if lo == nil && hi == nil {
		b.whole = true
	}
	return cf, ct, nil
}

// inFreeList is a page in use that the free-page list a write began from
// names.
func inFreeList(id uint64) *PageError {
	return &PageError{ID: id, What: "is in use but also on the list of free pages, so a write would overwrite it", Free: true}
}

// leavesFit checks, for a write, the leaves of branch b that keys lo to
// hi reach (leafFits); for a single key it narrows [from, to) to its
// leaf's keys, so that a later key in another leaf is checked too.
func (w *guardWalk) leavesFit(b *branchInfo, from, to []byte) ([]byte, []byte, error) {
	i0, i1 := 0, len(b.kids)-1
	if w.lo != nil {
		i0 = Slot(b.keys, w.lo)
	}
	if w.hi != nil {
		i1 = max(i0, Slot(b.keys, w.hi))
		if w.next && i1 < len(b.kids)-1 {
			i1++
		}
	}
	for i := i0; i <= i1; i++ {
		if err := w.s.leafFits(w.r, b.kids[i]); err != nil {
			return nil, nil, err
		}
	}
	if i0 == i1 {
		if i0 > 0 {
			from = b.keys[i0]
		}
		if i0 < len(b.keys)-1 {
			to = b.keys[i0+1]
		}
	}
	return from, to, nil
}

// leafFits checks, for a write, that leaf id's overflow pages lie inside
// the file. A write that changes a leaf has the engine free its pages one
// by one, as many as its count says: a damaged count (2^31) would keep
// it freeing for hours, so the write is refused before the engine sees
// the page.
func (s *state) leafFits(r *Reader, id uint64) error {
	if s.fits[id] {
		return nil
	}
	h, err := r.Head(id)
	if err != nil {
		return err
	}
	if id+uint64(h.Overflow) >= r.HWM {
		return &PageError{ID: id, What: fmt.Sprintf("counts %d overflow pages, past the end of the %d pages the file counts, so a write that changed it would free pages that do not exist", h.Overflow, r.HWM)}
	}
	if s.fits == nil {
		s.fits = map[uint64]bool{}
	}
	s.fits[id] = true
	return nil
}
