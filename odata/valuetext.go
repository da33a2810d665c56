package odata

import (
	"encoding/base64"
	"strconv"
)

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
		return appendDateTimeTicks(dst, v.Int)
	case EdmBinary:
		return base64.StdEncoding.AppendEncode(dst, []byte(v.Str))
	}
	return dst
}
