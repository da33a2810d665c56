package odata

import "strings"

// DecodeEntityJSON reads one entity from the service's JSON (the rules are
// in jsonformat.go and jsontypes.go). The entity's Timestamp is left zero.
func DecodeEntityJSON(data []byte) (*Entity, error) {
	d := EntityDecoder{oneOff: true}
	return d.Decode(data)
}

// EntityDecoder decodes many entities (an import) with fewer allocations
// than DecodeEntityJSON: it reuses its scratch space and shares the strings
// of property names it has seen. It is not safe for concurrent use; the
// zero value is ready.
type EntityDecoder struct {
	members []rawMember
	names   map[string]string
	order   []string
	oneOff  bool // DecodeEntityJSON: no name cache
}

// maxInternedNames bounds the name cache of an EntityDecoder, and
// maxInternedOrder how many names by position it remembers.
const (
	maxInternedNames = 4096
	maxInternedOrder = 256
)

// Decode reads one entity, as DecodeEntityJSON does.
func (dec *EntityDecoder) Decode(data []byte) (*Entity, error) {
	d := jsonDecoder{data: data, members: dec.members[:0], names: dec.names, order: dec.order, intern: !dec.oneOff}
	members, err := d.object()
	dec.members, dec.names, dec.order = members[:0], d.names, d.order
	if err != nil {
		return nil, err
	}
	e := &Entity{}
	var havePK, haveRK bool
	// Annotations are few; a linear search beats a map for typical entities.
	var typesSpace [8]rawMember
	types := typesSpace[:0]
	for i := range members {
		m := &members[i]
		if base, ok := strings.CutSuffix(m.name, "@odata.type"); ok {
			if m.kind == jsonNull {
				continue
			}
			if m.kind != jsonString {
				return nil, &JSONError{Property: base, Offset: m.off, Msg: "the @odata.type annotation must be a string such as \"Edm.Int64\""}
			}
			for _, t := range types {
				if t.name == base {
					return nil, &JSONError{Property: base, Offset: m.off, Msg: "the @odata.type annotation is given twice"}
				}
			}
			// A type no property can have is refused wherever it is: on a
			// value, on a null, or alone ("" among them).
			if _, ok := edmTypeByWireName(m.text); !ok && base != "" {
				return nil, &JSONError{Property: base, Offset: m.off, Msg: unknownTypeMsg(m.text)}
			}
			types = append(types, rawMember{name: base, text: m.text, off: m.off})
		}
	}
	e.Properties = make([]Property, 0, len(members)-len(types))
	for i := range members {
		m := &members[i]
		name := m.name
		if strings.HasPrefix(name, "odata.") || strings.Contains(name, "@") {
			continue // metadata and annotations
		}
		switch name {
		case PartitionKey, RowKey:
			if m.kind != jsonString {
				return nil, &JSONError{Property: name, Offset: m.off, Msg: "must be a string"}
			}
			if name == PartitionKey {
				if havePK {
					return nil, &JSONError{Property: name, Offset: m.off, Msg: "is given twice"}
				}
				e.PartitionKey, havePK = m.text, true
			} else {
				if haveRK {
					return nil, &JSONError{Property: name, Offset: m.off, Msg: "is given twice"}
				}
				e.RowKey, haveRK = m.text, true
			}
			continue
		case Timestamp:
			continue
		}
		if m.kind == jsonNull {
			continue
		}
		var typeName string
		typed := false
		for _, t := range types {
			if t.name == name {
				typeName, typed = t.text, true
				break
			}
		}
		v, err := typeValue(m, typeName, typed)
		if err != nil {
			return nil, err
		}
		for j := range e.Properties {
			if e.Properties[j].Name == name {
				return nil, &JSONError{Property: name, Offset: m.off, Msg: "is given twice"}
			}
		}
		e.Properties = append(e.Properties, Property{Name: name, Value: v})
	}
	if !havePK {
		return nil, &JSONError{Offset: 0, Msg: "the entity has no PartitionKey; every entity needs \"PartitionKey\" and \"RowKey\" strings", Code: CodePropertiesNeedValue, Missing: PartitionKey}
	}
	if !haveRK {
		return nil, &JSONError{Offset: 0, Msg: "the entity has no RowKey; every entity needs \"PartitionKey\" and \"RowKey\" strings", Code: CodePropertiesNeedValue, Missing: RowKey}
	}
	return e, nil
}
