package values

import (
	"bytes"
	"encoding/binary"
	"fmt"
	"sync"
	"sync/atomic"

	"github.com/tstable/tstable/odata"
	"github.com/tstable/tstable/store/internal/boltfile"
)

// Shapes. In a file of format 2 each table has a dictionary of shapes:
// a shape is the names and types of an entity's properties, in order,
// and a stored value names its shape by number instead of holding the
// names (codec2.go). A table's entities mostly share a few shapes, so the
// names are stored once per table and not once per entity.
//
// The dictionaries of all tables are the top-level bucket ShapesBucket:
// Shape n of a table is stored under the table's incarnation (8 bytes)
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
// without a gap; a table holds at most MaxShapes of them, of
// MaxShapeBytes in all: past that, entities of new shapes name their
// properties themselves (shape 0), as a table with millions of distinct
// property names needs.

// Shape is one entry of a dictionary.
type Shape struct {
	Names []string
	Types []odata.EdmType
	Def   string // its definition, as stored
}

// AppendShapeDef appends the definition of the shape of props.
func AppendShapeDef(dst []byte, props []odata.Property) []byte {
	for _, p := range props {
		dst = append(dst, byte(p.Value.Type))
		dst = binary.AppendUvarint(dst, uint64(len(p.Name)))
		dst = append(dst, p.Name...)
	}
	return dst
}

// ParseShape reads a definition.
func ParseShape(def []byte) (*Shape, error) {
	s := &Shape{Def: string(def)}
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
		s.Names = append(s.Names, s.Def[at:at+int(n)])
		s.Types = append(s.Types, t)
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

// ShapeSet is the shapes of one dictionary known so far: shape n is
// list[n-1]. It is never changed once made (with makes a new one).
type ShapeSet struct {
	List  []*Shape
	ids   map[string]uint64 // definition → number
	bytes int               // the definitions' bytes
}

// With is s and more, numbered after s's.
func (s *ShapeSet) With(more ...*Shape) *ShapeSet {
	n := &ShapeSet{List: make([]*Shape, 0, len(s.List)+len(more)), ids: make(map[string]uint64, len(s.List)+len(more)), bytes: s.bytes}
	n.List = append(append(n.List, s.List...), more...)
	for i, sh := range n.List {
		n.ids[sh.Def] = uint64(i + 1)
	}
	for _, sh := range more {
		n.bytes += len(sh.Def)
	}
	return n
}

// EmptyShapes is the dictionary of no shape.
var EmptyShapes = &ShapeSet{ids: map[string]uint64{}}

// ShapeSource is where a view of a table's dictionary reads the shapes
// it does not know and writes those it adds: the bucket of the tables'
// dictionaries in one transaction (the store's), and what the store
// keeps of them between transactions.
type ShapeSource interface {
	// ScanDefs calls fn with each key and definition of the bucket of
	// the dictionaries after the key after, in order, until fn returns
	// false; with no such bucket in the file, it calls nothing.
	ScanDefs(after []byte, fn func(k, def []byte) bool) error
	// DefAt returns the definition at key, nil when there is none.
	DefAt(key []byte) ([]byte, error)
	// PutDef stores a new shape's definition at key (a write
	// transaction), making the bucket when the file has none.
	PutDef(key, def []byte) error
	// Admits reports whether the dictionary of inc may take shape id,
	// defined as def, besides the bounds of MaxShapes and MaxShapeBytes
	// (a file of format 3 takes one only while the copy of the
	// dictionaries in its header still holds every shape with it).
	Admits(inc, id uint64, def []byte) (bool, error)
	// Learn hears of the dictionary of inc as the view read it whole.
	Learn(inc uint64, s *ShapeSet)
	// Added hears of shape id, added to the dictionary of inc.
	Added(inc, id uint64, sh *Shape)
}

// NewShapeView is the dictionary of the table whose incarnation is inc,
// as src holds it; known is what the store knows of it already.
func NewShapeView(src ShapeSource, inc uint64, known *ShapeSet) *ShapeView {
	v := &ShapeView{src: src, inc: inc}
	v.set.Store(known)
	return v
}

// StaticShapes is a dictionary read whole already, for a codec that reads
// no transaction (Check, Recover).
func StaticShapes(inc uint64, s *ShapeSet) *ShapeView {
	v := &ShapeView{inc: inc, full: true}
	v.set.Store(s)
	return v
}

// GappedShapes is a dictionary whose list may have gaps (nil).
func GappedShapes(list []*Shape) *ShapeSet {
	s := &ShapeSet{List: list, ids: map[string]uint64{}}
	for i, sh := range list {
		if sh != nil {
			s.ids[sh.Def] = uint64(i + 1)
			s.bytes += len(sh.Def)
		}
	}
	return s
}

// Lacks reports whether the dictionary s has no shape id (a gap, or past
// its end): an entity that names it cannot be read with s, but need not
// belong to another table.
func (s *ShapeSet) Lacks(id uint64) bool {
	return id == 0 || id > uint64(len(s.List)) || s.List[id-1] == nil
}

// ShapeView is one table's dictionary as one transaction sees it.
type ShapeView struct {
	src  ShapeSource // the transaction's; nil: a view of none (Check's, Recover's), read whole already
	inc  uint64      // the table's incarnation; 0: the table has none (damage, if a value names a shape)
	set  atomic.Pointer[ShapeSet]
	mu   sync.Mutex // one reader of the dictionary at a time
	full bool       // set holds every shape of the transaction's dictionary
	// admitsNone: the source admitted no shape this view would have
	// added, and no other is tried in its transaction.
	admitsNone bool
}

// get returns shape id, reading the dictionary when the view does not
// know it yet.
func (v *ShapeView) get(id uint64) (*Shape, error) {
	if s := v.set.Load(); id-1 < uint64(len(s.List)) && s.List[id-1] != nil { // (0 wraps round, and a gap goes, the slow way)
		return s.List[id-1], nil
	}
	return v.getRead(id)
}

// getRead is get's slow way: the dictionary read first.
func (v *ShapeView) getRead(id uint64) (*Shape, error) {
	if id == 0 {
		return nil, errCorrupt
	}
	if err := v.readAll(); err != nil {
		return nil, err
	}
	if s := v.set.Load(); id <= uint64(len(s.List)) && s.List[id-1] != nil { // a gap (Recover's dictionaries only) is a shape it lacks
		return s.List[id-1], nil
	}
	return nil, errCorrupt
}

// readAll reads every shape of the transaction's dictionary that the
// view does not know (once), and hands what it read to the source.
func (v *ShapeView) readAll() error {
	v.mu.Lock()
	defer v.mu.Unlock()
	if v.full {
		return nil
	}
	s := v.set.Load()
	if v.inc != 0 {
		more, err := readShapes(v.src, v.inc, uint64(len(s.List))+1)
		if err != nil {
			return err
		}
		s = s.With(more...)
	}
	v.set.Store(s)
	v.full = true
	v.src.Learn(v.inc, s)
	return nil
}

// readShapes reads the shapes of inc's dictionary from number from on.
func readShapes(src ShapeSource, inc, from uint64) ([]*Shape, error) {
	var out []*Shape
	var bad error
	prefix := IncarnationKey(inc)
	err := src.ScanDefs(ShapeKey(inc, from-1), func(k, def []byte) bool {
		if !bytes.HasPrefix(k, prefix) {
			return false
		}
		id := from + uint64(len(out))
		if len(k) != 12 || uint64(binary.BigEndian.Uint32(k[8:])) != id {
			bad = &shapeError{fmt.Sprintf("the table's dictionary lacks shape %d", id)}
			return false
		}
		s, err := ParseShape(def)
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
func (e *shapeError) Unwrap() error { return boltfile.ErrDamaged }

// id returns the number of the shape of props, adding it to the table's
// dictionary (in t, a write transaction) when it is new and the
// dictionary has room; 0 when it has none.
func (v *ShapeView) id(props []odata.Property, scratch *[]byte) (uint64, error) {
	def := AppendShapeDef((*scratch)[:0], props)
	*scratch = def
	return v.idOf(def)
}

// idOf is id for the shape whose definition is def.
func (v *ShapeView) idOf(def []byte) (uint64, error) {
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
	if len(s.List) >= MaxShapes || s.bytes+len(def) > MaxShapeBytes || v.inc == 0 || v.src == nil || v.admitsNone {
		return 0, nil // (a view of no transaction, as Check's, adds nothing)
	}
	if ok, err := v.src.Admits(v.inc, uint64(len(s.List))+1, def); err != nil || !ok {
		v.admitsNone = err == nil
		return 0, err // the names go inline
	}
	return v.add(def)
}

// add adds the shape def to the dictionary, as its next number (the
// view has read the whole dictionary).
func (v *ShapeView) add(def []byte) (uint64, error) {
	sh, err := ParseShape(def)
	if err != nil {
		return 0, err
	}
	s := v.set.Load()
	id := uint64(len(s.List)) + 1
	if old, err := v.src.DefAt(ShapeKey(v.inc, id)); err != nil || old != nil {
		if err == nil {
			err = &shapeError{fmt.Sprintf("the table's dictionary holds shape %d, which it did not read", id)}
		}
		return 0, err
	}
	if err := v.src.PutDef(ShapeKey(v.inc, id), []byte(sh.Def)); err != nil {
		return 0, err
	}
	v.set.Store(s.With(sh))
	v.src.Added(v.inc, id, sh)
	return id, nil
}

// IncarnationKey is where a dictionary's keys start, ShapeKey the key of
// one of its shapes.
func IncarnationKey(inc uint64) []byte { return binary.BigEndian.AppendUint64(nil, inc) }
func ShapeKey(inc, id uint64) []byte {
	return binary.BigEndian.AppendUint32(IncarnationKey(inc), uint32(id))
}

// IncarnationOf reads a shape's key (12 bytes): its table's incarnation
// and its number.
func IncarnationOf(k []byte) (inc, id uint64) {
	return binary.BigEndian.Uint64(k), uint64(binary.BigEndian.Uint32(k[8:]))
}
