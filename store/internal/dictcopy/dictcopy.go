// Package dictcopy is the encoding of the copy of a file's tables and
// their dictionaries of shapes that a file of format 3 keeps in the spare
// bytes of its header pages (see boltfile.Spare), so that the names of
// the properties of the entities on any page that survives can be read
// even when every page of the dictionaries is lost, or lies past where
// the file was cut. It is pure code: bytes in, values out; it knows
// nothing of the engine, the store or a file.
//
// A copy is
//
//	8 bytes  Magic
//	4 bytes  the payload's length, big-endian
//	4 bytes  the payload's CRC-32 (IEEE), big-endian
//	payload:
//	  uvarint  the transaction it was written for
//	  uvarint  the file's format
//	  1 byte   1 when it holds every shape of every dictionary, else 0
//	  uvarint  count of tables, then per table:
//	           uvarint incarnation, uvarint length, name as created
//	  uvarint  count of shapes, then per shape:
//	           uvarint incarnation, uvarint number, uvarint length, definition
//
// A copy that does not fit the room it is given keeps the tables (when
// they fit) and as many shapes as fit, in the order given, and says it is
// not complete.
package dictcopy

import (
	"encoding/binary"
	"errors"
	"hash/crc32"
)

// Magic opens every copy.
const Magic = "tsdicts3"

const headerSize = len(Magic) + 8

// Table is one table: its incarnation, which names its dictionary, and
// its name as created.
type Table struct {
	Inc  uint64
	Name string
}

// Shape is one shape of one dictionary: the table's incarnation, the
// shape's number in it, and its definition as the dictionary stores it.
type Shape struct {
	Inc, ID uint64
	Def     string
}

// Copy is what one copy holds.
type Copy struct {
	TxID, Format uint64
	Complete     bool
	Tables       []Table
	Shapes       []Shape
}

// Append appends the encoding of c to dst, in at most room bytes: with
// c's tables and as many of its shapes as fit, in c's order (Complete is
// written false when some are left out, or the tables too). It returns
// dst unchanged when not even an empty copy fits.
func Append(dst []byte, c Copy, room int) []byte {
	start := len(dst)
	if room < headerSize+3*binary.MaxVarintLen64+1 {
		return dst
	}
	dst = append(dst, Magic...)
	dst = append(dst, make([]byte, 8)...)
	body := len(dst)
	dst = binary.AppendUvarint(dst, c.TxID)
	dst = binary.AppendUvarint(dst, c.Format)
	flag := len(dst)
	dst = append(dst, 1)
	limit := start + room
	complete := true
	tables := dst
	n := len(c.Tables)
	tables = binary.AppendUvarint(tables, uint64(n))
	for _, t := range c.Tables {
		tables = binary.AppendUvarint(tables, t.Inc)
		tables = binary.AppendUvarint(tables, uint64(len(t.Name)))
		tables = append(tables, t.Name...)
	}
	if len(tables)+binary.MaxVarintLen64 > limit {
		tables = binary.AppendUvarint(dst, 0)
		complete = false
	}
	dst = tables
	// The count of shapes is written once they are chosen: keep room for
	// its longest form, and close the gap after.
	countAt := len(dst)
	dst = append(dst, make([]byte, binary.MaxVarintLen64)...)
	shapes := 0
	for _, s := range c.Shapes {
		var one [3 * binary.MaxVarintLen64]byte
		h := binary.AppendUvarint(one[:0], s.Inc)
		h = binary.AppendUvarint(h, s.ID)
		h = binary.AppendUvarint(h, uint64(len(s.Def)))
		used := len(dst) - binary.MaxVarintLen64 + len(binary.AppendUvarint(nil, uint64(shapes+1)))
		if used+len(h)+len(s.Def) > limit {
			complete = false
			break
		}
		dst = append(append(dst, h...), s.Def...)
		shapes++
	}
	count := binary.AppendUvarint(nil, uint64(shapes))
	copy(dst[countAt:], count)
	dst = append(dst[:countAt+len(count)], dst[countAt+binary.MaxVarintLen64:]...)
	if !complete {
		dst[flag] = 0
	}
	payload := dst[body:]
	binary.BigEndian.PutUint32(dst[start+len(Magic):], uint32(len(payload)))
	binary.BigEndian.PutUint32(dst[start+len(Magic)+4:], crc32.ChecksumIEEE(payload))
	return dst
}

// Fits reports whether all of c, every table and every shape, fits in
// room bytes.
func Fits(c Copy, room int) bool {
	got, err := Parse(Append(nil, c, room))
	return err == nil && got.Complete
}

// ErrNone is the error of bytes that hold no copy (never written, or
// written over).
var ErrNone = errors.New("no copy of the tables' dictionaries")

// errBroken is the error of a copy whose payload does not read.
var errBroken = errors.New("the copy of the tables' dictionaries is damaged")

// Parse reads the copy at the start of b.
func Parse(b []byte) (Copy, error) {
	if len(b) < headerSize || string(b[:len(Magic)]) != Magic {
		return Copy{}, ErrNone
	}
	n := binary.BigEndian.Uint32(b[len(Magic):])
	if uint64(n) > uint64(len(b)-headerSize) {
		return Copy{}, errBroken
	}
	payload := b[headerSize : headerSize+int(n)]
	if crc32.ChecksumIEEE(payload) != binary.BigEndian.Uint32(b[len(Magic)+4:]) {
		return Copy{}, errBroken
	}
	r := reader{b: payload}
	var c Copy
	c.TxID, c.Format = r.uvarint(), r.uvarint()
	c.Complete = r.byte() == 1
	for i, nt := uint64(0), r.count(2); i < nt && r.err == nil; i++ {
		c.Tables = append(c.Tables, Table{Inc: r.uvarint(), Name: r.text()})
	}
	for i, ns := uint64(0), r.count(3); i < ns && r.err == nil; i++ {
		c.Shapes = append(c.Shapes, Shape{Inc: r.uvarint(), ID: r.uvarint(), Def: r.text()})
	}
	if r.err == nil && r.i != len(r.b) {
		r.err = errBroken
	}
	if r.err != nil {
		return Copy{}, r.err
	}
	return c, nil
}

// reader reads a payload, remembering its first fault.
type reader struct {
	b   []byte
	i   int
	err error
}

func (r *reader) uvarint() uint64 {
	if r.err != nil {
		return 0
	}
	v, w := binary.Uvarint(r.b[r.i:])
	if w <= 0 {
		r.err = errBroken
		return 0
	}
	r.i += w
	return v
}

func (r *reader) byte() byte {
	if r.err != nil || r.i >= len(r.b) {
		r.err = errBroken
		return 0
	}
	r.i++
	return r.b[r.i-1]
}

// count reads a count of items of at least min bytes each, refusing one
// the rest of the payload cannot hold.
func (r *reader) count(min int) uint64 {
	n := r.uvarint()
	if r.err == nil && n > uint64((len(r.b)-r.i)/min) {
		r.err = errBroken
		return 0
	}
	return n
}

func (r *reader) text() string {
	n := r.uvarint()
	if r.err != nil || n > uint64(len(r.b)-r.i) {
		r.err = errBroken
		return ""
	}
	s := string(r.b[r.i : r.i+int(n)])
	r.i += int(n)
	return s
}
