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

// createDictionaries makes the bucket of the tables' dictionaries, with
// an empty bucket inside it (values.ShapesPin) so that the engine never stores
// it inside the page of the list of tables (it stores a small bucket
// without buckets of its own there): the dictionaries stay on pages of
// their own, written only when a shape is added, where Recover finds
// them even when the list of tables, the file's most written page, is
// lost.
func createDictionaries(t *gtx) (*gbucket, error) {
	d, err := t.createTop(values.ShapesBucket)
	if err != nil {
		return nil, err
	}
	_, err = d.createBucket(values.ShapesPin)
	return d, err
}

// newIncarnation gives a table's bucket, just made in t, its incarnation:
// a Timestamp issued by t (see nextTicks), so that it is unique in the
// file, as the file's clock only goes forward, and no dictionary of the
// file has it.
func newIncarnation(t *gtx, b *gbucket) error {
	top, err := t.top(values.ShapesBucket)
	if err != nil {
		return err
	}
	for {
		inc, err := t.nextTicks(0)
		if err != nil {
			return err
		}
		if top != nil {
			if first, err := top.get(values.ShapeKey(uint64(inc), 1)); err != nil || first != nil {
				if err != nil {
					return err
				}
				continue
			}
		}
		t.touchSpare()
		return b.setSequence(uint64(inc))
	}
}

// dropDictionary deletes the dictionary of the table whose bucket is b
// (being deleted, or replaced), when it has one.
func dropDictionary(t *gtx, b *gbucket) error {
	t.touchSpare()
	inc := b.sequence()
	if inc == 0 {
		return nil
	}
	top, err := t.top(values.ShapesBucket)
	if err != nil || top == nil {
		return err
	}
	return top.delPrefix(values.IncarnationKey(inc))
}

// newTxShapeView is the dictionary of the table whose incarnation is
// inc, in t: what the DB knows of it, and (for a write transaction) what the
// running one added, read on from t.
func newTxShapeView(t *gtx, inc uint64) *values.ShapeView {
	s := t.o.db.shapes.known(inc)
	if t.writable() {
		s = t.o.db.shapes.withPending(inc, s)
	}
	return values.NewShapeView(txShapes{t}, inc, s)
}

// txShapes is the bucket of the tables' dictionaries in one transaction,
// and the DB's cache of them, as a shape view reads and writes them.
type txShapes struct{ t *gtx }

// ScanDefs implements values.ShapeSource.
func (s txShapes) ScanDefs(after []byte, fn func(k, def []byte) bool) error {
	d, err := s.t.top(values.ShapesBucket)
	if err != nil || d == nil {
		return err
	}
	return d.scan(after, fn)
}

// DefAt implements values.ShapeSource.
func (s txShapes) DefAt(key []byte) ([]byte, error) {
	d, err := s.t.top(values.ShapesBucket)
	if err != nil || d == nil {
		return nil, err
	}
	return d.get(key)
}

// PutDef implements values.ShapeSource.
func (s txShapes) PutDef(key, def []byte) error {
	d, err := s.t.top(values.ShapesBucket)
	if err != nil {
		return err
	}
	if d == nil {
		if d, err = createDictionaries(s.t); err != nil {
			return err
		}
	}
	return d.put(key, def)
}

// Learn implements values.ShapeSource: what is committed goes to the DB's cache.
func (s txShapes) Learn(inc uint64, set *values.ShapeSet) {
	s.t.o.db.shapes.learnRead(inc, set, s.t.writable())
}

// Added implements values.ShapeSource: the DB's cache takes the shape once the
// transaction commits, and the header's copy is written again.
func (s txShapes) Added(inc, id uint64, sh *values.Shape) {
	s.t.o.db.shapes.added(inc, id, sh)
	s.t.touchSpare()
}
