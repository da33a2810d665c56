package values

import (
	"bytes"
	"encoding/binary"
	"fmt"

	"github.com/tstable/tstable/backend"
	"github.com/tstable/tstable/odata"
)

// Codec reads and writes the stored entities of one table in one
// transaction, in the file's format: its layout of keys (keylayout.go) and
// of values (format 1: codec.go; format 2: codec2.go, with the table's
// shapes). The store's bucket of a table carries one.
type Codec struct {
	L       Layout     // the file's layout of keys, which is its format
	Shapes  *ShapeView // format 2: the table's dictionary
	scratch []byte     // a shape's definition, being looked up
	body    []byte     // a value's payloads, being written
	key     []byte     // a key, being written or read (keyOf)
}

// KeyOf is the stored key of (pk, rk), in memory the codec reuses for the
// next key: the engine copies the keys it keeps.
func (c *Codec) KeyOf(pk, rk string) []byte {
	c.key = c.L.AppendKey(c.key[:0], pk, rk)
	return c.key
}

// ReadyForAll reads the whole dictionary, for goroutines that will share
// the codec.
func (c *Codec) ReadyForAll() error {
	if c.Shapes == nil {
		return nil
	}
	return c.Shapes.readAll()
}

// Values2 reports whether values are stored in format 2.
func (c *Codec) Values2() bool { return c.L.Mapped() }

// Ticks returns the Timestamp ticks of a stored value.
func (c *Codec) Ticks(val []byte) (int64, error) {
	if !c.Values2() {
		return StoredTicks(val)
	}
	ticks, _, _, err := Head2(val)
	return ticks, err
}

// Decode fully decodes a stored entity, copying it out of the
// transaction's memory.
func (c *Codec) Decode(key, val []byte) (*odata.Entity, error) {
	if !c.Values2() {
		return DecodeEntity(key, val)
	}
	keys := c.L.text(key)
	sep := len(keys)
	if i := bytes.IndexByte(key, 0); i >= 0 {
		sep = i
	}
	e := &odata.Entity{PartitionKey: keys[:sep]}
	if sep < len(keys) {
		e.RowKey = keys[sep+1:]
	}
	if err := decode2(e, val, c.Shapes); err != nil {
		return nil, &CorruptError{Key: bytes.Clone(key), l: c.L}
	}
	return e, nil
}

// Encode appends the stored value of an entity with Timestamp ticks and
// properties props. In format 2 it names the entity's shape, which it
// adds to the table's dictionary (t is a write transaction) when it is
// new.
func (c *Codec) Encode(dst []byte, ticks int64, props []odata.Property) ([]byte, error) {
	if !c.Values2() {
		return EncodeEntity(dst, ticks, props), nil
	}
	id := uint64(0)
	if len(props) > 0 {
		var err error
		if id, err = c.Shapes.id(props, &c.scratch); err != nil {
			return dst, err
		}
	}
	return AppendValue2(dst, ticks, id, props)
}

// FromRecord appends the stored value of a load's record, stamped with
// ticks. A record is encoded as format 1 encodes values (EncodeEntity),
// whatever the file's format: in format 1 it is stored as it is; in format
// 2 its properties are read one by one and their payloads written packed,
// under the number of their shape.
func (c *Codec) FromRecord(dst, key, rec []byte, ticks int64) ([]byte, error) {
	if !c.Values2() {
		dst = append(dst, rec...)
		StampRecord(dst[len(dst)-len(rec):], ticks)
		return dst, nil
	}
	if _, err := StoredTicks(rec); err != nil {
		return dst, err
	}
	def, body := c.scratch[:0], c.body[:0]
	for i := 9; i < len(rec); {
		name, v, next, err := nextProperty(rec, i)
		if err != nil {
			return dst, err
		}
		def = append(def, byte(v.Type))
		def = binary.AppendUvarint(def, uint64(len(name)))
		def = append(def, name...)
		if body, err = appendPayload2(body, v); err != nil {
			return dst, err
		}
		i = next
	}
	c.scratch, c.body = def, body
	id := uint64(0)
	if len(def) > 0 {
		var err error
		if id, err = c.Shapes.idOf(def); err != nil {
			return dst, err
		}
	}
	if id == 0 && len(def) > 0 { // no room for the shape: the names go inline
		e, err := DecodeRecord(c.L, key, rec)
		if err != nil {
			return dst, err
		}
		return AppendValue2(dst, ticks, 0, e.Properties)
	}
	dst = binary.BigEndian.AppendUint64(dst, uint64(ticks))
	dst = binary.AppendUvarint(dst, id)
	return append(dst, body...), nil
}

// Merge merges the properties of a load's record rec into those of the
// stored value cur, both at key, as a merge does, and appends the stored
// result with Timestamp ticks.
func (c *Codec) Merge(dst, key, cur, rec []byte, ticks int64) ([]byte, error) {
	if !c.Values2() {
		return MergeValues(c.L, key, cur, rec, ticks, dst)
	}
	old, err := c.Decode(key, cur)
	if err != nil {
		return nil, err
	}
	u, err := DecodeRecord(c.L, key, rec)
	if err != nil {
		return nil, err
	}
	m, err := merged(old, u)
	if err != nil {
		return nil, err
	}
	return c.Encode(dst, ticks, m.Properties)
}

// Record is a stored value as a load's record (format 1's encoding).
func (c *Codec) Record(key, val []byte) ([]byte, error) {
	if !c.Values2() {
		return val, nil
	}
	e, err := c.Decode(key, val)
	if err != nil {
		return nil, err
	}
	return EncodeEntity(nil, odata.TicksOf(e.Timestamp), e.Properties), nil
}

// Why says why a stored value of format 2 does not decode, when it names
// a shape the table's dictionary lacks.
func (c *Codec) Why(val []byte) string {
	if !c.Values2() {
		return ""
	}
	if _, id, _, err := Head2(val); err == nil && id != 0 {
		if _, err := c.Shapes.get(id); err != nil {
			return fmt.Sprintf(": it names shape %d, which the table's dictionary does not hold", id)
		}
	}
	return ""
}

// MergeValues merges the properties of the record upd into those of the
// record cur (both encoded as format 1 encodes values; their key is in
// Layout l), as a merge does, and appends the result, with ticks, to dst.
func MergeValues(l Layout, key, cur, upd []byte, ticks int64, dst []byte) ([]byte, error) {
	old, err := DecodeRecord(l, key, cur)
	if err != nil {
		return nil, err
	}
	u, err := DecodeRecord(l, key, upd)
	if err != nil {
		return nil, err
	}
	m, err := merged(old, u)
	if err != nil {
		return nil, err
	}
	return EncodeEntity(dst, ticks, m.Properties), nil
}

// merged is old with the properties of u set over its own, as a merge
// writes it: checked as a whole, its properties sorted by name as the
// service keeps them after any write but Insert (backend.PropertiesByName). old is changed.
func merged(old, u *odata.Entity) (*odata.Entity, error) {
	for _, p := range u.Properties {
		old.Set(p.Name, p.Value)
	}
	if err := odata.ValidateEntity(old); err != nil {
		return nil, err
	}
	return backend.PropertiesByName(old), nil
}

// DecodeRecord decodes a load's record, whose key is in layout l.
func DecodeRecord(l Layout, key, rec []byte) (*odata.Entity, error) {
	e, err := DecodeEntity(key, rec)
	if err != nil || !l.Mapped() {
		return e, err
	}
	e.PartitionKey, e.RowKey = l.Keys(key)
	return e, nil
}

// AppendLine appends the entity stored at key and val as one line of the
// service's JSON and a newline (see AppendEntityLine), using r's buffers.
func (c *Codec) AppendLine(dst, key, val []byte, sel []string, r *RawRecord) ([]byte, error) {
	if !c.Values2() {
		return AppendEntityLine(dst, key, val, sel)
	}
	start := len(dst)
	fail := func() ([]byte, error) { return dst[:start], &CorruptError{Key: bytes.Clone(key), l: c.L} }
	pk, rk := SplitKey(key)
	var p props2
	ticks, err := p.start(val, c.Shapes)
	if err != nil {
		return fail()
	}
	dst = odata.AppendEntityJSONStart(dst, c.L.View(pk, &r.pkBuf), c.L.View(rk, &r.rkBuf), ticks)
	for {
		name, t, s, e, more, err := p.next()
		if err != nil {
			return fail()
		}
		if !more {
			break
		}
		v, ok := quickValue2(val, t, s, e)
		if !ok {
			if v, err = payloadValue2(val, t, s, e, &r.guid); err != nil {
				return fail()
			}
		}
		if sel == nil {
			dst = odata.AppendEntityJSONProperty(dst, name, v)
		}
	}
	if sel != nil {
		r.Key, r.Val, r.C = key, val, c
		dst = appendSelectedProperties(dst, r, sel)
	}
	return append(dst, '}', '\n'), nil
}

// system2 is RawRecord.Get of a system property (PartitionKey, RowKey or
// Timestamp) of a value of format 2; ok is false for another name.
func (r *RawRecord) system2(name string) (odata.Value, bool) {
	switch name {
	case odata.PartitionKey:
		pk, _ := SplitKey(r.Key)
		return odata.Value{Type: odata.EdmString, Str: r.C.L.View(pk, &r.pkBuf)}, true
	case odata.RowKey:
		_, rk := SplitKey(r.Key)
		return odata.Value{Type: odata.EdmString, Str: r.C.L.View(rk, &r.rkBuf)}, true
	case odata.Timestamp:
		t, _, _, err := Head2(r.Val)
		if err != nil {
			return odata.Value{}, false
		}
		return odata.DateTimeTicks(t), true
	}
	return odata.Value{}, false
}

// quickValue2 is payloadValue2 for the common payloads (a string, an
// integer from -64 to 63), small enough to be inlined where a scan reads
// every entity; ok is false for the others.
func quickValue2(val []byte, t odata.EdmType, start, end int) (odata.Value, bool) {
	switch {
	case t == odata.EdmString:
		return odata.Value{Type: t, Str: bytesString(val[start:end])}, true
	case (t == odata.EdmInt32 || t == odata.EdmInt64) && end == start+1:
		return odata.Value{Type: t, Int: int64(val[start]>>1) ^ -int64(val[start]&1)}, true
	}
	return odata.Value{}, false
}
