package boltfile

import (
	"bytes"
	"fmt"
	"io"
	"slices"
	"sync"
)

// Snapshot is one state of the file, as one transaction of the engine
// sees it.
type Snapshot struct {
	// TxID is the transaction's id. By the engine's rule a reader's is the
	// id of the last committed transaction and a writer's is that plus
	// one, so a reader that begins right after a commit carries the id of
	// the writer that just ended.
	TxID     uint64
	Writable bool
	// Size is the bytes the snapshot counts: its high-water mark (the
	// pages in use) times PageSize.
	Size     int64
	PageSize int64
	// Root is the root page of the top-level tree, which Reach starts
	// from; the checks of keys do not need it (0: not given).
	Root uint64
}

// HWM is the pages the snapshot counts.
func (s Snapshot) HWM() uint64 { return uint64(s.Size / s.PageSize) }

// Guard keeps the engine out of loops. The engine walks down a tree by
// following the page numbers in branch pages without asking where they
// lead; a damaged branch page that leads back to a page above it would
// send it down for ever (a crash for want of stack or memory, not an
// error). Before a call walks part of a tree, the guard reads the branch
// pages on the way itself, with pread, checks each (its own number, its
// kind, its entries inside it, its children inside the file), and makes
// sure none leads to one of the pages above it. It remembers what it
// checked for the snapshot, so a scan or a load pays for each branch page
// once; branch pages are about one page in a hundred.
//
// What it checked holds for one snapshot of the file, so it keeps it by
// snapshot: one state for the write transaction, and one for each of the
// last two snapshots read. The two kinds never share a state, though they
// can share a transaction id (see Snapshot.TxID): a reader handed the
// writer's state would judge the new snapshot by the free-page list the
// writer began from, and the pages the writer took from that list and
// filled would look both in use and free.
type Guard struct {
	f io.ReaderAt

	mu    sync.Mutex
	write state    // the write transaction's
	reads [2]state // the last two snapshots read
}

// NewGuard returns the guard of the file f.
func NewGuard(f io.ReaderAt) *Guard { return &Guard{f: f} }

// state is what the guard checked in one snapshot.
type state struct {
	txid  uint64
	pages map[uint64]*branchInfo
	free  map[uint64]bool // for a write: the pages the free-page list names
	fits  map[uint64]bool // for a write: the leaves whose overflow pages lie in the file
}

func newState(txid uint64) state { return state{txid: txid, pages: map[uint64]*branchInfo{}} }

// stateOf returns the state kept for s, a new one when the guard keeps
// none for it. The caller holds g.mu.
func (g *Guard) stateOf(s Snapshot) *state {
	if s.Writable {
		// Two write transactions with one id start from one snapshot:
		// the first was rolled back, or it would have taken the id.
		if g.write.pages == nil || g.write.txid != s.TxID {
			g.write = newState(s.TxID)
		}
		return &g.write
	}
	for i := range g.reads {
		if st := &g.reads[i]; st.pages != nil && st.txid == s.TxID {
			return st
		}
	}
	old := &g.reads[0]
	if g.reads[1].pages == nil || g.reads[1].txid < old.txid {
		old = &g.reads[1]
	}
	*old = newState(s.TxID)
	return old
}

// Forget drops what the guard checked for the write transaction that
// committed: the next one starts from another snapshot.
func (g *Guard) Forget() {
	g.mu.Lock()
	g.write = state{}
	g.mu.Unlock()
}

// Reset drops everything the guard checked.
func (g *Guard) Reset() {
	g.mu.Lock()
	g.write, g.reads = state{}, [2]state{}
	g.mu.Unlock()
}

// Checker checks the pages of one snapshot for one transaction.
type Checker struct {
	g    *Guard
	snap Snapshot
	r    Reader
	own  *state // a fresh checker's own state: it neither uses nor keeps what the guard keeps
}

// Checker returns a checker of snapshot s. A fresh checker reads every
// page anew, trusting nothing the guard kept (a damage finding is
// confirmed with one), and keeps what it reads to itself.
func (g *Guard) Checker(s Snapshot, fresh bool) *Checker {
	c := &Checker{g: g, snap: s, r: Reader{F: g.f, Size: s.Size, PageSize: s.PageSize, HWM: s.HWM()}}
	if fresh {
		st := newState(s.TxID)
		c.own = &st
	}
	return c
}

// Snapshot is the snapshot c checks.
func (c *Checker) Snapshot() Snapshot { return c.snap }

// Reader is a reader of the pages of c's snapshot.
func (c *Checker) Reader() *Reader { return &c.r }

// lock takes the guard's lock and returns the state to use.
func (c *Checker) lock() *state {
	c.g.mu.Lock()
	if c.own != nil {
		return c.own
	}
	return c.g.stateOf(c.snap)
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

// Check makes sure that the pages of the tree rooted at root that serve
// keys lo to hi (nil: the tree's start, its end) lead nowhere back up,
// and, for a write, that none is on the free-page list the write began
// from. With next it also covers the page after hi, where a scanning
// cursor steps before it sees that it is past hi. For a single key (lo
// equal to hi, not next) it returns the range [from, to) of keys that
// take the same way down, so that later keys in it need no check (to nil:
// no end). Damage is a *PageError.
func (c *Checker) Check(root uint64, lo, hi []byte, next bool) (from, to []byte, err error) {
	st := c.lock()
	defer c.g.mu.Unlock()
	if c.snap.Writable && st.free == nil {
		if err := st.readFree(c.g.f, &c.r, c.snap.TxID-1); err != nil {
			return nil, nil, err
		}
	}
	var stack [MaxTreeDepth]uint64
	w := guardWalk{s: st, r: &c.r, lo: lo, hi: hi, next: next}
	return w.walk(root, stack[:0], nil, nil)
}

// branchIn is branch for a reader of c's snapshot.
func (c *Checker) branchIn(id uint64) (*branchInfo, error) {
	st := c.lock()
	defer c.g.mu.Unlock()
	return st.branch(&c.r, id)
}

// readFree reads the free-page list a write transaction starts from, so
// that the guard can refuse a write that would allocate a page in use. It
// reads the header itself; when its meta is not the one the transaction
// began from (base), it leaves the check out rather than guess.
func (s *state) readFree(f io.ReaderAt, r *Reader, base uint64) error {
	s.free = map[uint64]bool{}
	h := ReadHeader(f, r.Size)
	if h.Use < 0 || h.Meta().TxID != base || h.Meta().Freelist == NoFreelist {
		return nil
	}
	ids, err := r.Freelist(h.Meta().Freelist)
	if err != nil {
		return err
	}
	for _, id := range ids {
		s.free[id] = true
	}
	return nil
}

// Slot is the child a lookup of key goes down to, as the engine picks it:
// the last whose key is at most key, else the first.
func Slot(keys [][]byte, key []byte) int {
	i, exact := slices.BinarySearchFunc(keys, key, bytes.Compare)
	if !exact && i > 0 {
		i--
	}
	return i
}

// branch reads and checks page id, once per snapshot.
func (s *state) branch(r *Reader, id uint64) (*branchInfo, error) {
	if b, ok := s.pages[id]; ok {
		return b, nil
	}
	h, err := r.Head(id)
	if err != nil {
		return nil, err
	}
	b := &branchInfo{leaf: h.Flags == FlagLeaf}
	if !b.leaf {
		_, buf, err := r.Read(h, FlagBranch)
		if err != nil {
			return nil, err
		}
		es, err := ParseElems(h, buf)
		if err != nil {
			return nil, &PageError{ID: id, What: err.Error()}
		}
		if len(es) == 0 {
			return nil, &PageError{ID: id, What: "is a branch page with no entries"}
		}
		// The keys stay in buf, the page's own copy, which nothing writes.
		b.keys, b.kids = make([][]byte, len(es)), make([]uint64, len(es))
		for i, e := range es {
			if e.Child < 2 || e.Child >= r.HWM {
				return nil, &PageError{ID: id, What: fmt.Sprintf("leads to page %d, outside the %d pages the file counts", e.Child, r.HWM)}
			}
			b.keys[i], b.kids[i] = e.Key, e.Child
		}
		first, err := r.Head(b.kids[0])
		if err != nil {
			return nil, err
		}
		switch first.Flags {
		case FlagLeaf:
			b.leaves = true
		case FlagBranch:
		default:
			return nil, &PageError{ID: first.ID, What: "is a " + first.Kind() + " page where a data page belongs"}
		}
	}
	s.pages[id] = b
	return b, nil
}
