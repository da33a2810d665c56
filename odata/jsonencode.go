package odata

import (
	"encoding/base64"
	"math"
	"strconv"
	"unicode/utf8"
)

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
