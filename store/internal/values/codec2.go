package values

import (
	"bytes"
	"encoding/binary"
	"encoding/hex"
	"fmt"
	"math"

	"github.com/tstable/tstable/odata"
)

// Stored entity format 2 (the values of a file of format 2):
//
//	8 bytes  Timestamp ticks, big-endian
//	uvarint  shape: 0 when the value names its properties itself, else
//	         the number of the table's shape (its dictionary: shapes.go)
//	         that gives the properties' names and types, in order
//	then per property:
//	  with shape 0 only: uvarint name length, name bytes, 1 byte Edm type
//	  the payload, packed by type:
//	    String, Binary: uvarint length, bytes
//	    Guid: its 16 bytes, in the order its text gives them
//	    Int32, Int64: zigzag varint (-64 to 63 take one byte)
//	    Double, DateTime: 8 bytes big-endian; Boolean: 1 byte
//
// A value of shape n holds no name and no type at all: those are stored
// once per table. A filter still steps over the properties it does not
// name without decoding them (each payload says where it ends), and the
// JSON of a line is written straight from the payloads.

// guidBytes is a Guid's payload: its 16 bytes.
const guidBytes = 16

// appendPayload2 appends v's payload. A value that would not decode as
// itself (a Guid not in canonical form, an Int32 past its range, a Boolean
// neither 0 nor 1, all of which validation refuses before any write) is
// an error.
func appendPayload2(dst []byte, v odata.Value) ([]byte, error) {
	switch v.Type {
	case odata.EdmString, odata.EdmBinary:
		dst = binary.AppendUvarint(dst, uint64(len(v.Str)))
		return append(dst, v.Str...), nil
	case odata.EdmGuid:
		return appendGuid(dst, v.Str)
	case odata.EdmInt32, odata.EdmInt64:
		if v.Type == odata.EdmInt32 && int64(int32(v.Int)) != v.Int {
			return dst, fmt.Errorf("the Int32 %d is out of range", v.Int)
		}
		return binary.AppendVarint(dst, v.Int), nil
	case odata.EdmDouble:
		return binary.BigEndian.AppendUint64(dst, math.Float64bits(v.Float)), nil
	case odata.EdmDateTime:
		return binary.BigEndian.AppendUint64(dst, uint64(v.Int)), nil
	case odata.EdmBoolean:
		if v.Int != 0 && v.Int != 1 {
			return dst, fmt.Errorf("the Boolean %d is neither 0 nor 1", v.Int)
		}
		return append(dst, byte(v.Int)), nil
	}
	return dst, fmt.Errorf("a property of Edm type %d cannot be stored", v.Type)
}

// appendGuid appends the 16 bytes of a Guid in canonical form
// (8-4-4-4-12 lower-case hex digits).
func appendGuid(dst []byte, g string) ([]byte, error) {
	if len(g) != 36 || g[8] != '-' || g[13] != '-' || g[18] != '-' || g[23] != '-' {
		return dst, fmt.Errorf("the Guid %q is not in canonical form", g)
	}
	var hexDigits [32]byte
	copy(hexDigits[0:], g[0:8])
	copy(hexDigits[8:], g[9:13])
	copy(hexDigits[12:], g[14:18])
	copy(hexDigits[16:], g[19:23])
	copy(hexDigits[20:], g[24:36])
	for _, c := range hexDigits {
		if !('0' <= c && c <= '9' || 'a' <= c && c <= 'f') {
			return dst, fmt.Errorf("the Guid %q is not in canonical form", g)
		}
	}
	var raw [guidBytes]byte
	hex.Decode(raw[:], hexDigits[:])
	return append(dst, raw[:]...), nil
}

// guidText writes the canonical text of a Guid's 16 bytes into buf.
func guidText(raw []byte, buf *[36]byte) []byte {
	hex.Encode(buf[0:8], raw[0:4])
	buf[8] = '-'
	hex.Encode(buf[9:13], raw[4:6])
	buf[13] = '-'
	hex.Encode(buf[14:18], raw[6:8])
	buf[18] = '-'
	hex.Encode(buf[19:23], raw[8:10])
	buf[23] = '-'
	hex.Encode(buf[24:36], raw[10:16])
	return buf[:]
}

// payloadSpan2 returns where the payload of type t at val[i:] has its
// bytes (past a length) and where it ends.
func payloadSpan2(val []byte, t odata.EdmType, i int) (start, end int, err error) {
	switch t {
	case odata.EdmString, odata.EdmBinary:
		l, w := uint64(0), 1
		if i < len(val) && val[i] < 0x80 {
			l = uint64(val[i])
		} else if l, w = binary.Uvarint(val[i:]); w <= 0 {
			return 0, 0, errCorrupt
		}
		if l > uint64(len(val)-i-w) {
			return 0, 0, errCorrupt
		}
		return i + w, i + w + int(l), nil
	case odata.EdmInt32, odata.EdmInt64:
		if i < len(val) && val[i] < 0x80 {
			return i, i + 1, nil
		}
		if _, w := binary.Varint(val[i:]); w > 0 {
			return i, i + w, nil
		}
		return 0, 0, errCorrupt
	case odata.EdmGuid:
		end = i + guidBytes
	case odata.EdmDouble, odata.EdmDateTime:
		end = i + 8
	case odata.EdmBoolean:
		end = i + 1
	default:
		return 0, 0, errCorrupt
	}
	if end > len(val) {
		return 0, 0, errCorrupt
	}
	return i, end, nil
}

// span2 is payloadSpan2 with the common payloads (strings shorter than
// 128 bytes, integers from -64 to 63) read in place, as a scan reads every
// entity's.
func span2(val []byte, t odata.EdmType, i int) (start, end int, err error) {
	if i < len(val) && val[i] < 0x80 {
		switch t {
		case odata.EdmString, odata.EdmBinary:
			if end = i + 1 + int(val[i]); end > len(val) {
				return 0, 0, errCorrupt
			}
			return i + 1, end, nil
		case odata.EdmInt32, odata.EdmInt64:
			return i, i + 1, nil
		}
	}
	return payloadSpan2(val, t, i)
}

// payloadValue2 is the value of type t whose payload is val[start:end]
// (as payloadSpan2 finds it). Strings alias val (see bytesString); a Guid's
// text is written into guid and aliases it.
func payloadValue2(val []byte, t odata.EdmType, start, end int, guid *[36]byte) (odata.Value, error) {
	v := odata.Value{Type: t}
	switch t {
	case odata.EdmString, odata.EdmBinary:
		v.Str = bytesString(val[start:end])
	case odata.EdmGuid:
		v.Str = bytesString(guidText(val[start:end], guid))
	case odata.EdmInt32, odata.EdmInt64:
		if end == start+1 && val[start] < 0x80 { // -64 to 63, the common case
			v.Int = int64(val[start]>>1) ^ -int64(val[start]&1)
			return v, nil
		}
		n, w := binary.Varint(val[start:end])
		if w != end-start || (t == odata.EdmInt32 && int64(int32(n)) != n) {
			return v, errCorrupt
		}
		v.Int = n
	case odata.EdmDouble:
		v.Float = math.Float64frombits(binary.BigEndian.Uint64(val[start:]))
	case odata.EdmDateTime:
		v.Int = int64(binary.BigEndian.Uint64(val[start:]))
	case odata.EdmBoolean:
		if val[start] > 1 {
			return v, errCorrupt
		}
		v.Int = int64(val[start])
	}
	return v, nil
}

// Head2 reads a format-2 value's Timestamp ticks and shape, and where its
// first property starts.
func Head2(val []byte) (ticks int64, shape uint64, i int, err error) {
	if len(val) < 9 {
		return 0, 0, 0, errCorrupt
	}
	ticks = int64(binary.BigEndian.Uint64(val))
	if val[8] < 0x80 {
		return ticks, uint64(val[8]), 9, nil
	}
	shape, w := binary.Uvarint(val[8:])
	if w <= 0 {
		return 0, 0, 0, errCorrupt
	}
	return ticks, shape, 8 + w, nil
}

// props2 reads the properties of a format-2 value one by one.
type props2 struct {
	val []byte
	sh  *Shape // nil: the value names its properties (shape 0)
	i   int    // where the next property starts
	n   int    // properties read
}

// start readies p for val, with the table's shapes (nil: none known).
func (p *props2) start(val []byte, shapes *ShapeView) (ticks int64, err error) {
	ticks, id, i, err := Head2(val)
	if err != nil {
		return 0, err
	}
	p.val, p.i, p.n, p.sh = val, i, 0, nil
	if id != 0 {
		if p.sh, err = shapes.get(id); err != nil {
			return 0, err
		}
	}
	return ticks, nil
}

// next reads the next property: its name, its type and its payload's
// span (see payloadSpan2). ok is false after the last one.
func (p *props2) next() (name string, t odata.EdmType, start, end int, ok bool, err error) {
	if p.sh != nil {
		if p.n == len(p.sh.Names) {
			if p.i != len(p.val) {
				return "", 0, 0, 0, false, errCorrupt
			}
			return "", 0, 0, 0, false, nil
		}
		name, t = p.sh.Names[p.n], p.sh.Types[p.n]
	} else {
		if p.i == len(p.val) {
			return "", 0, 0, 0, false, nil
		}
		var n []byte
		if n, t, p.i, err = propertyHead(p.val, p.i); err != nil {
			return "", 0, 0, 0, false, err
		}
		name = bytesString(n)
	}
	if start, end, err = span2(p.val, t, p.i); err != nil {
		return "", 0, 0, 0, false, err
	}
	p.i = end
	p.n++
	return name, t, start, end, true, nil
}

// find2 finds the property called name in a format-2 value, stepping over
// the others without decoding them: its type and its payload's span. A
// filter asks this of every entity it reads, so a value of a shape is read
// here, in one loop; a value that names its properties itself by props2.
func find2(val []byte, shapes *ShapeView, name string) (t odata.EdmType, start, end int, ok bool) {
	if len(val) < 9 {
		return 0, 0, 0, false
	}
	id, i := uint64(val[8]), 9
	if id >= 0x80 {
		var w int
		if id, w = binary.Uvarint(val[8:]); w <= 0 {
			return 0, 0, 0, false
		}
		i = 8 + w
	}
	if id == 0 {
		return findInline2(val, name)
	}
	var sh *Shape
	var err error
	if set := shapes.set.Load(); id-1 < uint64(len(set.List)) && set.List[id-1] != nil { // ShapeView.get, without a call
		sh = set.List[id-1]
	} else if sh, err = shapes.getRead(id); err != nil {
		return 0, 0, 0, false
	}
	for k, n := range sh.Names {
		t = sh.Types[k]
		switch { // span2, the common payloads in place, without a call
		case i < len(val) && val[i] < 0x80 && (t == odata.EdmString || t == odata.EdmBinary):
			start, end = i+1, i+1+int(val[i])
		case i < len(val) && val[i] < 0x80 && (t == odata.EdmInt32 || t == odata.EdmInt64):
			start, end = i, i+1
		default:
			if start, end, err = payloadSpan2(val, t, i); err != nil {
				return 0, 0, 0, false
			}
		}
		if end > len(val) {
			return 0, 0, 0, false
		}
		if n == name {
			return t, start, end, true
		}
		i = end
	}
	return 0, 0, 0, false
}

// findInline2 is find2 for a value that names its properties itself.
func findInline2(val []byte, name string) (t odata.EdmType, start, end int, ok bool) {
	var p props2
	if _, err := p.start(val, nil); err != nil {
		return 0, 0, 0, false
	}
	for {
		n, t, start, end, more, err := p.next()
		if err != nil || !more {
			return 0, 0, 0, false
		}
		if n == name {
			return t, start, end, true
		}
	}
}

// AppendValue2 appends the format-2 value of an entity: its Timestamp
// ticks, shape id (0: the names inline) and properties.
func AppendValue2(dst []byte, ticks int64, id uint64, props []odata.Property) ([]byte, error) {
	dst = binary.BigEndian.AppendUint64(dst, uint64(ticks))
	dst = binary.AppendUvarint(dst, id)
	var err error
	for _, p := range props {
		if id == 0 {
			dst = binary.AppendUvarint(dst, uint64(len(p.Name)))
			dst = append(dst, p.Name...)
			dst = append(dst, byte(p.Value.Type))
		}
		if dst, err = appendPayload2(dst, p.Value); err != nil {
			return dst, err
		}
	}
	return dst, nil
}

// decode2 fully decodes a format-2 value, copying it out of the
// transaction's memory: one allocation for the value, whose strings the
// names and values alias (names of a shape are the dictionary's own), and
// one per Guid.
func decode2(e *odata.Entity, val []byte, shapes *ShapeView) error {
	owned := bytes.Clone(val)
	var p props2
	ticks, err := p.start(owned, shapes)
	if err != nil {
		return err
	}
	e.Timestamp = odata.TimeOfTicks(ticks)
	count := 0
	if p.sh != nil {
		count = len(p.sh.Names)
	} else {
		for q := p; ; count++ {
			_, _, _, _, more, err := q.next()
			if err != nil {
				return err
			}
			if !more {
				break
			}
		}
	}
	if count > 0 {
		e.Properties = make([]odata.Property, 0, count)
	}
	var guid [36]byte
	for {
		name, t, start, end, more, err := p.next()
		if err != nil {
			return err
		}
		if !more {
			return nil
		}
		v, err := payloadValue2(owned, t, start, end, &guid)
		if err != nil {
			return err
		}
		if t == odata.EdmGuid {
			v.Str = string(guid[:])
		}
		e.Properties = append(e.Properties, odata.Property{Name: name, Value: v})
	}
}
