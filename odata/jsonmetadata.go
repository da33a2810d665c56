package odata

// The service answers in one of three JSON shapes, chosen by the client's
// Accept header (application/json;odata=LEVEL):
//
//   - minimalmetadata (the default): odata.etag, the keys, Timestamp and
//     the properties, with the type annotations the reader cannot infer
//     (the shape AppendEntityJSON writes).
//   - nometadata: the keys, Timestamp and the properties only; no
//     odata.* member and no annotation at all.
//   - fullmetadata: odata.type, odata.id, odata.etag and odata.editLink
//     first, then as minimalmetadata, with Timestamp annotated Edm.DateTime
//     too. Int32, Double (with a fraction), Boolean and String stay
//     unannotated, as the service writes them.

// Metadata is how much OData metadata a JSON response carries.
type Metadata int

// The three levels of the service's JSON.
const (
	MinimalMetadata Metadata = iota
	NoMetadata
	FullMetadata
)

// String returns the level as it appears in a media type: "nometadata",
// "minimalmetadata" or "fullmetadata".
func (m Metadata) String() string {
	switch m {
	case NoMetadata:
		return "nometadata"
	case FullMetadata:
		return "fullmetadata"
	}
	return "minimalmetadata"
}

// ParseMetadata reads a level as it appears in a media type parameter
// (odata=nometadata). ok is false for anything else.
func ParseMetadata(s string) (m Metadata, ok bool) {
	switch s {
	case "nometadata":
		return NoMetadata, true
	case "minimalmetadata":
		return MinimalMetadata, true
	case "fullmetadata":
		return FullMetadata, true
	}
	return MinimalMetadata, false
}

// EntityLinks are the metadata members that name an entity, written when
// the level asks for them: Metadata (odata.metadata, at the level of the
// response document, minimal and full), and for full metadata Type
// (odata.type, "account.Table"), ID (odata.id, the entity's URL) and
// EditLink (odata.editLink, its URL relative to the service root).
type EntityLinks struct {
	Metadata string
	Type     string
	ID       string
	EditLink string
}

// AppendEntityJSONAs appends e as the service answers with it, at
// metadata level m, with the links the level needs (empty ones are left
// out). A whole Double is bare (3.0), as the service writes it: a reader
// that takes 3.0 for an integer, as JavaScript does, sees an Int32, as it
// would against the service.
func AppendEntityJSONAs(dst []byte, e *Entity, m Metadata, l EntityLinks) []byte {
	dst = append(dst, '{')
	first := true
	member := func(name, value string) {
		if value == "" {
			return
		}
		if !first {
			dst = append(dst, ',')
		}
		first = false
		dst = appendJSONString(dst, name)
		dst = append(dst, ':')
		dst = appendJSONString(dst, value)
	}
	if m != NoMetadata {
		member("odata.metadata", l.Metadata)
	}
	if m == FullMetadata {
		member("odata.type", l.Type)
		member("odata.id", l.ID)
	}
	if m != NoMetadata {
		member("odata.etag", e.ETag())
	}
	if m == FullMetadata {
		member("odata.editLink", l.EditLink)
	}
	if !first {
		dst = append(dst, ',')
	}
	dst = append(dst, `"PartitionKey":`...)
	dst = appendJSONString(dst, e.PartitionKey)
	dst = append(dst, `,"RowKey":`...)
	dst = appendJSONString(dst, e.RowKey)
	if !e.Timestamp.IsZero() {
		if m == FullMetadata {
			dst = append(dst, `,"Timestamp@odata.type":"Edm.DateTime"`...)
		}
		dst = append(dst, `,"Timestamp":"`...)
		dst = appendDateTime(dst, e.Timestamp)
		dst = append(dst, '"')
	}
	for i := range e.Properties {
		p := &e.Properties[i]
		dst = append(dst, ',')
		if m == NoMetadata {
			dst = appendJSONString(dst, p.Name)
			dst = append(dst, ':')
			dst = AppendValueJSON(dst, p.Value)
		} else {
			dst = appendProperty(dst, p.Name, p.Value, false) // a whole Double bare, as the service writes it
		}
	}
	return append(dst, '}')
}

// AppendJSONString appends s as a JSON string (invalid UTF-8 becomes
// U+FFFD; HTML characters are not escaped).
func AppendJSONString(dst []byte, s string) []byte { return appendJSONString(dst, s) }
