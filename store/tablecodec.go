package store

import (
	"bytes"
	"encoding/binary"

	"github.com/tstable/tstable/odata"
)

// tableCodec reads and writes the stored entities of one table in one
// transaction, in the file's format: its layout of keys (keylayout.go) and
// of values (format 1: codec.go; format 2: codec2.go, with the table's
// shapes). Every bucket of a table carries one (gbucket.codec).
type tableCodec struct {
	l       layout
	shapes  *shapeView // format 2: the table's dictionary
	scratch []byte     // a shape's definition, being looked up
	body    []byte     // a value's payloads, being written
	key     []byte     // a key, being written or read (keyOf)
}

// keyOf is the stored key of (pk, rk), in memory the codec reuses for the
// next key: the engine copies the keys it keeps.
func (c *tableCodec) keyOf(pk, rk string) []byte {
	c.key = c.l.appendKey(c.key[:0], pk, rk)
	return c.key
}

// readyForAll reads the whole dictionary, for goroutines that will share
// the codec.
func (c *tableCodec) readyForAll() error {
	if c.shapes == nil {
		return nil
	}
	return c.shapes.readAll()
}

// values2 reports whether values are stored in format 2.
func (c *tableCodec) values2() bool { return c.l.mapped() }

// ticks returns the Timestamp ticks of a stored value.
func (c *tableCodec) ticks(val []byte) (int64, error) {
	if !c.values2() {
		return storedTicks(val)
	}
	ticks, _, _, err := head2(val)
	return ticks, err
}

// decode fully decodes a stored entity, copying it out of the
// transaction's memory.
func (c *tableCodec) decode(key, val []byte) (*odata.Entity, error) {
	if !c.values2() {
		return decodeEntity(key, val)
	}
	keys := c.l.text(key)
	sep := len(keys)
	if i := bytes.IndexByte(key, 0); i >= 0 {
		sep = i
	}
	e := &odata.Entity{PartitionKey: keys[:sep]}
	if sep < len(keys) {
		e.RowKey = keys[sep+1:]
	}
	if err := decode2(e, val, c.shapes); err != nil {
		return nil, &corruptError{key: bytes.Clone(key), l: c.l}
	}
	return e, nil
}

// encode appends the stored value of an entity with Timestamp ticks and
// properties props. In format 2 it names the entity's shape, which it
// adds to the table's dictionary (t is a write transaction) when it is
// new.
func (c *tableCodec) encode(dst []byte, ticks int64, props []odata.Property) ([]byte, error) {
	if !c.values2() {
		return encodeEntity(dst, ticks, props), nil
	}
	id := uint64(0)
	if len(props) > 0 {
		var err error
		if id, err = c.shapes.id(props, &c.scratch); err != nil {
			return dst, err
		}
	}
	return appendValue2(dst, ticks, id, props)
}

// fromRecord appends the stored value of a load's record, stamped with
// ticks. A record is encoded as format 1 encodes values (encodeEntity),
// whatever the file's format: in format 1 it is stored as it is; in format
// 2 its properties are read one by one and their payloads written packed,
// under the number of their shape.
func (c *tableCodec) fromRecord(dst, key, rec []byte, ticks int64) ([]byte, error) {
	if !c.values2() {
		dst = append(dst, rec...)
		stampRecord(dst[len(dst)-len(rec):], ticks)
		return dst, nil
	}
	if _, err := storedTicks(rec); err != nil {
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
		if id, err = c.shapes.idOf(def); err != nil {
			return dst, err
		}
	}
	if id == 0 && len(def) > 0 { // no room for the shape: the names go inline
		e, err := decodeRecord(c.l, key, rec)
		if err != nil {
			return dst, err
		}
		return appendValue2(dst, ticks, 0, e.Properties)
	}
	dst = binary.BigEndian.AppendUint64(dst, uint64(ticks))
	dst = binary.AppendUvarint(dst, id)
	return append(dst, body...), nil
}

// merge merges the properties of a load's record rec into those of the
// stored value cur, both at key, as a merge does, and appends the stored
// result with Timestamp ticks.
func (c *tableCodec) merge(dst, key, cur, rec []byte, ticks int64) ([]byte, error) {
	if !c.values2() {
		return mergeValues(c.l, key, cur, rec, ticks, dst)
	}
	old, err := c.decode(key, cur)
	if err != nil {
		return nil, err
	}
	u, err := decodeRecord(c.l, key, rec)
	if err != nil {
		return nil, err
	}
	m, err := merged(old, u)
	if err != nil {
		return nil, err
	}
	return c.encode(dst, ticks, m.Properties)
}

// record is a stored value as a load's record (format 1's encoding).
func (c *tableCodec) record(key, val []byte) ([]byte, error) {
	if !c.values2() {
		return val, nil
	}
	e, err := c.decode(key, val)
	if err != nil {
		return nil, err
	}
	return encodeEntity(nil, odata.TicksOf(e.Timestamp), e.Properties), nil
}

// decodeRecord decodes a load's record, whose key is in layout l.
func decodeRecord(l layout, key, rec []byte) (*odata.Entity, error) {
	e, err := decodeEntity(key, rec)
	if err != nil || !l.mapped() {
		return e, err
	}
	e.PartitionKey, e.RowKey = l.keys(key)
	return e, nil
}

// appendLine appends the entity stored at key and val as one line of the
// service's JSON and a newline (see appendEntityLine), using r's buffers.
func (c *tableCodec) appendLine(dst, key, val []byte, sel []string, r *rawRecord) ([]byte, error) {
	if !c.values2() {
		return appendEntityLine(dst, key, val, sel)
	}
	start := len(dst)
	fail := func() ([]byte, error) { return dst[:start], &corruptError{key: bytes.Clone(key), l: c.l} }
	pk, rk := splitKey(key)
	var p props2
	ticks, err := p.start(val, c.shapes)
	if err != nil {
		return fail()
	}
	dst = odata.AppendEntityJSONStart(dst, c.l.view(pk, &r.pkBuf), c.l.view(rk, &r.rkBuf), ticks)
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
		r.key, r.val, r.c = key, val, c
		for _, name := range sel {
			switch name {
			case odata.PartitionKey, odata.RowKey, odata.Timestamp:
				continue
			}
			if v, ok := r.Get(name); ok {
				dst = odata.AppendEntityJSONProperty(dst, name, v)
			}
		}
	}
	return append(dst, '}', '\n'), nil
}

// system2 is rawRecord.Get of a system property (PartitionKey, RowKey or
// Timestamp) of a value of format 2; ok is false for another name.
func (r *rawRecord) system2(name string) (odata.Value, bool) {
	switch name {
	case odata.PartitionKey:
		pk, _ := splitKey(r.key)
		return odata.Value{Type: odata.EdmString, Str: r.c.l.view(pk, &r.pkBuf)}, true
	case odata.RowKey:
		_, rk := splitKey(r.key)
		return odata.Value{Type: odata.EdmString, Str: r.c.l.view(rk, &r.rkBuf)}, true
	case odata.Timestamp:
		t, _, _, err := head2(r.val)
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
