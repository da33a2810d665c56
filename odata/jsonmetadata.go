package odata

import "slices"

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
	return AppendSelectedJSONAs(dst, e, nil, m, l)
}

// AppendSelectedJSONAs appends e as the service answers a request with
// $select: sel is ParseSelect's list (nil selects everything, as
// AppendEntityJSONAs writes it). The metadata members of level m come
// first (odata.etag included: it is always there), then, of the system
// properties, only those sel names (PartitionKey, RowKey, Timestamp, in
// that order), then the other names of sel in sel's order, each with its
// value, or null when e has no such property (the service answers a
// selected property the entity lacks so).
func AppendSelectedJSONAs(dst []byte, e *Entity, sel []string, m Metadata, l EntityLinks) []byte {
	return appendSelected(dst, e, sel, m, l, false)
}

// AppendSelectedJSON is AppendSelectedJSONAs at minimal metadata without
// links, in tstable's exact form (AppendPropertyJSON): what the command
// line writes for a query with --select.
func AppendSelectedJSON(dst []byte, e *Entity, sel []string) []byte {
	return appendSelected(dst, e, sel, MinimalMetadata, EntityLinks{}, true)
}

func appendSelected(dst []byte, e *Entity, sel []string, m Metadata, l EntityLinks, exact bool) []byte {
	w := objectWriter{dst: append(dst, '{'), exact: exact}
	w.metadata(e, m, l)
	if sel == nil || slices.Contains(sel, PartitionKey) {
		w.name(PartitionKey)
		w.dst = appendJSONString(w.dst, e.PartitionKey)
	}
	if sel == nil || slices.Contains(sel, RowKey) {
		w.name(RowKey)
		w.dst = appendJSONString(w.dst, e.RowKey)
	}
	if !e.Timestamp.IsZero() && (sel == nil || slices.Contains(sel, Timestamp)) {
		if m == FullMetadata {
			w.name(Timestamp + "@odata.type")
			w.dst = append(w.dst, `"Edm.DateTime"`...)
		}
		w.name(Timestamp)
		w.dst = append(w.dst, '"')
		w.dst = appendDateTime(w.dst, e.Timestamp)
		w.dst = append(w.dst, '"')
	}
	if sel == nil {
		for i := range e.Properties {
			w.property(e.Properties[i].Name, e.Properties[i].Value, m)
		}
		return append(w.dst, '}')
	}
	for _, name := range sel {
		switch name {
		case PartitionKey, RowKey, Timestamp, ETagName:
			continue
		}
		if v, ok := e.Get(name); ok {
			w.property(name, v, m)
		} else {
			w.name(name)
			w.dst = append(w.dst, "null"...)
		}
	}
	return append(w.dst, '}')
}

// objectWriter writes the members of one JSON object, commas between them.
type objectWriter struct {
	dst   []byte
	some  bool // a member was written
	exact bool // a whole Double annotated (tstable's exact form)
}

// name writes the comma before a member (when one came before) and its name.
func (w *objectWriter) name(n string) {
	if w.some {
		w.dst = append(w.dst, ',')
	}
	w.some = true
	w.dst = appendJSONString(w.dst, n)
	w.dst = append(w.dst, ':')
}

// member writes a string member, left out when value is empty.
func (w *objectWriter) member(n, value string) {
	if value != "" {
		w.name(n)
		w.dst = appendJSONString(w.dst, value)
	}
}

// metadata writes the odata.* members of level m.
func (w *objectWriter) metadata(e *Entity, m Metadata, l EntityLinks) {
	if m == NoMetadata {
		return
	}
	w.member("odata.metadata", l.Metadata)
	if m == FullMetadata {
		w.member("odata.type", l.Type)
		w.member("odata.id", l.ID)
	}
	w.member("odata.etag", e.ETag())
	if m == FullMetadata {
		w.member("odata.editLink", l.EditLink)
	}
}

// property writes one property, with the annotation level m asks for.
func (w *objectWriter) property(name string, v Value, m Metadata) {
	if w.some {
		w.dst = append(w.dst, ',')
	}
	w.some = true
	if m == NoMetadata {
		w.dst = appendJSONString(w.dst, name)
		w.dst = append(w.dst, ':')
		w.dst = AppendValueJSON(w.dst, v)
		return
	}
	w.dst = appendProperty(w.dst, name, v, w.exact)
}

// AppendJSONString appends s as a JSON string (invalid UTF-8 becomes
// U+FFFD; HTML characters are not escaped).
func AppendJSONString(dst []byte, s string) []byte { return appendJSONString(dst, s) }
