package odata

import (
	"encoding/base64"
	"math"
	"strconv"
	"strings"
	"unicode/utf16"
	"unicode/utf8"
)

// The service's JSON wire format for one entity (the "minimal metadata"
// shape), which tstable reads and writes:
//
//	{"odata.etag":"W/\"datetime'2014-08-22T00%3A50%3A32.1234567Z'\"",
//	 "PartitionKey":"Sales","RowKey":"00010",
//	 "Timestamp":"2014-08-22T00:50:32.1234567Z",
//	 "Age":23,
//	 "Big@odata.type":"Edm.Int64","Big":"1234567890123",
//	 "When@odata.type":"Edm.DateTime","When":"2014-08-22T00:50:32.0000000Z"}
//
// Output (AppendEntityJSON) writes the service's order: odata.etag (once
// stored), PartitionKey, RowKey, Timestamp (once stored), then the
// properties in their stored order. By type:
//
//   - String: a JSON string. Boolean: true or false. Int32: a JSON number.
//   - Int64: a decimal string, annotated Edm.Int64.
//   - Double: a JSON number. A whole value is written with ".0" (or an
//     exponent) and annotated Edm.Double; NaN, Infinity and -Infinity are
//     the strings "NaN", "Infinity", "-Infinity", annotated Edm.Double.
//   - DateTime: ISO 8601 in UTC with exactly 7 fractional digits, annotated.
//   - Guid: the canonical lower-case string, annotated Edm.Guid.
//   - Binary: standard base64 (with padding), annotated Edm.Binary.
//
// Input (DecodeEntityJSON) accepts one flat JSON object:
//
//   - "Name@odata.type" annotations may come before or after the value;
//     the "Edm." prefix is required, as the service requires it.
//   - A number without annotation is Edm.Int32 when it is whole (no
//     fraction, no exponent) and fits in 32 bits. Otherwise it is
//     Edm.Double, as the service infers only String, Int32, Double and
//     Boolean; but a whole number that a double cannot hold exactly (beyond
//     ±2^53) is refused with a hint to annotate it Edm.Int64, rather than
//     silently rounded.
//   - An annotated Int64 may be a string (the service's form) or a whole
//     number; an annotated Double may be a number or a numeric string,
//     including "NaN", "Infinity", "-Infinity" (also "INF", "-INF").
//   - DateTime accepts yyyy-mm-ddThh:mm[:ss[.fffffff]] with Z, ±hh:mm or no
//     zone (UTC), inside 1601-01-01 … 9999-12-31.
//   - A null value drops the property (and its annotation).
//   - "odata.*" metadata keys (odata.etag, odata.metadata, …), other
//     "@odata.*" annotations than odata.type, and Timestamp are ignored:
//     the store sets Timestamp and ETag itself.
//   - PartitionKey and RowKey must be strings. Nested objects and arrays
//     are refused (the service has no such types), as are duplicate names,
//     an annotation naming an unknown type, and anything after the object.
//
// Errors are *JSONError values naming the property and what to do.

// JSONError is an entity JSON document tstable cannot read: which property
// (or "" for the document itself), the byte offset where the problem was
// found, and what was wrong.
type JSONError struct {
	Property string
	Offset   int
	Msg      string
}

// Error returns "property "Name": message" or "at byte N: message".
func (e *JSONError) Error() string {
	if e.Property != "" {
		return "property " + strconv.Quote(e.Property) + ": " + e.Msg
	}
	return "at byte " + strconv.Itoa(e.Offset) + ": " + e.Msg
}

// AppendEntityJSON appends e as one line of the service's JSON (no trailing
// newline) to dst and returns the extended buffer.
func AppendEntityJSON(dst []byte, e *Entity) []byte {
	dst = append(dst, '{')
	if !e.Timestamp.IsZero() {
		dst = append(dst, `"odata.etag":`...)
		dst = appendJSONString(dst, e.ETag())
		dst = append(dst, ',')
	}
	dst = append(dst, `"PartitionKey":`...)
	dst = appendJSONString(dst, e.PartitionKey)
	dst = append(dst, `,"RowKey":`...)
	dst = appendJSONString(dst, e.RowKey)
	if !e.Timestamp.IsZero() {
		dst = append(dst, `,"Timestamp":"`...)
		dst = e.Timestamp.UTC().AppendFormat(dst, "2006-01-02T15:04:05.0000000Z")
		dst = append(dst, '"')
	}
	for i := range e.Properties {
		p := &e.Properties[i]
		dst = append(dst, ',')
		dst = AppendPropertyJSON(dst, p.Name, p.Value)
	}
	return append(dst, '}')
}

// AppendPropertyJSON appends one property as the service writes it inside
// an entity object: `"Name":value`, preceded by `"Name@odata.type":"Edm.X",`
// when the type needs the annotation.
func AppendPropertyJSON(dst []byte, name string, v Value) []byte {
	annotate := func(dst []byte, t string) []byte {
		dst = appendJSONString(dst, name+"@odata.type")
		dst = append(dst, `:"`...)
		dst = append(dst, t...)
		return append(dst, `",`...)
	}
	switch v.Type {
	case EdmInt64, EdmDateTime, EdmGuid, EdmBinary:
		dst = annotate(dst, v.Type.String())
	case EdmDouble:
		f := v.Float
		if math.IsNaN(f) || math.IsInf(f, 0) || f == math.Trunc(f) {
			dst = annotate(dst, "Edm.Double")
		}
	}
	dst = appendJSONString(dst, name)
	dst = append(dst, ':')
	switch v.Type {
	case EdmString, EdmGuid:
		dst = appendJSONString(dst, v.Str)
	case EdmInt32:
		dst = strconv.AppendInt(dst, v.Int, 10)
	case EdmInt64:
		dst = append(dst, '"')
		dst = strconv.AppendInt(dst, v.Int, 10)
		dst = append(dst, '"')
	case EdmDouble:
		dst = appendJSONDouble(dst, v.Float)
	case EdmBoolean:
		dst = strconv.AppendBool(dst, v.Bool())
	case EdmDateTime:
		dst = append(dst, '"')
		dst = v.Time().AppendFormat(dst, "2006-01-02T15:04:05.0000000Z")
		dst = append(dst, '"')
	case EdmBinary:
		dst = append(dst, '"')
		dst = base64.StdEncoding.AppendEncode(dst, []byte(v.Str))
		dst = append(dst, '"')
	default:
		dst = append(dst, "null"...)
	}
	return dst
}

func appendJSONDouble(dst []byte, f float64) []byte {
	switch {
	case math.IsNaN(f):
		return append(dst, `"NaN"`...)
	case math.IsInf(f, 1):
		return append(dst, `"Infinity"`...)
	case math.IsInf(f, -1):
		return append(dst, `"-Infinity"`...)
	}
	start := len(dst)
	dst = strconv.AppendFloat(dst, f, 'g', -1, 64)
	for _, c := range dst[start:] {
		if c == '.' || c == 'e' {
			return dst
		}
	}
	return append(dst, ".0"...)
}

const hexDigits = "0123456789abcdef"

// appendJSONString appends s as a JSON string. Invalid UTF-8 becomes U+FFFD,
// as encoding/json does; HTML characters are not escaped.
func appendJSONString(dst []byte, s string) []byte {
	dst = append(dst, '"')
	start := 0
	for i := 0; i < len(s); {
		c := s[i]
		if c < utf8.RuneSelf {
			if c >= 0x20 && c != '"' && c != '\\' {
				i++
				continue
			}
			dst = append(dst, s[start:i]...)
			switch c {
			case '"', '\\':
				dst = append(dst, '\\', c)
			case '\n':
				dst = append(dst, '\\', 'n')
			case '\r':
				dst = append(dst, '\\', 'r')
			case '\t':
				dst = append(dst, '\\', 't')
			default:
				dst = append(dst, '\\', 'u', '0', '0', hexDigits[c>>4], hexDigits[c&0xF])
			}
			i++
			start = i
			continue
		}
		r, size := utf8.DecodeRuneInString(s[i:])
		if r == utf8.RuneError && size == 1 {
			dst = append(dst, s[start:i]...)
			dst = append(dst, `\ufffd`...)
			i += size
			start = i
			continue
		}
		i += size
	}
	dst = append(dst, s[start:]...)
	return append(dst, '"')
}

// jsonKind is the JSON type of a raw value.
type jsonKind uint8

const (
	jsonString jsonKind = iota + 1
	jsonNumber
	jsonTrue
	jsonFalse
	jsonNull
)

// rawMember is one "name": value pair as read, before typing.
type rawMember struct {
	name string
	kind jsonKind
	text string // the decoded string, or the number's text
	off  int
}

// DecodeEntityJSON reads one entity from the service's JSON (see the rules
// above). The entity's Timestamp is left zero.
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
	oneOff  bool // DecodeEntityJSON: no name cache
}

// maxInternedNames bounds the name cache of an EntityDecoder.
const maxInternedNames = 4096

// Decode reads one entity, as DecodeEntityJSON does.
func (dec *EntityDecoder) Decode(data []byte) (*Entity, error) {
	d := jsonDecoder{data: data, members: dec.members[:0], names: dec.names, intern: !dec.oneOff}
	members, err := d.object()
	dec.members, dec.names = members[:0], d.names
	if err != nil {
		return nil, err
	}
	e := &Entity{}
	var havePK, haveRK bool
	// Annotations are few; a linear search beats a map for typical entities.
	var types []rawMember
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
			types = append(types, rawMember{name: base, text: m.text, off: m.off})
		}
	}
	e.Properties = make([]Property, 0, len(members)-2*len(types))
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
		return nil, &JSONError{Offset: 0, Msg: "the entity has no PartitionKey; every entity needs \"PartitionKey\" and \"RowKey\" strings"}
	}
	if !haveRK {
		return nil, &JSONError{Offset: 0, Msg: "the entity has no RowKey; every entity needs \"PartitionKey\" and \"RowKey\" strings"}
	}
	return e, nil
}

// typeValue turns a raw member into a Value of the annotated type, or of
// the inferred type when there is no annotation.
func typeValue(m *rawMember, typeName string, typed bool) (Value, error) {
	fail := func(msg string) (Value, error) {
		return Value{}, &JSONError{Property: m.name, Offset: m.off, Msg: msg}
	}
	if !typed {
		switch m.kind {
		case jsonString:
			return String(m.text), nil
		case jsonTrue:
			return Bool(true), nil
		case jsonFalse:
			return Bool(false), nil
		}
		// A number.
		if !strings.ContainsAny(m.text, ".eE") {
			i, err := strconv.ParseInt(m.text, 10, 64)
			if err == nil && i >= math.MinInt32 && i <= math.MaxInt32 {
				return Int32(int32(i)), nil
			}
			if err != nil || i > 1<<53 || i < -(1<<53) {
				return fail(m.text + " does not fit in Edm.Int32 and a double cannot hold it exactly; annotate it: \"" + m.name + "@odata.type\":\"Edm.Int64\" with the value as a string")
			}
			return Double(float64(i)), nil
		}
		f, err := strconv.ParseFloat(m.text, 64)
		if err != nil {
			return fail(m.text + " is outside the Edm.Double range")
		}
		return Double(f), nil
	}
	t, ok := edmTypeByWireName(typeName)
	if !ok {
		return fail("unknown @odata.type " + strconv.Quote(typeName) + "; expected one of Edm.String, Edm.Int32, Edm.Int64, Edm.Double, Edm.Boolean, Edm.DateTime, Edm.Guid, Edm.Binary")
	}
	wrong := func(want string) (Value, error) {
		return fail("is annotated " + t.String() + " but its value is " + describeKind(m.kind) + "; expected " + want)
	}
	switch t {
	case EdmString:
		if m.kind != jsonString {
			return wrong("a string")
		}
		return String(m.text), nil
	case EdmBoolean:
		switch m.kind {
		case jsonTrue:
			return Bool(true), nil
		case jsonFalse:
			return Bool(false), nil
		}
		return wrong("true or false")
	case EdmInt32:
		if m.kind != jsonNumber && m.kind != jsonString {
			return wrong("a whole number")
		}
		i, err := strconv.ParseInt(m.text, 10, 32)
		if err != nil {
			return fail(strconv.Quote(m.text) + " is not an Edm.Int32 (a whole number from -2147483648 to 2147483647)")
		}
		return Int32(int32(i)), nil
	case EdmInt64:
		if m.kind != jsonNumber && m.kind != jsonString {
			return wrong("a whole number in a string, such as \"1234567890123\"")
		}
		i, err := strconv.ParseInt(m.text, 10, 64)
		if err != nil {
			return fail(strconv.Quote(m.text) + " is not an Edm.Int64 (a whole number from -9223372036854775808 to 9223372036854775807)")
		}
		return Int64(i), nil
	case EdmDouble:
		if m.kind != jsonNumber && m.kind != jsonString {
			return wrong("a number, or \"NaN\", \"Infinity\" or \"-Infinity\"")
		}
		switch m.text {
		case "NaN":
			return Double(math.NaN()), nil
		case "Infinity", "INF":
			return Double(math.Inf(1)), nil
		case "-Infinity", "-INF":
			return Double(math.Inf(-1)), nil
		}
		f, err := strconv.ParseFloat(m.text, 64)
		if err != nil || (m.kind == jsonString && !isJSONNumber(m.text)) {
			return fail(strconv.Quote(m.text) + " is not an Edm.Double (a number, \"NaN\", \"Infinity\" or \"-Infinity\")")
		}
		return Double(f), nil
	case EdmDateTime:
		if m.kind != jsonString {
			return wrong("a string such as \"2014-08-22T00:50:32.0000000Z\"")
		}
		ticks, lerr := parseDateTimeLiteral(m.text)
		if lerr != nil {
			msg := strings.Replace(lerr.msg, "datetime'yyyy-mm-ddThh:mm:ss[.fffffff]Z', as in datetime'2014-08-22T00:50:32Z'", "\"yyyy-mm-ddThh:mm:ss[.fffffff]Z\", as in \"2014-08-22T00:50:32Z\"", 1)
			return fail(strings.Replace(msg, "bad datetime literal", "bad Edm.DateTime "+strconv.Quote(m.text), 1))
		}
		return DateTimeTicks(ticks), nil
	case EdmGuid:
		if m.kind != jsonString {
			return wrong("a string such as \"00000000-0000-0000-0000-000000000000\"")
		}
		v, err := Guid(m.text)
		if err != nil {
			return fail(err.Error())
		}
		return v, nil
	case EdmBinary:
		if m.kind != jsonString {
			return wrong("a base64 string")
		}
		b, err := base64.StdEncoding.DecodeString(m.text)
		if err != nil {
			return fail("the value is not standard base64 (" + err.Error() + ")")
		}
		return Binary(b), nil
	}
	return fail("unsupported type " + t.String())
}

// edmTypeByWireName maps "Edm.Int64" to its type; the prefix is required
// and the name is case-sensitive, as on the wire.
func edmTypeByWireName(name string) (EdmType, bool) {
	for t := EdmString; t <= EdmBinary; t++ {
		if edmNames[t] == name {
			return t, true
		}
	}
	return 0, false
}

func describeKind(k jsonKind) string {
	switch k {
	case jsonString:
		return "a string"
	case jsonNumber:
		return "a number"
	case jsonTrue, jsonFalse:
		return "a boolean"
	}
	return "null"
}

// isJSONNumber reports whether s is a JSON number literal.
func isJSONNumber(s string) bool {
	d := jsonDecoder{data: []byte(s)}
	_, err := d.number()
	return err == nil && d.pos == len(s)
}

// jsonDecoder reads one flat JSON object of scalar members.
type jsonDecoder struct {
	data    []byte
	pos     int
	members []rawMember       // reused
	names   map[string]string // interned property names, or nil
	intern  bool              // add new names to names
}

func (d *jsonDecoder) errorf(msg string) error {
	return &JSONError{Offset: d.pos, Msg: msg}
}

func (d *jsonDecoder) skipSpace() {
	for d.pos < len(d.data) {
		switch d.data[d.pos] {
		case ' ', '\t', '\n', '\r':
			d.pos++
		default:
			return
		}
	}
}

func (d *jsonDecoder) object() ([]rawMember, error) {
	d.skipSpace()
	if d.pos >= len(d.data) {
		return nil, d.errorf("expected an entity object {...}, found nothing")
	}
	if d.data[d.pos] != '{' {
		return nil, d.errorf("expected an entity object starting with '{'")
	}
	d.pos++
	members := d.members
	if members == nil {
		members = make([]rawMember, 0, 16)
	}
	d.skipSpace()
	if d.pos < len(d.data) && d.data[d.pos] == '}' {
		d.pos++
	} else {
		for {
			d.skipSpace()
			if d.pos >= len(d.data) || d.data[d.pos] != '"' {
				return nil, d.errorf("expected a property name in double quotes")
			}
			name, err := d.name()
			if err != nil {
				return members, err
			}
			d.skipSpace()
			if d.pos >= len(d.data) || d.data[d.pos] != ':' {
				return nil, d.errorf("expected ':' after the property name " + strconv.Quote(name))
			}
			d.pos++
			d.skipSpace()
			m := rawMember{name: name, off: d.pos}
			if d.pos >= len(d.data) {
				return nil, d.errorf("expected a value for " + strconv.Quote(name))
			}
			switch c := d.data[d.pos]; {
			case c == '"':
				m.kind = jsonString
				if m.text, err = d.str(); err != nil {
					return nil, err
				}
			case c == '-' || c >= '0' && c <= '9':
				m.kind = jsonNumber
				if m.text, err = d.number(); err != nil {
					return nil, err
				}
			case d.literal("true"):
				m.kind = jsonTrue
			case d.literal("false"):
				m.kind = jsonFalse
			case d.literal("null"):
				m.kind = jsonNull
			case c == '{' || c == '[':
				return nil, &JSONError{Property: name, Offset: d.pos, Msg: "nested objects and arrays are not entity property values (the service stores only scalar types)"}
			default:
				return nil, d.errorf("expected a value for " + strconv.Quote(name) + " (a string, number, true, false or null)")
			}
			members = append(members, m)
			d.skipSpace()
			if d.pos >= len(d.data) {
				return nil, d.errorf("the object is not closed; expected ',' or '}'")
			}
			if d.data[d.pos] == ',' {
				d.pos++
				continue
			}
			if d.data[d.pos] == '}' {
				d.pos++
				break
			}
			return nil, d.errorf("expected ',' or '}' after the value of " + strconv.Quote(name))
		}
	}
	d.skipSpace()
	if d.pos != len(d.data) {
		return nil, d.errorf("unexpected text after the entity object (one entity per document or line)")
	}
	return members, nil
}

// name scans a property name, sharing the string of one seen before.
func (d *jsonDecoder) name() (string, error) {
	start := d.pos + 1
	end := start
	for end < len(d.data) && d.data[end] != '"' && d.data[end] != '\\' && d.data[end] >= 0x20 {
		end++
	}
	if end < len(d.data) && d.data[end] == '"' {
		if s, ok := d.names[string(d.data[start:end])]; ok {
			d.pos = end + 1
			return s, nil
		}
	}
	s, err := d.str()
	if err == nil && d.intern {
		if d.names == nil {
			d.names = make(map[string]string)
		}
		if len(d.names) < maxInternedNames {
			d.names[s] = s
		}
	}
	return s, err
}

func (d *jsonDecoder) literal(word string) bool {
	if len(d.data)-d.pos >= len(word) && string(d.data[d.pos:d.pos+len(word)]) == word {
		d.pos += len(word)
		return true
	}
	return false
}

// number scans a JSON number and returns its text.
func (d *jsonDecoder) number() (string, error) {
	start := d.pos
	digits := func() int {
		n := 0
		for d.pos < len(d.data) && d.data[d.pos] >= '0' && d.data[d.pos] <= '9' {
			d.pos++
			n++
		}
		return n
	}
	if d.pos < len(d.data) && d.data[d.pos] == '-' {
		d.pos++
	}
	intStart := d.pos
	if n := digits(); n == 0 || (n > 1 && d.data[intStart] == '0') {
		return "", d.errorf("bad number: expected digits without leading zeros")
	}
	if d.pos < len(d.data) && d.data[d.pos] == '.' {
		d.pos++
		if digits() == 0 {
			return "", d.errorf("bad number: expected digits after '.'")
		}
	}
	if d.pos < len(d.data) && (d.data[d.pos] == 'e' || d.data[d.pos] == 'E') {
		d.pos++
		if d.pos < len(d.data) && (d.data[d.pos] == '+' || d.data[d.pos] == '-') {
			d.pos++
		}
		if digits() == 0 {
			return "", d.errorf("bad number: expected exponent digits")
		}
	}
	return string(d.data[start:d.pos]), nil
}

// str scans a JSON string at d.pos (which holds '"') and returns its value.
func (d *jsonDecoder) str() (string, error) {
	d.pos++
	start := d.pos
	// Fast path: no escapes.
	for d.pos < len(d.data) {
		c := d.data[d.pos]
		if c == '"' {
			s := d.data[start:d.pos]
			d.pos++
			if !utf8.Valid(s) {
				return string([]rune(string(s))), nil // replace invalid bytes with U+FFFD
			}
			return string(s), nil
		}
		if c == '\\' {
			break
		}
		if c < 0x20 {
			return "", d.errorf("control character in a string; escape it (\\n, \\t, \\u00XX)")
		}
		d.pos++
	}
	buf := make([]byte, 0, d.pos-start+16)
	buf = append(buf, d.data[start:d.pos]...)
	for d.pos < len(d.data) {
		c := d.data[d.pos]
		switch {
		case c == '"':
			d.pos++
			if !utf8.Valid(buf) {
				return string([]rune(string(buf))), nil
			}
			return string(buf), nil
		case c < 0x20:
			return "", d.errorf("control character in a string; escape it (\\n, \\t, \\u00XX)")
		case c != '\\':
			buf = append(buf, c)
			d.pos++
			continue
		}
		d.pos++
		if d.pos >= len(d.data) {
			break
		}
		esc := d.data[d.pos]
		d.pos++
		switch esc {
		case '"', '\\', '/':
			buf = append(buf, esc)
		case 'b':
			buf = append(buf, '\b')
		case 'f':
			buf = append(buf, '\f')
		case 'n':
			buf = append(buf, '\n')
		case 'r':
			buf = append(buf, '\r')
		case 't':
			buf = append(buf, '\t')
		case 'u':
			r, ok := d.hex4()
			if !ok {
				return "", d.errorf("bad \\u escape; expected four hexadecimal digits")
			}
			if utf16.IsSurrogate(r) {
				save := d.pos
				r2 := utf8.RuneError
				if d.pos+1 < len(d.data) && d.data[d.pos] == '\\' && d.data[d.pos+1] == 'u' {
					d.pos += 2
					if x, ok := d.hex4(); ok {
						r2 = x
					}
				}
				if dec := utf16.DecodeRune(r, r2); dec != utf8.RuneError {
					r = dec
				} else {
					d.pos = save
					r = utf8.RuneError
				}
			}
			buf = utf8.AppendRune(buf, r)
		default:
			d.pos--
			return "", d.errorf("bad escape \\" + string(rune(esc)) + " in a string")
		}
	}
	return "", d.errorf("the string is not closed; expected '\"'")
}

func (d *jsonDecoder) hex4() (rune, bool) {
	if d.pos+4 > len(d.data) {
		return 0, false
	}
	var r rune
	for _, c := range d.data[d.pos : d.pos+4] {
		r <<= 4
		switch {
		case c >= '0' && c <= '9':
			r |= rune(c - '0')
		case c >= 'a' && c <= 'f':
			r |= rune(c - 'a' + 10)
		case c >= 'A' && c <= 'F':
			r |= rune(c - 'A' + 10)
		default:
			return 0, false
		}
	}
	d.pos += 4
	return r, true
}

// ParseValueText reads a value of type t from its text form: the form a
// JSON string carries it in (Int64 digits, "NaN", ISO 8601, base64, …) and
// the form CSV cells use. Booleans are true or false (also 1 or 0, True,
// FALSE). name is the property, for the error message.
func ParseValueText(name string, t EdmType, s string) (Value, error) {
	if t == EdmBoolean {
		b, err := strconv.ParseBool(s)
		if err != nil {
			return Value{}, &JSONError{Property: name, Msg: strconv.Quote(s) + " is not an Edm.Boolean (true or false)"}
		}
		return Bool(b), nil
	}
	if !t.Valid() {
		return Value{}, &JSONError{Property: name, Msg: "unknown type " + t.String()}
	}
	m := rawMember{name: name, kind: jsonString, text: s}
	return typeValue(&m, t.String(), true)
}

// AppendValueText appends the text form ParseValueText reads back: strings
// as they are, numbers in their shortest exact form (NaN, Infinity,
// -Infinity), DateTime with 7 fractional digits, Binary in base64.
func AppendValueText(dst []byte, v Value) []byte {
	switch v.Type {
	case EdmString, EdmGuid:
		return append(dst, v.Str...)
	case EdmInt32, EdmInt64:
		return strconv.AppendInt(dst, v.Int, 10)
	case EdmDouble:
		return append(dst, FormatDouble(v.Float)...)
	case EdmBoolean:
		return strconv.AppendBool(dst, v.Bool())
	case EdmDateTime:
		return v.Time().AppendFormat(dst, "2006-01-02T15:04:05.0000000Z")
	case EdmBinary:
		return base64.StdEncoding.AppendEncode(dst, []byte(v.Str))
	}
	return dst
}
