package store

import (
	"bytes"
	"fmt"
	"io"
	"slices"
	"sync"

	bolt "go.etcd.io/bbolt"
)

// treeGuard keeps the engine out of loops. The engine walks down a tree
// by following the page numbers in branch pages without asking where they
// lead; a damaged branch page that leads back to a page above it would
// send it down for ever (a crash for want of stack or memory, not an
// error). Before a call walks part of a tree, the guard reads the branch
// pages on the way itself, with pread, checks each (its own number, its
// kind, its entries inside it, its children inside the file), and makes
// sure none leads to one of the pages above it. It remembers what it
// checked for the rest of the transaction, so a scan or a load pays for
// each branch page once; branch pages are about one page in a hundred.
//
// What it checked holds for one snapshot of the file, so it keeps it by
// snapshot: one state for the write transaction, and one for each of the
// last two snapshots read. The two kinds must never share a state, though
// they can share a transaction id: a write transaction's id is the last
// committed one plus one, and a read transaction's is the last committed
// one, so the reads that begin right after a write commits carry the
// writer's id. A reader handed the writer's state would judge the new
// snapshot by the free-page list the writer began from, and the pages the
// writer took from that list and filled would look both in use and free.
type treeGuard struct {
	f        io.ReaderAt
	pageSize int64

	mu    sync.Mutex
	write guardState    // the write transaction's
	reads [2]guardState // the last two snapshots read
}

// guardState is what the guard checked in one snapshot.
type guardState struct {
	txid  int
	pages map[uint64]*branchInfo
	free  map[uint64]bool // for a write: the pages the free-page list names
}

// state returns the state for tx's snapshot, a new one when the guard
// keeps none for it. The caller holds g.mu.
func (g *treeGuard) state(tx *bolt.Tx) *guardState {
	id := tx.ID()
	if tx.Writable() {
		// Two write transactions with one id start from one snapshot:
		// the first was rolled back, or it would have taken the id.
		if g.write.pages == nil || g.write.txid != id {
			g.write = guardState{txid: id, pages: map[uint64]*branchInfo{}}
		}
		return &g.write
	}
	for i := range g.reads {
		if s := &g.reads[i]; s.pages != nil && s.txid == id {
			return s
		}
	}
	old := &g.reads[0]
	if g.reads[1].pages == nil || g.reads[1].txid < old.txid {
		old = &g.reads[1]
	}
	*old = guardState{txid: id, pages: map[uint64]*branchInfo{}}
	return old
}

// branchInfo is a checked page: a leaf, or a branch with its keys and
// children.
type branchInfo struct {
	leaf   bool
	keys   [][]byte
	kids   []uint64
	leaves bool // its children are leaves (as its first child is)
	whole  bool // every branch page below it has been checked
}

// check makes sure that the pages of the tree rooted at root that serve
// keys lo to hi (nil: the tree's start, its end) lead nowhere back up.
// With next it also covers the page after hi, where a scanning cursor
// steps before it sees that it is past hi. For a single key (lo equal to
// hi, not next) it returns the range [from, to) of keys that take the
// same way down, so that later keys in it need no check (to nil: no end).
func (g *treeGuard) check(tx *bolt.Tx, root uint64, lo, hi []byte, next bool) (from, to []byte, err error) {
	g.mu.Lock()
	defer g.mu.Unlock()
	s := g.state(tx)
	hwm := uint64(tx.Size() / g.pageSize)
	r := &pageReader{f: g.f, size: int64(hwm) * g.pageSize, pageSize: g.pageSize, hwm: hwm}
	if tx.Writable() && s.free == nil {
		if err := s.readFree(g.f, r, tx.ID()-1); err != nil {
			return nil, nil, err
		}
	}
	var stack [maxTreeDepth]uint64
	w := guardWalk{s: s, r: r, lo: lo, hi: hi, next: next}
	return w.walk(root, stack[:0], nil, nil)
}

// guardWalk is one check: a page reached twice in it is damage (in a tree
// each page has one parent; the engine would walk a shared page once for
// each way to it, and a few shared pages make that endless).
type guardWalk struct {
	s      *guardState
	r      *pageReader
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

func (w *guardWalk) walk(id uint64, above []uint64, from, to []byte) ([]byte, []byte, error) {
	s, r, lo, hi, next := w.s, w.r, w.lo, w.hi, w.next
	if len(above) >= maxTreeDepth {
		return nil, nil, &pageError{id, fmt.Sprintf("lies more than %d pages deep in its tree (a page leads back up)", maxTreeDepth)}
	}
	if w.reach(id) {
		return nil, nil, &pageError{id, "is reached from two places in its tree"}
	}
	if s.free[id] {
		return nil, nil, &pageError{id, "is in use but also on the list of free pages, so a write would overwrite it"}
	}
	b, err := s.branch(r, id)
	if err != nil || b.leaf {
		return from, to, err
	}
	if b.whole {
		return from, to, nil
	}
	above = append(above, id)
	if b.leaves {
		// All its children at once: the next lookup below it costs nothing.
		for _, kid := range b.kids {
			if j := slices.Index(above, kid); j >= 0 {
				return nil, nil, &pageError{id, fmt.Sprintf("leads back to page %d above it", above[j])}
			}
			if s.free[kid] {
				return nil, nil, &pageError{kid, "is in use but also on the list of free pages, so a write would overwrite it"}
			}
			if w.reach(kid) {
				return nil, nil, &pageError{kid, "is reached from two places in its tree"}
			}
		}
		b.whole = true
		return from, to, nil
	}
	i0, i1 := 0, len(b.kids)-1
	if lo != nil {
		i0 = slot(b.keys, lo)
	}
	if hi != nil {
		if lo == nil || !bytes.Equal(lo, hi) {
			i1 = slot(b.keys, hi)
		} else {
			i1 = i0
		}
		if next && i1 < len(b.kids)-1 {
			i1++
		}
	}
	for i := i0; i <= i1; i++ {
		if j := slices.Index(above, b.kids[i]); j >= 0 {
			return nil, nil, &pageError{id, fmt.Sprintf("leads back to page %d above it", above[j])}
		}
		if s.free[b.kids[i]] {
			return nil, nil, &pageError{b.kids[i], "is in use but also on the list of free pages, so a write would overwrite it"}
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

// readFree reads the free-page list a write transaction starts from, so
// that the guard can refuse a write that would allocate a page in use. It
// reads the header itself; when its meta is not the one the transaction
// began from (base), it leaves the check out rather than guess.
func (s *guardState) readFree(f io.ReaderAt, r *pageReader, base int) error {
	s.free = map[uint64]bool{}
	h := readHeader(f, r.size)
	if h.use < 0 || h.meta().txid != uint64(base) || h.meta().freelist == noFreelist {
		return nil
	}
	ids, err := r.freelist(h.meta().freelist)
	if err != nil {
		return err
	}
	for _, id := range ids {
		s.free[id] = true
	}
	return nil
}

// forget drops what the guard checked for the write transaction that
// committed: the next one starts from another snapshot.
func (g *treeGuard) forget() {
	g.mu.Lock()
	g.write = guardState{}
	g.mu.Unlock()
}

// slot is the child a lookup of key goes down to, as the engine picks it:
// the last whose key is at most key, else the first.
func slot(keys [][]byte, key []byte) int {
	i, exact := slices.BinarySearchFunc(keys, key, bytes.Compare)
	if !exact && i > 0 {
		i--
	}
	return i
}

// branch reads and checks page id, once per snapshot.
func (s *guardState) branch(r *pageReader, id uint64) (*branchInfo, error) {
	if b, ok := s.pages[id]; ok {
		return b, nil
	}
	h, err := r.head(id)
	if err != nil {
		return nil, err
	}
	b := &branchInfo{leaf: h.flags == flagLeaf}
	if !b.leaf {
		_, buf, err := r.read(h, flagBranch)
		if err != nil {
			return nil, err
		}
		es, err := parseElems(h, buf)
		if err != nil {
			return nil, &pageError{id, err.Error()}
		}
		if len(es) == 0 {
			return nil, &pageError{id, "is a branch page with no entries"}
		}
		// The keys stay in buf, the page's own copy, which nothing writes.
		b.keys, b.kids = make([][]byte, len(es)), make([]uint64, len(es))
		for i, e := range es {
			if e.child < 2 || e.child >= r.hwm {
				return nil, &pageError{id, fmt.Sprintf("leads to page %d, outside the %d pages the file counts", e.child, r.hwm)}
			}
			b.keys[i], b.kids[i] = e.key, e.child
		}
		first, err := r.head(b.kids[0])
		if err != nil {
			return nil, err
		}
		switch first.flags {
		case flagLeaf:
			b.leaves = true
		case flagBranch:
		default:
			return nil, &pageError{first.id, "is a " + first.kind() + " page where a data page belongs"}
		}
	}
	s.pages[id] = b
	return b, nil
}

// guardKeys checks the way to keys lo to hi in bucket b (see check).
func (o *op) guardKeys(tx *bolt.Tx, b *bolt.Bucket, lo, hi []byte, next bool) error {
	root := uint64(b.RootPage())
	if root == 0 {
		return nil // an inline bucket: one leaf inside its parent
	}
	_, _, err := o.db.guard.check(tx, root, lo, hi, next)
	return err
}

// guardAll checks the whole tree of bucket b.
func (o *op) guardAll(tx *bolt.Tx, b *bolt.Bucket) error { return o.guardKeys(tx, b, nil, nil, false) }

// guardRoot checks the way to name among the top-level buckets.
func (o *op) guardRoot(tx *bolt.Tx, name []byte) error {
	return o.guardKeys(tx, tx.Cursor().Bucket(), name, name, false)
}
