package odata

import (
	"strings"
	"time"
)

// System property names. They are not user properties and may not be
// written as such.
const (
	PartitionKey = "PartitionKey"
	RowKey       = "RowKey"
	Timestamp    = "Timestamp"
	// ETagName is the member that carries an entity's ETag in the
	// service's JSON.
	ETagName = "odata.etag"
)

// Property is one user property of an entity.
type Property struct {
	Name  string
	Value Value
}

// Entity is a table entity: its two keys, the Timestamp the store set on
// its last write (zero before it is stored), and its user properties in the
// order they were written.
type Entity struct {
	PartitionKey string
	RowKey       string
	Timestamp    time.Time
	// GivenETag is the ETag exactly as a remote service sent it with the
	// entity, or empty. A remote service compares If-Match with its own
	// text, which need not be ETagFor(Timestamp): Azurite keeps the
	// trailing zeros of the time in its ETags, where the service and
	// tstable leave them out. The local store leaves it empty; its ETag
	// is derived from Timestamp. A write ignores it.
	GivenETag  string
	Properties []Property
}

// Unversioned returns a shallow copy of e without what names its stored
// version, Timestamp and GivenETag: the entity as a write sends it, to a
// destination that sets its own.
func (e *Entity) Unversioned() *Entity {
	c := *e
	c.Timestamp = time.Time{}
	c.GivenETag = ""
	return &c
}

// Record is what a filter is evaluated against: a lookup of a property by
// name, system properties included. Store implementations may satisfy it
// without decoding a whole entity.
type Record interface {
	Get(name string) (Value, bool)
}

// Get returns the named property. PartitionKey and RowKey are Edm.String
// values; Timestamp is an Edm.DateTime value once the entity is stored.
func (e *Entity) Get(name string) (Value, bool) {
	switch name {
	case PartitionKey:
		return String(e.PartitionKey), true
	case RowKey:
		return String(e.RowKey), true
	case Timestamp:
		if e.Timestamp.IsZero() {
			return Value{}, false
		}
		return DateTime(e.Timestamp), true
	}
	for i := range e.Properties {
		if e.Properties[i].Name == name {
			return e.Properties[i].Value, true
		}
	}
	return Value{}, false
}

// Set sets a user property, replacing one of the same name in place or
// appending a new one.
func (e *Entity) Set(name string, v Value) {
	for i := range e.Properties {
		if e.Properties[i].Name == name {
			e.Properties[i].Value = v
			return
		}
	}
	e.Properties = append(e.Properties, Property{Name: name, Value: v})
}

// Delete removes a user property if present.
func (e *Entity) Delete(name string) {
	for i := range e.Properties {
		if e.Properties[i].Name == name {
			e.Properties = append(e.Properties[:i], e.Properties[i+1:]...)
			return
		}
	}
}

// Clone returns a deep copy (values are immutable, so the property slice is
// the only thing copied).
func (e *Entity) Clone() *Entity {
	c := *e
	c.Properties = append([]Property(nil), e.Properties...)
	return &c
}

// ETag returns the entity's ETag: the one a remote service gave
// (GivenETag), else one derived from its Timestamp in the service's form
// W/"datetime'2014-08-22T00%3A50%3A32.1234567Z'". It is empty for an
// entity that has not been stored.
func (e *Entity) ETag() string {
	if e.GivenETag != "" {
		return e.GivenETag
	}
	if e.Timestamp.IsZero() {
		return ""
	}
	return ETagFor(e.Timestamp)
}

// CheckETag says what is wrong with an If-Match value, if anything. It
// must be "*" or a weak ETag, W/"…" (w/ too): any weak ETag is a
// condition, which an entity's ETag meets or not (W/"wrong" is simply
// never met, as the service answers it: 412). A value of another form —
// a strong ETag "…", a bare word, one copied from JSON with its
// backslashes — is refused as InvalidInput, as the service refuses it.
func CheckETag(s string) error {
	if s == "" || s == "*" || isWeakETag(s) {
		return nil
	}
	hint := ""
	if strings.Contains(s, `\"`) {
		hint = "; it looks copied from JSON: remove the backslashes before the quotes"
	}
	return Errorf(CodeInvalidInput, "if-match %s is not an ETag: expected * or one as tstable prints it, W/\"datetime'2024-01-02T03%%3A04%%3A05.1234567Z'\"%s", s, hint)
}

// isWeakETag reports whether s has the form of a weak entity tag, W/"…".
func isWeakETag(s string) bool {
	return len(s) >= 4 && (s[0] == 'W' || s[0] == 'w') && s[1] == '/' && s[2] == '"' && s[len(s)-1] == '"' &&
		!strings.Contains(s[3:len(s)-1], `"`)
}

// ETagMatches reports whether the If-Match value s (which CheckETag
// accepts) names the version of an entity stored at ticks: "*" always
// does; a weak ETag when it carries that time, in any of the forms a
// time's ETag has been written (seven digits, or trailing zeros left out).
func ETagMatches(s string, ticks int64) bool {
	if s == "" || s == "*" {
		return true
	}
	if !isWeakETag(s) {
		return false
	}
	t, ok := strings.CutPrefix(s[3:len(s)-1], "datetime'")
	if ok {
		t, ok = strings.CutSuffix(t, "'")
	}
	if ok {
		t, ok = unescapeQuery(t)
	}
	if !ok {
		return false
	}
	got, lerr := parseDateTimeLiteral(t)
	return lerr == nil && got == ticks
}

// ETagFor returns the weak ETag the service derives from a Timestamp.
func ETagFor(ts time.Time) string {
	var dt [40]byte // a DateTime's text is 28 bytes
	var tag [80]byte
	return string(appendETagOf(tag[:0], appendDateTime(dt[:0], ts)))
}

// unescapeQuery decodes s as a URL's query component (%XX escapes and +
// for a space), as net/url's QueryUnescape does; ok is false when an
// escape is malformed.
func unescapeQuery(s string) (string, bool) {
	if !strings.ContainsAny(s, "%+") {
		return s, true
	}
	unhex := func(c byte) (byte, bool) {
		switch {
		case '0' <= c && c <= '9':
			return c - '0', true
		case 'a' <= c && c <= 'f':
			return c - 'a' + 10, true
		case 'A' <= c && c <= 'F':
			return c - 'A' + 10, true
		}
		return 0, false
	}
	b := make([]byte, 0, len(s))
	for i := 0; i < len(s); i++ {
		switch s[i] {
		case '%':
			if i+2 >= len(s) {
				return "", false
			}
			hi, ok1 := unhex(s[i+1])
			lo, ok2 := unhex(s[i+2])
			if !ok1 || !ok2 {
				return "", false
			}
			b = append(b, hi<<4|lo)
			i += 2
		case '+':
			b = append(b, ' ')
		default:
			b = append(b, s[i])
		}
	}
	return string(b), true
}
