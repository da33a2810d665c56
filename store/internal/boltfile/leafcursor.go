package boltfile

import (
	"bytes"
	"fmt"
	"sort"
)

// LeafCursor walks a bucket's tree as the engine's cursor does (First,
// Seek, Next, the same keys and values in the same order, a nested
// bucket's key with a nil value), but reads the pages itself with pread
// instead of through the engine's memory map, checking each page before
// it uses it: a damaged page ends the walk with a *PageError (see Err),
// never a fault or a panic. Leaves whose page numbers run on (as a load
// in key order writes them) come in one read of several pages, so a scan
// pays one system call for many pages instead of a page fault for each.
//
// It reads the snapshot of its Checker, which is safe while the engine's
// transaction of that snapshot is open (see the package's doc). Its
// branch pages come from the checker (checked, and kept for the
// snapshot), which a scan has already walked for its range. The keys and
// values it returns are valid until the next call. Several cursors on one
// snapshot may run at once, on several goroutines.
type LeafCursor struct {
	c    *Checker
	r    *Reader
	root uint64
	hi   []byte // no read-ahead of leaves whose keys start at or past hi (nil: no end)

	stack []leafFrame // the branch pages above the leaf, root first
	elems []Elem      // the leaf's entries
	i     int         // the entry at the cursor
	below bool        // every key of the leaf sorts before hi (see BelowHi)
	*LeafRoom
	bufAt uint64 // the first page in buf
	bufN  uint64 // how many
	err   error
}

// LeafRoom is a LeafCursor's buffers, which one cursor after another
// may reuse.
type LeafRoom struct {
	buf  []byte // pages read ahead
	room []Elem // a leaf's entries
}

type leafFrame struct {
	b *branchInfo
	i int // the child the cursor is below
}

// readAhead is how many bytes of consecutive leaves one read takes at
// most; readGap is the most pages between two leaves that a read takes in
// (overflow pages of the first, mostly).
const (
	readAhead = 256 << 10
	readGap   = 16
)

// NewLeafCursor returns a cursor on the tree rooted at root (which must
// not be 0, an inline bucket) in c's snapshot, using room's buffers (nil:
// its own).
func NewLeafCursor(c *Checker, root uint64, hi []byte, room *LeafRoom) *LeafCursor {
	if room == nil {
		room = &LeafRoom{}
	}
	return &LeafCursor{c: c, r: &c.r, root: root, hi: hi, LeafRoom: room}
}

// Err is the damage that ended the walk, or nil.
func (c *LeafCursor) Err() error { return c.err }

// First moves to the tree's first key.
func (c *LeafCursor) First() ([]byte, []byte) {
	if !c.descend(nil) {
		return nil, nil
	}
	return c.settle()
}

// Seek moves to the first key at or after key.
func (c *LeafCursor) Seek(key []byte) ([]byte, []byte) {
	if !c.descend(key) {
		return nil, nil
	}
	c.i = sort.Search(len(c.elems), func(i int) bool { return bytes.Compare(c.elems[i].Key, key) >= 0 })
	return c.settle()
}

// Next moves to the next key.
func (c *LeafCursor) Next() ([]byte, []byte) {
	if c.err != nil || c.elems == nil {
		return nil, nil
	}
	c.i++
	return c.settle()
}

// settle returns the entry at the cursor, moving on to the next leaf
// that has one when the cursor is past the leaf's last.
func (c *LeafCursor) settle() ([]byte, []byte) {
	for c.i >= len(c.elems) {
		if !c.nextLeaf() {
			c.elems = nil
			return nil, nil
		}
	}
	e := &c.elems[c.i]
	if e.Bucket {
		return e.Key, nil
	}
	return e.Key, e.Value
}

// descend goes down from the root to the leaf for key (nil: the first).
func (c *LeafCursor) descend(key []byte) bool {
	if c.err != nil {
		return false
	}
	c.stack = c.stack[:0]
	c.elems, c.i = nil, 0
	return c.down(c.root, key)
}

// nextLeaf moves to the first entry of the next leaf, reporting false at
// the tree's end or on damage.
func (c *LeafCursor) nextLeaf() bool {
	for len(c.stack) > 0 {
		f := &c.stack[len(c.stack)-1]
		if f.i+1 < len(f.b.kids) {
			f.i++
			c.elems, c.i = nil, 0
			return c.down(f.b.kids[f.i], nil)
		}
		c.stack = c.stack[:len(c.stack)-1]
	}
	return false
}

// down goes from page id to the leaf for key (nil: the first), pushing
// the branch pages on the way.
func (c *LeafCursor) down(id uint64, key []byte) bool {
	for {
		if len(c.stack) >= MaxTreeDepth {
			return c.fail(&PageError{ID: id, What: fmt.Sprintf("lies more than %d pages deep in its tree (a page leads back up)", MaxTreeDepth)})
		}
		if n := len(c.stack); n > 0 && c.stack[n-1].b.leaves {
			return c.leaf(id)
		}
		b, err := c.c.branchIn(id)
		if err != nil {
			return c.fail(err)
		}
		if b.leaf {
			return c.leaf(id)
		}
		i := 0
		if key != nil {
			i = Slot(b.keys, key)
		}
		c.stack = append(c.stack, leafFrame{b: b, i: i})
		id = b.kids[i]
	}
}

func (c *LeafCursor) fail(err error) bool {
	c.err, c.elems = err, nil
	return false
}

// leaf reads leaf page id and its entries, from the pages read ahead when
// they hold it.
func (c *LeafCursor) leaf(id uint64) bool {
	if id < 2 || id >= c.r.HWM {
		return c.fail(&PageError{ID: id, What: fmt.Sprintf("is outside the %d pages the file's header counts", c.r.HWM)})
	}
	if id < c.bufAt || id >= c.bufAt+c.bufN {
		if !c.fill(id, c.run(id), true) {
			return false
		}
	}
	off := int64(id-c.bufAt) * c.r.PageSize
	// Said as when the engine's own check of the page fails (describePanic).
	if h := ParseHead(c.buf[off:]); h.ID != id || h.Flags != FlagLeaf {
		return c.fail(&PageError{ID: id, What: "does not hold what the page that leads to it expects"})
	}
	h := ParseHead(c.buf[off:])
	n, err := c.r.Span(h)
	if err != nil {
		// A count of overflow pages past the file, on a leaf whose entries
		// all lie in its first page, is read as the engine reads it (its
		// cursor never looks at the count): the entries are intact, and
		// Check reports the count.
		if es, perr := AppendElems(c.room, h, c.buf[off:off+c.r.PageSize]); perr == nil && h.Overflow > 0 {
			c.elems, c.room, c.i = es, es, 0
			return true
		}
		return c.fail(err)
	}
	if id+n > c.bufAt+c.bufN {
		if !c.fill(id, n, false) {
			return false
		}
		off = 0
	}
	es, err := AppendElems(c.room, h, c.buf[off:off+int64(n)*c.r.PageSize])
	if err != nil {
		return c.fail(&PageError{ID: id, What: err.Error()})
	}
	c.elems, c.room, c.i = es, es, 0
	c.below = c.hi != nil && len(es) > 0 && bytes.Compare(es[len(es)-1].Key, c.hi) < 0
	return true
}

// BelowHi reports whether every key of the leaf at the cursor sorts
// before the hi it was made with, so that a scan bounded by hi need not
// compare them with it one by one (false without hi, or without a leaf).
func (c *LeafCursor) BelowHi() bool { return c.below && c.elems != nil }

// run is how many pages from leaf id one read takes: up to the last of the
// leaves after it, under the same branch page, whose page numbers run on
// from it with small gaps, within readAhead bytes, stopping before a leaf
// whose keys start at or past hi.
func (c *LeafCursor) run(id uint64) uint64 {
	if len(c.stack) == 0 {
		return 1
	}
	f := c.stack[len(c.stack)-1]
	if !f.b.leaves || f.b.kids[f.i] != id {
		return 1
	}
	most := max(uint64(readAhead/c.r.PageSize), 1)
	end, prev := id+1, id
	for k := f.i + 1; k < len(f.b.kids); k++ {
		kid := f.b.kids[k]
		if kid <= prev || kid-prev > readGap || kid >= id+most || kid >= c.r.HWM {
			break
		}
		if c.hi != nil && bytes.Compare(f.b.keys[k], c.hi) >= 0 {
			break
		}
		end, prev = kid+1, kid
	}
	return end - id
}

// fill reads n pages from page id into the buffer. When a read ahead
// fails (the file cut short past the leaf), it reads the one page.
func (c *LeafCursor) fill(id, n uint64, ahead bool) bool {
	size := int64(n) * c.r.PageSize
	if int64(cap(c.buf)) < size {
		c.buf = make([]byte, max(size, readAhead))
	}
	c.buf = c.buf[:size]
	if _, err := c.r.F.ReadAt(c.buf, int64(id)*c.r.PageSize); err != nil {
		c.bufN = 0
		if ahead && n > 1 {
			return c.fill(id, 1, false)
		}
		return c.fail(ReadError(id, err))
	}
	c.bufAt, c.bufN = id, n
	return true
}
