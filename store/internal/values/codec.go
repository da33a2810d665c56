package values

import (
	"bytes"
	"encoding/binary"
	"fmt"
	"math"
	"unsafe"

	"github.com/tstable/tstable/odata"
	"github.com/tstable/tstable/store/internal/boltfile"
)

// Stored entity format 1 (the values of a file of format 1, and the
// records of a load, whatever the file's format; format 2 is in
// codec2.go):
//
//	byte    format version (1)
//	8 bytes Timestamp ticks, big-endian
//	then per property:
//	  uvarint name length, name bytes, 1 byte Edm type, payload:
//	    String, Guid, Binary: uvarint length, bytes
//	    Int32: 4 bytes; Int64, DateTime, Double: 8 bytes; Boolean: 1 byte
//
// Fixed-width payloads let a filter skip to the property it needs without
// decoding the others.
const FormatV1 = 1

// errCorrupt is a stored value that does not decode, where its key is not
// known: damage.
var errCorrupt error = &boltfile.Finding{What: "a stored entity cannot be decoded"}

// CorruptError is a stored entity that does not decode: damage. Its key
// is in layout l (0: format 1's).
type CorruptError struct {
	Key []byte
	l   Layout
}

func (e *CorruptError) Error() string {
	pk, rk := e.l.Keys(e.Key)
	return fmt.Sprintf("the stored entity (%q, %q) cannot be decoded", pk, rk)
}

// Unwrap marks the error as damage.
func (e *CorruptError) Unwrap() error { return boltfile.ErrDamaged }

// EntityKey is PartitionKey 0x00 RowKey: byte order is table order, and
// 0x00 cannot occur inside a key.
func EntityKey(pk, rk string) []byte {
	k := make([]byte, 0, len(pk)+1+len(rk))
	k = append(k, pk...)
	k = append(k, 0)
	return append(k, rk...)
}

// SplitKey returns the two keys of a stored key, without copying.
func SplitKey(k []byte) (pk, rk []byte) {
	for i, c := range k {
		if c == 0 {
			return k[:i], k[i+1:]
		}
	}
	return k, nil
}

// EncodeEntity appends the value of format 1 of an entity with Timestamp
// ticks and properties props (a load's record is one, whatever the
// file's format).
func EncodeEntity(dst []byte, ticks int64, props []odata.Property) []byte {
	dst = append(dst, FormatV1)
	dst = binary.BigEndian.AppendUint64(dst, uint64(ticks))
	for _, p := range props {
		dst = binary.AppendUvarint(dst, uint64(len(p.Name)))
		dst = append(dst, p.Name...)
		v := p.Value
		dst = append(dst, byte(v.Type))
		switch v.Type {
		case odata.EdmString, odata.EdmGuid, odata.EdmBinary:
			dst = binary.AppendUvarint(dst, uint64(len(v.Str)))
			dst = append(dst, v.Str...)
		case odata.EdmInt32:
			dst = binary.BigEndian.AppendUint32(dst, uint32(int32(v.Int)))
		case odata.EdmInt64, odata.EdmDateTime:
			dst = binary.BigEndian.AppendUint64(dst, uint64(v.Int))
		case odata.EdmDouble:
			dst = binary.BigEndian.AppendUint64(dst, math.Float64bits(v.Float))
		case odata.EdmBoolean:
			dst = append(dst, byte(v.Int))
		}
	}
	return dst
}

// StampRecord sets the Timestamp ticks of a value of format 1.
func StampRecord(val []byte, ticks int64) {
	binary.BigEndian.PutUint64(val[1:9], uint64(ticks))
}

// StoredTicks returns the Timestamp ticks of a stored value.
func StoredTicks(val []byte) (int64, error) {
	if len(val) < 9 || val[0] != FormatV1 {
		return 0, errCorrupt
	}
	return int64(binary.BigEndian.Uint64(val[1:9])), nil
}

// propertyHead reads the name and type of the property at val[i:],
// returning where its payload starts.
func propertyHead(val []byte, i int) (name []byte, t odata.EdmType, p int, err error) {
	n, w := uint64(0), 1
	if i < len(val) && val[i] < 0x80 {
		n = uint64(val[i])
	} else if n, w = binary.Uvarint(val[i:]); w <= 0 {
		return nil, 0, 0, errCorrupt
	}
	if n >= uint64(len(val)) || i+w+int(n)+1 > len(val) {
		return nil, 0, 0, errCorrupt
	}
	i += w
	name = val[i : i+int(n)]
	i += int(n)
	return name, odata.EdmType(val[i]), i + 1, nil
}

// payloadSpan returns where the payload of type t at val[i:] starts (past
// a string's length) and ends.
func payloadSpan(val []byte, t odata.EdmType, i int) (start, end int, err error) {
	switch t {
	case odata.EdmString, odata.EdmGuid, odata.EdmBinary:
		l, w := uint64(0), 1
		if i < len(val) && val[i] < 0x80 {
			l = uint64(val[i])
		} else if l, w = binary.Uvarint(val[i:]); w <= 0 {
			return 0, 0, errCorrupt
		}
		if l > uint64(len(val)) || i+w+int(l) > len(val) {
			return 0, 0, errCorrupt
		}
		return i + w, i + w + int(l), nil
	case odata.EdmInt32:
		end = i + 4
	case odata.EdmInt64, odata.EdmDateTime, odata.EdmDouble:
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

// payloadValue is the value of type t whose payload is val[start:end]
// (as payloadSpan finds it). Strings alias val (see bytesString).
func payloadValue(val []byte, t odata.EdmType, start, end int) odata.Value {
	v := odata.Value{Type: t}
	switch t {
	case odata.EdmString, odata.EdmGuid, odata.EdmBinary:
		v.Str = bytesString(val[start:end])
	case odata.EdmInt32:
		v.Int = int64(int32(binary.BigEndian.Uint32(val[start:])))
	case odata.EdmInt64, odata.EdmDateTime:
		v.Int = int64(binary.BigEndian.Uint64(val[start:]))
	case odata.EdmDouble:
		v.Float = math.Float64frombits(binary.BigEndian.Uint64(val[start:]))
	case odata.EdmBoolean:
		v.Int = int64(val[start])
	}
	return v
}

// nextProperty reads one property at val[i:]. Strings in the returned
// Value alias val (see bytesString); callers copy what outlives the read.
func nextProperty(val []byte, i int) (name []byte, v odata.Value, next int, err error) {
	name, t, i, err := propertyHead(val, i)
	if err != nil {
		return nil, v, 0, err
	}
	start, next, err := payloadSpan(val, t, i)
	if err != nil {
		return nil, v, 0, err
	}
	return name, payloadValue(val, t, start, next), next, nil
}

// bytesString views b as a string without copying. The string is valid only
// while b is (inside the read transaction).
func bytesString(b []byte) string {
	if len(b) == 0 {
		return ""
	}
	return unsafe.String(&b[0], len(b))
}

// DecodeEntity fully decodes a stored entity, copying it out of the
// transaction's memory with one string allocation for the keys and one for
// all names and values (which are substrings of it).
func DecodeEntity(key, val []byte) (*odata.Entity, error) {
	ticks, err := StoredTicks(val)
	if err != nil {
		return nil, &CorruptError{Key: bytes.Clone(key)}
	}
	keys := string(key)
	sep := len(keys)
	for i := 0; i < len(keys); i++ {
		if keys[i] == 0 {
			sep = i
			break
		}
	}
	e := &odata.Entity{PartitionKey: keys[:sep], Timestamp: odata.TimeOfTicks(ticks)}
	if sep < len(keys) {
		e.RowKey = keys[sep+1:]
	}
	if len(val) == 9 {
		return e, nil
	}
	owned := bytes.Clone(val) // one copy; strings below alias it and it is never written again
	count := 0
	for i := 9; i < len(owned); count++ {
		_, _, next, err := nextProperty(owned, i)
		if err != nil {
			return nil, &CorruptError{Key: bytes.Clone(key)}
		}
		i = next
	}
	e.Properties = make([]odata.Property, 0, count)
	for i := 9; i < len(owned); {
		name, v, next, _ := nextProperty(owned, i)
		e.Properties = append(e.Properties, odata.Property{Name: bytesString(name), Value: v})
		i = next
	}
	return e, nil
}

// RawRecord is an odata.Record over a stored key and value: a filter reads
// the properties it names straight from the transaction's memory, and
// nothing is decoded or allocated for entities it rejects. c is the
// table's codec (nil: format 1); the buffers hold what a value of format
// 2 needs written out (a key with mapped bytes, a Guid's text).
type RawRecord struct {
	Key, Val     []byte
	C            *Codec
	pkBuf, rkBuf []byte
	guid         [36]byte
}

// Get implements odata.Record. A filter calls it for every entity a scan
// reads, so a value of format 2 is read here, without a call of its own
// (system2 reads a key or the Timestamp).
func (r *RawRecord) Get(name string) (odata.Value, bool) {
	if r.C == nil || !r.C.Values2() {
		return r.get1(name)
	}
	switch name {
	case odata.PartitionKey, odata.RowKey, odata.Timestamp:
		return r.system2(name)
	}
	t, start, end, ok := find2(r.Val, r.C.Shapes, name)
	if !ok {
		return odata.Value{}, false
	}
	if v, ok := quickValue2(r.Val, t, start, end); ok {
		return v, true
	}
	v, err := payloadValue2(r.Val, t, start, end, &r.guid)
	return v, err == nil
}

// get1 is Get for a value of format 1.
func (r *RawRecord) get1(name string) (odata.Value, bool) {
	switch name {
	case odata.PartitionKey:
		pk, _ := SplitKey(r.Key)
		return odata.Value{Type: odata.EdmString, Str: bytesString(pk)}, true
	case odata.RowKey:
		_, rk := SplitKey(r.Key)
		return odata.Value{Type: odata.EdmString, Str: bytesString(rk)}, true
	case odata.Timestamp:
		t, err := StoredTicks(r.Val)
		if err != nil {
			return odata.Value{}, false
		}
		return odata.DateTimeTicks(t), true
	}
	t, start, end, ok := findProperty(r.Val, name)
	if !ok {
		return odata.Value{}, false
	}
	return payloadValue(r.Val, t, start, end), true
}

// findProperty finds the property called name in a stored value, stepping
// over the others without decoding them: its type and where its payload
// starts and ends. A filter asks this of every entity it reads, so the
// common case (names and strings shorter than 128 bytes, whose lengths
// take one byte) is read here, and the rest by propertyHead and
// payloadSpan.
func findProperty(val []byte, name string) (t odata.EdmType, start, end int, ok bool) {
	for i := 9; i < len(val); i = end {
		var n []byte
		if l := int(val[i]); l < 0x80 && i+1+l < len(val) {
			n, t, start = val[i+1:i+1+l], odata.EdmType(val[i+1+l]), i+2+l
		} else {
			var err error
			if n, t, start, err = propertyHead(val, i); err != nil {
				return 0, 0, 0, false
			}
		}
		if t == odata.EdmString && start < len(val) && val[start] < 0x80 {
			start, end = start+1, start+1+int(val[start])
			if end > len(val) {
				return 0, 0, 0, false
			}
		} else {
			var err error
			if start, end, err = payloadSpan(val, t, start); err != nil {
				return 0, 0, 0, false
			}
		}
		if string(n) == name {
			return t, start, end, true
		}
	}
	return 0, 0, 0, false
}

// AppendEntityLine appends the entity stored at key and val as one line of
// the service's JSON and a newline: the bytes odata.AppendEntityJSON writes
// for DecodeEntity(key, val) projected by sel (odata.Project), written
// from the stored bytes through odata's piecewise writer without building
// the entity. A value that does not decode leaves dst as it was and is a
// CorruptError, as DecodeEntity's.
func AppendEntityLine(dst, key, val []byte, sel []string) ([]byte, error) {
	ticks, err := StoredTicks(val)
	if err != nil {
		return dst, &CorruptError{Key: bytes.Clone(key)}
	}
	start := len(dst)
	pk, rk := SplitKey(key)
	dst = odata.AppendEntityJSONStart(dst, bytesString(pk), bytesString(rk), ticks)
	for i := 9; i < len(val); {
		name, v, next, err := nextProperty(val, i)
		if err != nil {
			return dst[:start], &CorruptError{Key: bytes.Clone(key)}
		}
		if sel == nil {
			dst = odata.AppendEntityJSONProperty(dst, bytesString(name), v)
		}
		i = next
	}
	if sel != nil {
		dst = appendSelectedProperties(dst, &RawRecord{Key: key, Val: val}, sel)
	}
	return append(dst, '}', '\n'), nil
}

// appendSelectedProperties appends, after the start of an entity's line,
// the user properties of r that sel names, in sel's order, as
// odata.Project keeps them: the system properties are in the line's
// start, and a named property r lacks is left out.
func appendSelectedProperties(dst []byte, r *RawRecord, sel []string) []byte {
	for _, name := range sel {
		switch name {
		case odata.PartitionKey, odata.RowKey, odata.Timestamp:
			continue
		}
		if v, ok := r.Get(name); ok {
			dst = odata.AppendEntityJSONProperty(dst, name, v)
		}
	}
	return dst
}
