package store

import (
	"sync"

	"github.com/tstable/tstable/store/internal/values"
)

// Readers decode a shape once per process: the DB keeps each
// incarnation's shapes (a values.ShapeSet), which only ever grows and holds only
// what is committed. A read transaction adds what it reads of its own
// snapshot (all committed); a write transaction keeps the shapes it adds
// to itself (one write transaction runs at a time: DB.pending) and the DB
// takes them once it commits. What the DB keeps is forgotten whenever it
// opens the file again (another process may have changed it meanwhile),
// so it is never more than a prefix of the file's dictionary.

// shapeCache is what a DB keeps of its tables' dictionaries, by
// incarnation: what is committed, and what the running write transaction
// added.
type shapeCache struct {
	mu        sync.Mutex
	committed map[uint64]*values.ShapeSet
	pending   map[uint64]*pendingShapes // the write transaction's; nil between them
}

// pendingShapes is what one write transaction did to one dictionary.
type pendingShapes struct {
	base  uint64          // the number of shapes committed before it
	added []*values.Shape // numbered from base+1
}

// reset forgets everything: the file was opened again.
func (c *shapeCache) reset() {
	c.mu.Lock()
	c.committed, c.pending = nil, nil
	c.mu.Unlock()
}

// beginWrite forgets what an earlier write transaction that did not
// commit added.
func (c *shapeCache) beginWrite() {
	c.mu.Lock()
	c.pending = nil
	c.mu.Unlock()
}

// committedWrite takes in what the write transaction that just committed
// added.
func (c *shapeCache) committedWrite() {
	c.mu.Lock()
	defer c.mu.Unlock()
	for inc, p := range c.pending {
		if len(p.added) == 0 {
			continue
		}
		if s := c.committed[inc]; s != nil && uint64(len(s.List)) == p.base {
			c.committed[inc] = s.With(p.added...)
		} else {
			delete(c.committed, inc) // read again when needed
		}
	}
	c.pending = nil
}

// known returns the committed shapes of inc known so far.
func (c *shapeCache) known(inc uint64) *values.ShapeSet {
	c.mu.Lock()
	defer c.mu.Unlock()
	if s := c.committed[inc]; s != nil {
		return s
	}
	return values.EmptyShapes
}

// learnRead records the shapes of inc a transaction read: all of s when
// it is a read transaction, else those committed before it (the running
// write transaction's own are not yet).
func (c *shapeCache) learnRead(inc uint64, s *values.ShapeSet, write bool) {
	if write {
		c.mu.Lock()
		p := c.pending[inc]
		c.mu.Unlock()
		if p != nil {
			if p.base == 0 {
				return
			}
			s = values.EmptyShapes.With(s.List[:min(uint64(len(s.List)), p.base)]...)
		}
	}
	c.learn(inc, s)
}

// learn records committed shapes of inc read from the file: s, when it
// knows more than the cache does.
func (c *shapeCache) learn(inc uint64, s *values.ShapeSet) {
	c.mu.Lock()
	defer c.mu.Unlock()
	if cur := c.committed[inc]; cur == nil || len(cur.List) < len(s.List) {
		if c.committed == nil {
			c.committed = map[uint64]*values.ShapeSet{}
		}
		c.committed[inc] = s
	}
}

// withPending is s with what the running write transaction added to inc.
func (c *shapeCache) withPending(inc uint64, s *values.ShapeSet) *values.ShapeSet {
	c.mu.Lock()
	p := c.pending[inc]
	c.mu.Unlock()
	if p == nil || len(p.added) == 0 || uint64(len(s.List)) != p.base {
		return s
	}
	return s.With(p.added...)
}

// added records shape id, added to inc by the running write transaction.
func (c *shapeCache) added(inc, id uint64, sh *values.Shape) {
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.pending == nil {
		c.pending = map[uint64]*pendingShapes{}
	}
	p := c.pending[inc]
	if p == nil {
		p = &pendingShapes{base: id - 1}
		c.pending[inc] = p
	}
	if p.base+uint64(len(p.added))+1 == id {
		p.added = append(p.added, sh)
	}
}
