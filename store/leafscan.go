package store

import (
	"bytes"
	"fmt"
	"sort"

	bolt "go.etcd.io/bbolt"
)

// leafCursor walks a bucket's tree as the engine's cursor does (First,
// Seek, Next, the same keys and values in the same order, a nested
// bucket's key with a nil value), but reads the pages itself with pread
// instead of through the engine's memory map, checking each page before
// it uses it: a damaged page ends the walk with a *pageError (see err),
// never a fault or a panic. Leaves whose page numbers run on (as a load
// in key order writes them) come in one read of several pages, so a scan
// pays one system call for many pages instead of a page fault for each.
//
// It is safe because the engine's read transaction pins its snapshot:
// pages are copy-on-write, and no writer, in this process or another,
// reuses a page that a live read transaction can reach (its pages go on
// the free-page list only once every transaction that began before the
// change has ended; and a process that opens the file for reading only
// holds a shared lock, under which no other process writes at all). So
// while tx is open, pread of a page reachable from the bucket's root
// returns the very bytes the memory map would show.
//
// The branch pages come from the guard (treeGuard.branch: checked and kept
// for the transaction), which a scan has already walked for its range.
// The keys and values it returns are valid until the next call.
type leafCursor struct {
	tx   *bolt.Tx
	g    *treeGuard
	r    *pageReader
	root uint64
	hi   []byte // no read-ahead of leaves whose keys start at or past hi (nil: no end)

	stack []leafFrame // the branch pages above the leaf, root first
	elems []elem      // the leaf's entries
	i     int         // the entry at the cursor
	*leafRoom
	bufAt uint64 // the first page in buf
	bufN  uint64 // how many
	err   error
}

// leafRoom is a leafCursor's buffers, which one cursor after another
// may reuse.
type leafRoom struct {
	buf  []byte // pages read ahead
	room []elem // a leaf's entries
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

// newLeafCursor returns a cursor on the tree rooted at root (which must
// not be 0, an inline bucket)
// in tx, using room's buffers (nil: its own).
func newLeafCursor(tx *bolt.Tx, g *treeGuard, root uint64, hi []byte, room *leafRoom) *leafCursor {
	hwm := uint64(tx.Size() / g.pageSize)
	if room == nil {
		room = &leafRoom{}
	}
	return &leafCursor{
		tx: tx, g: g, root: root, hi: hi, leafRoom: room,
		r: &pageReader{f: g.f, size: int64(hwm) * g.pageSize, pageSize: g.pageSize, hwm: hwm},
	}
}

// First moves to the tree's first key.
func (c *leafCursor) First() ([]byte, []byte) {
	if !c.descend(nil) {
		return nil, nil
	}
	return c.settle()
}

// Seek moves to the first key at or after key.
func (c *leafCursor) Seek(key []byte) ([]byte, []byte) {
	if !c.descend(key) {
		return nil, nil
	}
	c.i = sort.Search(len(c.elems), func(i int) bool { return bytes.Compare(c.elems[i].key, key) >= 0 })
	return c.settle()
}

// Next moves to the next key.
func (c *leafCursor) Next() ([]byte, []byte) {
	if c.err != nil || c.elems == nil {
		return nil, nil
	}
	c.i++
	return c.settle()
}

// settle returns the entry at the cursor, moving on to the next leaf
// that has one when the cursor is past the leaf's last.
func (c *leafCursor) settle() ([]byte, []byte) {
	for c.i >= len(c.elems) {
		if !c.nextLeaf() {
			c.elems = nil
			return nil, nil
		}
	}
	e := &c.elems[c.i]
	if e.bucket {
		return e.key, nil
	}
	return e.key, e.value
}

// descend goes down from the root to the leaf for key (nil: the first).
func (c *leafCursor) descend(key []byte) bool {
	if c.err != nil {
		return false
	}
	c.stack = c.stack[:0]
	c.elems, c.i = nil, 0
	return c.down(c.root, key)
}

// nextLeaf moves to the first entry of the next leaf, reporting false at
// the tree's end or on damage.
func (c *leafCursor) nextLeaf() bool {
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
func (c *leafCursor) down(id uint64, key []byte) bool {
	for {
		if len(c.stack) >= maxTreeDepth {
			return c.fail(&pageError{id, fmt.Sprintf("lies more than %d pages deep in its tree (a page leads back up)", maxTreeDepth)})
		}
		if n := len(c.stack); n > 0 && c.stack[n-1].b.leaves {
			return c.leaf(id)
		}
		b, err := c.g.branchIn(c.tx, c.r, id)
		if err != nil {
			return c.fail(err)
		}
		if b.leaf {
			return c.leaf(id)
		}
		i := 0
		if key != nil {
			i = slot(b.keys, key)
		}
		c.stack = append(c.stack, leafFrame{b: b, i: i})
		id = b.kids[i]
	}
}

func (c *leafCursor) fail(err error) bool {
	c.err, c.elems = err, nil
	return false
}

// leaf reads leaf page id and its entries, from the pages read ahead when
// they hold it.
func (c *leafCursor) leaf(id uint64) bool {
	if id < 2 || id >= c.r.hwm {
		return c.fail(&pageError{id, fmt.Sprintf("is outside the %d pages the file's header counts", c.r.hwm)})
	}
	if id < c.bufAt || id >= c.bufAt+c.bufN {
		if !c.fill(id, c.run(id), true) {
			return false
		}
	}
	off := int64(id-c.bufAt) * c.r.pageSize
	// Said as when the engine's own check of the page fails (describePanic).
	if h := parseHead(c.buf[off:]); h.id != id || h.flags != flagLeaf {
		return c.fail(&pageError{id, "does not hold what the page that leads to it expects"})
	}
	h := parseHead(c.buf[off:])
	n, err := c.r.span(h)
	if err != nil {
		return c.fail(err)
	}
	if id+n > c.bufAt+c.bufN {
		if !c.fill(id, n, false) {
			return false
		}
		off = 0
	}
	es, err := appendElems(c.room, h, c.buf[off:off+int64(n)*c.r.pageSize])
	if err != nil {
		return c.fail(&pageError{id, err.Error()})
	}
	c.elems, c.room, c.i = es, es, 0
	return true
}

// run is how many pages from leaf id one read takes: up to the last of the
// leaves after it, under the same branch page, whose page numbers run on
// from it with small gaps, within readAhead bytes, stopping before a leaf
// whose keys start at or past hi.
func (c *leafCursor) run(id uint64) uint64 {
	if len(c.stack) == 0 {
		return 1
	}
	f := c.stack[len(c.stack)-1]
	if !f.b.leaves || f.b.kids[f.i] != id {
		return 1
	}
	most := max(uint64(readAhead/c.r.pageSize), 1)
	end, prev := id+1, id
	for k := f.i + 1; k < len(f.b.kids); k++ {
		kid := f.b.kids[k]
		if kid <= prev || kid-prev > readGap || kid >= id+most || kid >= c.r.hwm {
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
func (c *leafCursor) fill(id, n uint64, ahead bool) bool {
	size := int64(n) * c.r.pageSize
	if int64(cap(c.buf)) < size {
		c.buf = make([]byte, max(size, readAhead))
	}
	c.buf = c.buf[:size]
	if _, err := c.r.f.ReadAt(c.buf, int64(id)*c.r.pageSize); err != nil {
		c.bufN = 0
		if ahead && n > 1 {
			return c.fill(id, 1, false)
		}
		return c.fail(readError(id, err))
	}
	c.bufAt, c.bufN = id, n
	return true
}

// branchIn is branch for a reader of tx, kept with tx's snapshot.
func (g *treeGuard) branchIn(tx *bolt.Tx, r *pageReader, id uint64) (*branchInfo, error) {
	g.mu.Lock()
	defer g.mu.Unlock()
	return g.state(tx).branch(r, id)
}
