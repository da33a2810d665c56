package store

import (
	"bytes"
	"encoding/binary"
	"fmt"
	"sync"
	"sync/atomic"

	"github.com/tstable/tstable/odata"
)

// Shapes. In a file of format 2 each table has a dictionary of shapes:
// a shape is the names and types of an entity's properties, in order,
// and a stored value names its shape by number instead of holding the
// names (codec2.go). A table's entities mostly share a few shapes, so the
// names are stored once per table and not once per entity.
//
// The dictionaries of all tables are the top-level bucket shapesBucket:
// shape n of a table is stored under the table's incarnation (8 bytes)
// and n (4 bytes), both big-endian, as its definition (per property: 1
// byte Edm type, uvarint name length, name). The incarnation is a number
// unique in the file (a tick of its clock) that the table's bucket holds
// as its sequence, given when the bucket is made (a table created, or
// staged by a load), so that a table
// deleted and created again, or one that a load puts in place, has a
// dictionary of its own, which moves with it and goes with it. Each entry
// names its table, so that Recover can read a dictionary from any page
// that holds part of it. Shapes are only ever added, in the same write
// transaction as the first entity of that shape, and numbered from 1
// without a gap; a table holds at most maxShapes of them, of
// maxShapeBytes in all: past that, entities of new shapes name their
// properties themselves (shape 0), as a table with millions of distinct
// property names needs.
//
// Readers decode a shape once per process: the DB keeps each
// incarnation's shapes (a shapeSet), which only ever grows and holds only
// what is committed. A read transaction adds what it reads of its own
// snapshot (all committed); a write transaction keeps the shapes it adds
// to itself (one write transaction runs at a time: DB.pending) and the DB
// takes them once it commits. What the DB keeps is forgotten whenever it
// opens the file again (another process may have changed it meanwhile),
// so it is never more than a prefix of the file's dictionary.

// shapesBucket is the top-level bucket of the tables' dictionaries.
var shapesBucket = []byte("shapes")

// The bounds of one table's dictionary.
const (
	maxShapes     = 4096
	maxShapeBytes = 1 << 20
)

// shape is one entry of a dictionary.
type shape struct {
	names []string
	types []odata.EdmType
	def   string // its definition, as stored
}

// appendShapeDef appends the definition of the shape of props.
func appendShapeDef(dst []byte, props []odata.Property) []byte {
	for _, p := range props {
		dst = append(dst, byte(p.Value.Type))
		dst = binary.AppendUvarint(dst, uint64(len(p.Name)))
		dst = append(dst, p.Name...)
	}
	return dst
}

// parseShape reads a definition.
func parseShape(def []byte) (*shape, error) {
	s := &shape{def: string(def)}
	for i := 0; i < len(def); {
		t := odata.EdmType(def[i])
		if t < odata.EdmString || t > odata.EdmBinary {
			return nil, fmt.Errorf("a shape names Edm type %d", t)
		}
		n, w := binary.Uvarint(def[i+1:])
		if w <= 0 || n == 0 || n > uint64(len(def)-i-1-w) || w != uvarintLen(n) {
			return nil, fmt.Errorf("a shape's property name is cut short")
		}
		at := i + 1 + w
		s.names = append(s.names, s.def[at:at+int(n)])
		s.types = append(s.types, t)
		i = at + int(n)
	}
	return s, nil
}

// uvarintLen is how many bytes binary.AppendUvarint writes for n: a
// definition holds each length so, and only so, that one shape has one
// definition.
func uvarintLen(n uint64) int {
	w := 1
	for ; n >= 0x80; n >>= 7 {
		w++
	}
	return w
}

// shapeSet is the shapes of one dictionary known so far: shape n is
// list[n-1]. It is never changed once made (with makes a new one).
type shapeSet struct {
	list  []*shape
	ids   map[string]uint64 // definition → number
	bytes int               // the definitions' bytes
}

// with is s and more, numbered after s's.
func (s *shapeSet) with(more ...*shape) *shapeSet {
	n := &shapeSet{list: make([]*shape, 0, len(s.list)+len(more)), ids: make(map[string]uint64, len(s.list)+len(more)), bytes: s.bytes}
	n.list = append(append(n.list, s.list...), more...)
	for i, sh := range n.list {
		n.ids[sh.def] = uint64(i + 1)
	}
	for _, sh := range more {
		n.bytes += len(sh.def)
	}
	return n
}

var emptyShapes = &shapeSet{ids: map[string]uint64{}}

// shapeCache is what a DB keeps of its tables' dictionaries, by
// incarnation: what is committed, and what the running write transaction
// added.
type shapeCache struct {
	mu        sync.Mutex
	committed map[uint64]*shapeSet
	pending   map[uint64]*pendingShapes // the write transaction's; nil between them
}

// pendingShapes is what one write transaction did to one dictionary.
type pendingShapes struct {
	base  uint64   // the number of shapes committed before it
	added []*shape // numbered from base+1
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
		if s := c.committed[inc]; s != nil && uint64(len(s.list)) == p.base {
			c.committed[inc] = s.with(p.added...)
		} else {
			delete(c.committed, inc) // read again when needed
		}
	}
	c.pending = nil
}

// known returns the committed shapes of inc known so far.
func (c *shapeCache) known(inc uint64) *shapeSet {
	c.mu.Lock()
	defer c.mu.Unlock()
	if s := c.committed[inc]; s != nil {
		return s
	}
	return emptyShapes
}

// learnRead records the shapes of inc a transaction read: all of s when
// it is a read transaction, else those committed before it (the running
// write transaction's own are not yet).
func (c *shapeCache) learnRead(inc uint64, s *shapeSet, write bool) {
	if write {
		c.mu.Lock()
		p := c.pending[inc]
		c.mu.Unlock()
		if p != nil {
			if p.base == 0 {
				return
			}
			s = emptyShapes.with(s.list[:min(uint64(len(s.list)), p.base)]...)
		}
	}
	c.learn(inc, s)
}

// learn records committed shapes of inc read from the file: s, when it
// knows more than the cache does.
func (c *shapeCache) learn(inc uint64, s *shapeSet) {
	c.mu.Lock()
	defer c.mu.Unlock()
	if cur := c.committed[inc]; cur == nil || len(cur.list) < len(s.list) {
		if c.committed == nil {
			c.committed = map[uint64]*shapeSet{}
		}
		c.committed[inc] = s
	}
}

// shapeView is one table's dictionary as one transaction sees it.
type shapeView struct {
	t    *gtx
	inc  uint64 // the table's incarnation; 0: the table has none (damage, if a value names a shape)
	set  atomic.Pointer[shapeSet]
	mu   sync.Mutex // one reader of the dictionary at a time
	full bool       // set holds every shape of the transaction's dictionary
	// copyFull: the copy in the header had no room for a shape this
	// transaction would have added (format 3; see gtx.spareHolds), and
	// no other is tried until the next transaction.
	copyFull bool
}

// newShapeView is the dictionary of the table whose incarnation is inc,
// in t.
func newShapeView(t *gtx, inc uint64) *shapeView {
	v := &shapeView{t: t, inc: inc}
	s := t.o.db.shapes.known(inc)
	if t.writable() {
		s = t.o.db.shapes.withPending(inc, s)
	}
	v.set.Store(s)
	return v
}

// withPending is s with what the running write transaction added to inc.
func (c *shapeCache) withPending(inc uint64, s *shapeSet) *shapeSet {
	c.mu.Lock()
	p := c.pending[inc]
	c.mu.Unlock()
	if p == nil || len(p.added) == 0 || uint64(len(s.list)) != p.base {
		return s
	}
	return s.with(p.added...)
}

// get returns shape id, reading the dictionary when the view does not
// know it yet.
func (v *shapeView) get(id uint64) (*shape, error) {
	if s := v.set.Load(); id-1 < uint64(len(s.list)) && s.list[id-1] != nil { // (0 wraps round, and a gap goes, the slow way)
		return s.list[id-1], nil
	}
	return v.getRead(id)
}

// getRead is get's slow way: the dictionary read first.
func (v *shapeView) getRead(id uint64) (*shape, error) {
	if id == 0 {
		return nil, errCorrupt
	}
	if err := v.readAll(); err != nil {
		return nil, err
	}
	if s := v.set.Load(); id <= uint64(len(s.list)) && s.list[id-1] != nil { // a gap (Recover's dictionaries only) is a shape it lacks
		return s.list[id-1], nil
	}
	return nil, errCorrupt
}

// dictionaries returns the bucket of the dictionaries in the
// transaction, nil when the file has none yet.
func (v *shapeView) dictionaries() (*gbucket, error) {
	if v.inc == 0 {
		return nil, nil
	}
	return v.t.top(shapesBucket)
}

// readAll reads every shape of the transaction's dictionary that the
// view does not know (once), and hands what is committed to the DB.
func (v *shapeView) readAll() error {
	v.mu.Lock()
	defer v.mu.Unlock()
	if v.full {
		return nil
	}
	d, err := v.dictionaries()
	if err != nil {
		return err
	}
	s := v.set.Load()
	if d != nil {
		var more []*shape
		if more, err = readShapes(d, v.inc, uint64(len(s.list))+1); err != nil {
			return err
		}
		s = s.with(more...)
	}
	v.set.Store(s)
	v.full = true
	v.t.o.db.shapes.learnRead(v.inc, s, v.t.writable())
	return nil
}

// readShapes reads the shapes of inc's dictionary from number from on.
func readShapes(d *gbucket, inc, from uint64) ([]*shape, error) {
	var out []*shape
	var bad error
	prefix := incarnationKey(inc)
	err := d.scan(shapeKey(inc, from-1), func(k, def []byte) bool {
		if !bytes.HasPrefix(k, prefix) {
			return false
		}
		id := from + uint64(len(out))
		if len(k) != 12 || uint64(binary.BigEndian.Uint32(k[8:])) != id {
			bad = &shapeError{fmt.Sprintf("the table's dictionary lacks shape %d", id)}
			return false
		}
		s, err := parseShape(def)
		if err != nil {
			bad = &shapeError{fmt.Sprintf("shape %d of the table's dictionary is unreadable: %s", id, err)}
			return false
		}
		out = append(out, s)
		return true
	})
	if err == nil {
		err = bad
	}
	return out, err
}

// shapeError is a dictionary that does not read: damage.
type shapeError struct{ what string }

func (e *shapeError) Error() string { return e.what }

// Unwrap marks the error as damage.
func (e *shapeError) Unwrap() error { return ErrDamaged }

// id returns the number of the shape of props, adding it to the table's
// dictionary (in t, a write transaction) when it is new and the
// dictionary has room; 0 when it has none.
func (v *shapeView) id(props []odata.Property, scratch *[]byte) (uint64, error) {
	def := appendShapeDef((*scratch)[:0], props)
	*scratch = def
	return v.idOf(def)
}

// idOf is id for the shape whose definition is def.
func (v *shapeView) idOf(def []byte) (uint64, error) {
	s := v.set.Load()
	if id, ok := s.ids[string(def)]; ok {
		return id, nil
	}
	if !v.full {
		if err := v.readAll(); err != nil {
			return 0, err
		}
		s = v.set.Load()
		if id, ok := s.ids[string(def)]; ok {
			return id, nil
		}
	}
	if len(s.list) >= maxShapes || s.bytes+len(def) > maxShapeBytes || v.inc == 0 || v.t == nil {
		return 0, nil // (a view of no transaction, as Check's, adds nothing)
	}
	if v.copyFull {
		return 0, nil
	}
	if ok, err := v.t.spareHolds(v.inc, uint64(len(s.list))+1, def); err != nil || !ok {
		v.copyFull = err == nil
		return 0, err // the copy in the header is full: the names go inline
	}
	return v.add(def)
}

// add adds the shape def to the dictionary, as its next number (the
// view has read the whole dictionary).
func (v *shapeView) add(def []byte) (uint64, error) {
	d, err := v.dictionaries()
	if err != nil {
		return 0, err
	}
	if d == nil {
		if d, err = createDictionaries(v.t); err != nil {
			return 0, err
		}
	}
	sh, err := parseShape(def)
	if err != nil {
		return 0, err
	}
	s := v.set.Load()
	id := uint64(len(s.list)) + 1
	if old, err := d.get(shapeKey(v.inc, id)); err != nil || old != nil {
		if err == nil {
			err = &shapeError{fmt.Sprintf("the table's dictionary holds shape %d, which it did not read", id)}
		}
		return 0, err
	}
	if err := d.put(shapeKey(v.inc, id), []byte(sh.def)); err != nil {
		return 0, err
	}
	v.set.Store(s.with(sh))
	v.t.o.db.shapes.added(v.inc, id, sh)
	v.t.touchSpare()
	return id, nil
}

// added records shape id, added to inc by the running write transaction.
func (c *shapeCache) added(inc, id uint64, sh *shape) {
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
// an empty bucket inside it (shapesPin) so that the engine never stores
// it inside the page of the list of tables (it stores a small bucket
// without buckets of its own there): the dictionaries stay on pages of
// their own, written only when a shape is added, where Recover finds
// them even when the list of tables, the file's most written page, is
// lost.
func createDictionaries(t *gtx) (*gbucket, error) {
	d, err := t.createTop(shapesBucket)
	if err != nil {
		return nil, err
	}
	_, err = d.createBucket(shapesPin)
	return d, err
}

// shapesPin is the empty bucket that keeps the dictionaries on pages of
// their own; it sorts after every shape (an incarnation is below 2^63).
var shapesPin = []byte{0xFF}

// incarnationKey is where a dictionary's keys start, shapeKey the key of
// one of its shapes.
func incarnationKey(inc uint64) []byte { return binary.BigEndian.AppendUint64(nil, inc) }
func shapeKey(inc, id uint64) []byte {
	return binary.BigEndian.AppendUint32(incarnationKey(inc), uint32(id))
}

// incarnationOf reads a shape's key (12 bytes): its table's incarnation
// and its number.
func incarnationOf(k []byte) (inc, id uint64) {
	return binary.BigEndian.Uint64(k), uint64(binary.BigEndian.Uint32(k[8:]))
}

// newIncarnation gives a table's bucket, just made in t, its incarnation:
// a Timestamp issued by t (see nextTicks), so that it is unique in the
// file, as the file's clock only goes forward, and no dictionary of the
// file has it.
func newIncarnation(t *gtx, b *gbucket) error {
	top, err := t.top(shapesBucket)
	if err != nil {
		return err
	}
	for {
		inc, err := t.nextTicks(0)
		if err != nil {
			return err
		}
		if top != nil {
			if first, err := top.get(shapeKey(uint64(inc), 1)); err != nil || first != nil {
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
	top, err := t.top(shapesBucket)
	if err != nil || top == nil {
		return err
	}
	return top.delPrefix(incarnationKey(inc))
}
