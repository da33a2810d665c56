package odata

import (
	"encoding/base64"
	"math"
	"strconv"
	"unicode/utf8"
	"unsafe"
)

// AppendEntityJSON appends e as one line of the service's JSON (no trailing
// newline) to dst and returns the extended buffer.
func AppendEntityJSON(dst []byte, e *Entity) []byte {
	var tb [40]byte
	var ts []byte
	if !e.Timestamp.IsZero() {
		ts = appendDateTime(tb[:0], e.Timestamp)
	}
	var eb [64]byte
	etag := appendETag(eb[:0], e.GivenETag, ts)
	dst = appendEntityJSONHead(dst, e.PartitionKey, e.RowKey, etag, ts)
	for i := range e.Properties {
		p := &e.Properties[i]
		dst = AppendEntityJSONProperty(dst, p.Name, p.Value)
	}
	return append(dst, '}')
}

// AppendEntityJSONStart appends the start of an entity's line exactly as
// AppendEntityJSON writes it, for a caller that holds the entity in pieces
// (a store reading its stored bytes): its keys and, when it is stored
// (ticks, its Timestamp in ticks, is not 0), its ETag and Timestamp. Its
// properties follow with AppendEntityJSONProperty, in order, and '}' ends it.
func AppendEntityJSONStart(dst []byte, pk, rk string, ticks int64) []byte {
	var tb [40]byte
	var ts []byte
	if ticks != 0 {
		ts = appendDateTimeTicks(tb[:0], ticks)
	}
	var eb [64]byte
	return appendEntityJSONHead(dst, pk, rk, appendETag(eb[:0], "", ts), ts)
}

// appendETag appends an entity's ETag: given, when a remote service gave
// one, else derived from its Timestamp ts as appendDateTime writes it;
// nothing for an entity not stored (ts nil, none given).
func appendETag(dst []byte, given string, ts []byte) []byte {
	switch {
	case given != "":
		return append(dst, given...)
	case ts != nil:
		return appendETagOf(dst, ts)
	}
	return dst
}

// AppendEntityJSONProperty appends one property after the start of an
// entity's line (AppendEntityJSONStart) or after its previous property.
func AppendEntityJSONProperty(dst []byte, name string, v Value) []byte {
	dst = append(dst, ',')
	return AppendPropertyJSON(dst, name, v)
}

// appendEntityJSONHead writes '{', the ETag (none when empty), the keys
// and the Timestamp, given as appendDateTime writes it (nil for an entity
// not stored).
func appendEntityJSONHead(dst []byte, pk, rk string, etag, ts []byte) []byte {
	dst = append(dst, '{')
	if len(etag) > 0 {
		dst = append(dst, `"odata.etag":`...)
		dst = appendJSONString(dst, unsafe.String(&etag[0], len(etag)))
		dst = append(dst, ',')
	}
	dst = append(dst, `"PartitionKey":`...)
	dst = appendJSONString(dst, pk)
	dst = append(dst, `,"RowKey":`...)
	dst = appendJSONString(dst, rk)
	if ts != nil {
		dst = append(dst, `,"Timestamp":"`...)
		dst = append(dst, ts...)
		dst = append(dst, '"')
	}
	return dst
}

// AppendPropertyJSON appends one property inside an entity object, in
// tstable's exact form: `"Name":value`, preceded by
// `"Name@odata.type":"Edm.X",` when the type needs the annotation, a whole
// Double included ("Score@odata.type":"Edm.Double","Score":3.0), so that a
// reader that writes 3.0 back as 3 (jq, JavaScript, the Azure SDK for Go
// re-encoding a request) still keeps a Double. The service's answers
// leave a whole Double bare; AppendEntityJSONAs writes them so.
func AppendPropertyJSON(dst []byte, name string, v Value) []byte {
	return appendProperty(dst, name, v, true)
}

// appendProperty appends one property, annotated as its type needs; a
// whole Double is annotated when wholeDouble says so.
func appendProperty(dst []byte, name string, v Value, wholeDouble bool) []byte {
	annotate := func(dst []byte, t string) []byte {
		// "name@odata.type": the suffix needs no escaping and cannot
		// complete a character the name leaves unfinished.
		dst = appendJSONString(dst, name)
		dst = append(dst[:len(dst)-1], `@odata.type":"`...)
		dst = append(dst, t...)
		return append(dst, `",`...)
	}
	switch v.Type {
	case EdmInt64, EdmDateTime, EdmGuid, EdmBinary:
		dst = annotate(dst, v.Type.String())
	case EdmDouble:
		// A finite Double is a JSON number the service's reader knows by
		// its point or exponent (3.0, 1e+21); NaN and the infinities are
		// strings and need the annotation.
		if f := v.Float; math.IsNaN(f) || math.IsInf(f, 0) || (wholeDouble && f == math.Trunc(f)) {
			dst = annotate(dst, "Edm.Double")
		}
	}
	dst = appendJSONString(dst, name)
	dst = append(dst, ':')
	return AppendValueJSON(dst, v)
}

// AppendValueJSON appends a property's value as the service writes it,
// without its type annotation.
func AppendValueJSON(dst []byte, v Value) []byte {
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
		dst = appendDateTimeTicks(dst, v.Int)
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

// jsonPlain says which bytes a JSON string holds as they are: ASCII but
// control characters, '"' and '\\'.
var jsonPlain = func() (t [256]bool) {
	for c := 0x20; c < utf8.RuneSelf; c++ {
		t[c] = c != '"' && c != '\\'
	}
	return t
}()

// appendJSONString appends s as a JSON string. Invalid UTF-8 becomes U+FFFD,
// as encoding/json does; HTML characters are not escaped.
func appendJSONString(dst []byte, s string) []byte {
	dst = append(dst, '"')
	start := 0
	for i := 0; i < len(s); {
		c := s[i]
		if jsonPlain[c] {
			i++
			for i < len(s) && jsonPlain[s[i]] {
				i++
			}
			continue
		}
		if c < utf8.RuneSelf {
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
