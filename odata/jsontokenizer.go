package odata

import (
	"strconv"
	"unicode/utf16"
	"unicode/utf8"
)

// The tokenizer reads one flat JSON object into its members, in order,
// before any typing. It is written by hand rather than built on
// encoding/json because an import decodes millions of lines: on a typical
// entity line, BenchmarkJSONTokenizer (jsontokenizer_test.go) measured
// 1.0 µs and 21 allocations here, against 7.5 µs and 156 allocations for
// encoding/json's Token API (the way to keep the properties' order) and
// 4.3 µs and 51 allocations for json.Unmarshal into a map, which loses the
// order (best of 6 runs, go1.26, linux/amd64, one CPU of a shared machine).

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
