package odata

import (
	"fmt"
	"strconv"
	"strings"
	"unicode/utf16"
	"unicode/utf8"
)

// The tokenizer reads one flat JSON object into its members, in order,
// before any typing. It is written by hand rather than built on
// encoding/json because an import decodes millions of lines: on a typical
// entity line, BenchmarkJSONTokenizer (jsontokenizer_test.go) measured
// 0.43 µs and 1 allocation here, against 7.6 µs and 156 allocations for
// encoding/json's Token API (the way to keep the properties' order) and
// 4.3 µs and 51 allocations for json.Unmarshal into a map, which loses the
// order (best of 3 runs, go1.26, linux/amd64, one CPU of a shared machine).

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

// jsonDecoder reads one flat JSON object of scalar members.
//
// src is data as one string, copied once: a name, string or number without
// escapes is a substring of it, so an entity's texts cost one allocation
// together rather than one each.
type jsonDecoder struct {
	data    []byte
	src     string
	pos     int
	members []rawMember       // reused
	names   map[string]string // interned property names, or nil
	order   []string          // the names of the last object, by position
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
	if len(d.src) != len(d.data) {
		d.src = string(d.data)
	}
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
			name, err := d.name(len(members))
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
				if m.text, err = d.str(name, false); err != nil {
					return nil, err
				}
			case c == '-' || c >= '0' && c <= '9':
				m.kind = jsonNumber
				if m.text, err = d.number(name); err != nil {
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

// name scans the property name of member i, sharing the string of one
// seen before. Lines of an import usually name their properties in the
// same order, so the name at the same position in the last object is
// tried before the cache.
func (d *jsonDecoder) name(i int) (string, error) {
	start := d.pos + 1
	end := start
	for end < len(d.data) && d.data[end] != '"' && d.data[end] != '\\' && d.data[end] >= 0x20 {
		end++
	}
	if end < len(d.data) && d.data[end] == '"' {
		if i < len(d.order) && d.order[i] == string(d.data[start:end]) {
			d.pos = end + 1
			return d.order[i], nil
		}
		if s, ok := d.names[string(d.data[start:end])]; ok {
			d.pos = end + 1
			d.remember(i, s)
			return s, nil
		}
	}
	s, err := d.str("", true)
	if err != nil || !d.intern {
		return s, err
	}
	if shared, ok := d.names[s]; ok {
		s = shared
	} else {
		s = strings.Clone(s) // not a piece of this line, which the cache would keep
		if d.names == nil {
			d.names = make(map[string]string)
		}
		if len(d.names) < maxInternedNames {
			d.names[s] = s
		}
	}
	d.remember(i, s)
	return s, nil
}

// remember records name as the name of member i, for the next object.
func (d *jsonDecoder) remember(i int, name string) {
	if !d.intern || i >= maxInternedOrder {
		return
	}
	for len(d.order) <= i {
		d.order = append(d.order, "")
	}
	d.order[i] = name
}

func (d *jsonDecoder) literal(word string) bool {
	if len(d.data)-d.pos >= len(word) && string(d.data[d.pos:d.pos+len(word)]) == word {
		d.pos += len(word)
		return true
	}
	return false
}

// number scans a JSON number, the value of property name, and returns its
// text.
func (d *jsonDecoder) number(name string) (string, error) {
	start := d.pos
	bad := func(msg string) (string, error) {
		return "", d.errorf("bad number for " + strconv.Quote(name) + ": " + msg)
	}
	digits := func() int {
		n := 0
		for d.pos < len(d.data) && d.data[d.pos] >= '0' && d.data[d.pos] <= '9' {
			d.pos++
			n++
		}
		return n
	}
	after := ""
	if d.pos < len(d.data) && d.data[d.pos] == '-' {
		d.pos++
		after = " after '-'"
	}
	intStart := d.pos
	switch n := digits(); {
	case n == 0:
		return bad("expected a digit" + after)
	case n > 1 && d.data[intStart] == '0':
		d.pos = intStart
		return bad("a leading zero must stand alone; write 7, not 07 (the string \"07\" keeps the zero)")
	}
	if d.pos < len(d.data) && d.data[d.pos] == '.' {
		d.pos++
		if digits() == 0 {
			return bad("expected a digit after the decimal point, as in 1.0")
		}
	}
	if d.pos < len(d.data) && (d.data[d.pos] == 'e' || d.data[d.pos] == 'E') {
		d.pos++
		if d.pos < len(d.data) && (d.data[d.pos] == '+' || d.data[d.pos] == '-') {
			d.pos++
		}
		if digits() == 0 {
			return bad("expected the digits of the exponent, as in 1e5")
		}
	}
	return d.src[start:d.pos], nil
}

// str scans a JSON string at d.pos (which holds '"') and returns its value:
// a property name when isName, else the value of property name (which its
// errors name). Text must be valid UTF-8 and a \u escape of a UTF-16
// surrogate one of a pair: the service refuses invalid text, and replacing
// it with U+FFFD would store something else than was sent.
func (d *jsonDecoder) str(name string, isName bool) (string, error) {
	d.pos++
	start := d.pos
	// Fast path: no escapes; UTF-8 is checked only when a byte is not ASCII.
	var high byte
	for d.pos < len(d.data) {
		c := d.data[d.pos]
		if c == '"' {
			if high >= utf8.RuneSelf {
				if err := d.checkUTF8(start, name, isName); err != nil {
					return "", err
				}
			}
			d.pos++
			return d.src[start : d.pos-1], nil
		}
		if c == '\\' {
			break
		}
		if c < 0x20 {
			return "", d.errorf("control character in a string (" + stringOwner(name, isName) + "); escape it (\\n, \\t, \\u00XX)")
		}
		high |= c
		d.pos++
	}
	if err := d.checkUTF8(start, name, isName); err != nil {
		return "", err
	}
	buf := make([]byte, 0, d.pos-start+16)
	buf = append(buf, d.data[start:d.pos]...)
	for d.pos < len(d.data) {
		c := d.data[d.pos]
		switch {
		case c == '"':
			d.pos++
			return string(buf), nil
		case c < 0x20:
			return "", d.errorf("control character in a string (" + stringOwner(name, isName) + "); escape it (\\n, \\t, \\u00XX)")
		case c >= utf8.RuneSelf:
			r, size := utf8.DecodeRune(d.data[d.pos:])
			if r == utf8.RuneError && size == 1 {
				return "", d.invalidUTF8(name, isName)
			}
			buf = append(buf, d.data[d.pos:d.pos+size]...)
			d.pos += size
			continue
		case c != '\\':
			buf = append(buf, c)
			d.pos++
			continue
		}
		escStart := d.pos
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
				r2 := utf8.RuneError
				if d.pos+1 < len(d.data) && d.data[d.pos] == '\\' && d.data[d.pos+1] == 'u' {
					d.pos += 2
					if x, ok := d.hex4(); ok {
						r2 = x
					}
				}
				if r = utf16.DecodeRune(r, r2); r == utf8.RuneError {
					d.pos = escStart
					return "", d.errorf(string(d.data[escStart:escStart+6]) + " in " + stringOwner(name, isName) +
						" is half of a UTF-16 surrogate pair without its other half; tables hold only Unicode text: write the character itself, or both halves as in \\ud83d\\ude00")
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

// checkUTF8 checks the raw text from start to d.pos; on invalid UTF-8 it
// leaves d.pos at the first bad byte and returns the error.
func (d *jsonDecoder) checkUTF8(start int, name string, isName bool) error {
	b := d.data[start:d.pos]
	if utf8.Valid(b) {
		return nil
	}
	for i := 0; i < len(b); {
		r, size := utf8.DecodeRune(b[i:])
		if r == utf8.RuneError && size == 1 {
			d.pos = start + i
			break
		}
		i += size
	}
	return d.invalidUTF8(name, isName)
}

// invalidUTF8 is the error for the byte at d.pos, which starts no UTF-8
// character.
func (d *jsonDecoder) invalidUTF8(name string, isName bool) error {
	return d.errorf("invalid UTF-8 in " + stringOwner(name, isName) + fmt.Sprintf(" (byte 0x%02X)", d.data[d.pos]) +
		"; tables hold only Unicode text: convert the input to UTF-8")
}

// stringOwner names what a string is, for an error message.
func stringOwner(name string, isName bool) string {
	if isName {
		return "a property name"
	}
	return "the value of " + strconv.Quote(name)
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
