package odata

import (
	"encoding/base64"
	"errors"
	"math"
	"strconv"
	"strings"
	"unicode/utf8"
)

// How the decoder types a JSON value (the rest of the wire format is in
// jsonformat.go):
//
//   - Without annotation: a string is Edm.String, true and false are
//     Edm.Boolean.
//   - A number without annotation is Edm.Int32 when it is whole (no
//     fraction, no exponent) and fits in 32 bits. Otherwise it is
//     Edm.Double, as the service infers only String, Int32, Double and
//     Boolean; but a whole number that a double cannot hold exactly (beyond
//     ±2^53) is refused with a hint to annotate it Edm.Int64, rather than
//     silently rounded.
//   - An annotated Int64 may be a string (the service's form) or a whole
//     number; an annotated Double may be a number or a numeric string,
//     including "NaN", "Infinity", "-Infinity" (also "INF", "-INF").
//   - An annotated Int32 may be a number or a numeric string; Boolean
//     true or false, or the string "true" or "false" (Storage Explorer and
//     the az CLI send those, and the service stores a Boolean); String a
//     string.
//   - DateTime accepts yyyy-mm-ddThh:mm[:ss[.fffffff]] with Z, ±hh:mm or no
//     zone (UTC), inside 1601-01-01 … 9999-12-31.
//   - Guid accepts either case, with or without braces, and is kept in the
//     canonical lower-case form; Binary is standard base64 with padding.

// typeValue turns a raw member into a Value of the annotated type, or of
// the inferred type when there is no annotation.
func typeValue(m *rawMember, typeName string, typed bool) (Value, error) {
	if !typed {
		return inferValue(m)
	}
	t, ok := edmTypeByWireName(typeName)
	if !ok {
		return Value{}, m.fail(unknownTypeMsg(typeName))
	}
	return annotatedValue(m, t)
}

// unknownTypeMsg says that typeName, an @odata.type's value, names no
// type a property can have.
func unknownTypeMsg(typeName string) string {
	return "unknown @odata.type " + strconv.Quote(typeName) + "; expected one of Edm.String, Edm.Int32, Edm.Int64, Edm.Double, Edm.Boolean, Edm.DateTime, Edm.Guid, Edm.Binary"
}

// fail is the error of a member whose value cannot be taken.
func (m *rawMember) fail(msg string) error {
	return &JSONError{Property: m.name, Offset: m.off, Msg: msg}
}

// inferValue is the Value of a member with no annotation: a string, a
// boolean, or a number as Int32 when whole and in range, else Double.
func inferValue(m *rawMember) (Value, error) {
	switch m.kind {
	case jsonString:
		return String(m.text), nil
	case jsonTrue:
		return Bool(true), nil
	case jsonFalse:
		return Bool(false), nil
	}
	if strings.ContainsAny(m.text, ".eE") {
		f, err := strconv.ParseFloat(m.text, 64)
		if err != nil {
			return Value{}, m.fail(m.text + doubleRange)
		}
		return Double(f), nil
	}
	i, err := strconv.ParseInt(m.text, 10, 64)
	switch {
	case err == nil && i >= math.MinInt32 && i <= math.MaxInt32:
		return Int32(int32(i)), nil
	case err != nil:
		return Value{}, m.fail(m.text + " is beyond the Edm.Int64 range (-9223372036854775808 to 9223372036854775807); store it as a string, or as a rounded Edm.Double written with an exponent (1.5e30)")
	case i > 1<<53 || i < -(1<<53):
		return Value{}, m.fail(m.text + " does not fit in Edm.Int32 and a double cannot hold it exactly; annotate it: \"" + m.name + "@odata.type\":\"Edm.Int64\" with the value as a string")
	}
	return Double(float64(i)), nil
}

// annotatedValue is the Value of a member annotated with type t.
func annotatedValue(m *rawMember, t EdmType) (Value, error) {
	wrong := func(want string) (Value, error) {
		return Value{}, m.fail("is annotated " + t.String() + " but its value is " + describeKind(m.kind) + "; expected " + want)
	}
	number := m.kind == jsonNumber || m.kind == jsonString
	switch {
	case t == EdmString && m.kind == jsonString:
		return String(m.text), nil
	case t == EdmString:
		return wrong("a string")
	case t == EdmBoolean && (m.kind == jsonTrue || m.kind == jsonFalse):
		return Bool(m.kind == jsonTrue), nil
	case t == EdmBoolean && m.kind == jsonString && (m.text == "true" || m.text == "false"):
		return Bool(m.text == "true"), nil // as Storage Explorer and the az CLI send it
	case t == EdmBoolean:
		return wrong("true or false (or the string \"true\" or \"false\")")
	case t == EdmInt32 && !number:
		return wrong("a whole number")
	case t == EdmInt64 && !number:
		return wrong("a whole number in a string, such as \"1234567890123\"")
	case t == EdmDouble && !number:
		return wrong("a number, or \"NaN\", \"Infinity\" or \"-Infinity\"")
	case t == EdmDateTime && m.kind != jsonString:
		return wrong("a string such as \"2014-08-22T00:50:32.0000000Z\"")
	case t == EdmGuid && m.kind != jsonString:
		return wrong("a string such as \"00000000-0000-0000-0000-000000000000\"")
	case t == EdmBinary && m.kind != jsonString:
		return wrong("a base64 string")
	}
	return parseAnnotated(m, t)
}

// parseAnnotated reads the text of a member of the right JSON kind as type t.
func parseAnnotated(m *rawMember, t EdmType) (Value, error) {
	switch t {
	case EdmInt32:
		i, err := strconv.ParseInt(m.text, 10, 32)
		if err != nil {
			return Value{}, m.fail(strconv.Quote(m.text) + " is not an Edm.Int32 (a whole number from -2147483648 to 2147483647)")
		}
		return Int32(int32(i)), nil
	case EdmInt64:
		i, err := strconv.ParseInt(m.text, 10, 64)
		if err != nil {
			return Value{}, m.fail(strconv.Quote(m.text) + " is not an Edm.Int64 (a whole number from -9223372036854775808 to 9223372036854775807)")
		}
		return Int64(i), nil
	case EdmDouble:
		return annotatedDouble(m)
	case EdmDateTime:
		ticks, lerr := parseDateTimeLiteral(m.text)
		if lerr != nil {
			msg := strings.Replace(lerr.msg, "datetime'yyyy-mm-ddThh:mm:ss[.fffffff]Z', as in datetime'2014-08-22T00:50:32Z'", "\"yyyy-mm-ddThh:mm:ss[.fffffff]Z\", as in \"2014-08-22T00:50:32Z\"", 1)
			return Value{}, m.fail(strings.Replace(msg, "bad datetime literal", "bad Edm.DateTime "+strconv.Quote(m.text), 1))
		}
		return DateTimeTicks(ticks), nil
	case EdmGuid:
		v, err := Guid(m.text)
		if err != nil {
			return Value{}, m.fail(err.Error())
		}
		return v, nil
	case EdmBinary:
		b, err := base64.StdEncoding.DecodeString(m.text)
		if err != nil {
			return Value{}, m.fail(base64Problem(m.text, err))
		}
		return Binary(b), nil
	}
	return Value{}, m.fail("unsupported type " + t.String())
}

// annotatedDouble reads an annotated Double: a number, or a numeric string
// or one of the names of NaN and the infinities.
func annotatedDouble(m *rawMember) (Value, error) {
	switch m.text {
	case "NaN":
		return Double(math.NaN()), nil
	case "Infinity", "INF":
		return Double(math.Inf(1)), nil
	case "-Infinity", "-INF":
		return Double(math.Inf(-1)), nil
	}
	f, err := strconv.ParseFloat(m.text, 64)
	if errors.Is(err, strconv.ErrRange) && (m.kind == jsonNumber || isJSONNumber(m.text)) {
		return Value{}, m.fail(m.text + doubleRange)
	}
	if err != nil || (m.kind == jsonString && !isJSONNumber(m.text)) {
		return Value{}, m.fail(strconv.Quote(m.text) + " is not an Edm.Double (a number, \"NaN\", \"Infinity\" or \"-Infinity\")")
	}
	return Double(f), nil
}

// doubleRange ends the message for a number a double cannot hold.
const doubleRange = " is outside the Edm.Double range (about ±1.8e308); store it as a string"

// base64Problem says where s stops being standard base64 and what the form
// is; err is what the decoder returned.
func base64Problem(s string, err error) string {
	const form = " (base64 uses A-Z a-z 0-9 + / in groups of four characters, the last group padded with =)"
	var at base64.CorruptInputError
	if errors.As(err, &at) && int(at) < len(s) {
		r, _ := utf8.DecodeRuneInString(s[at:])
		if (r == '=' || !isBase64Char(r)) && r != '\n' && r != '\r' { // the decoder skips line breaks
			return "the value is not standard base64: unexpected " + quoteRune(r) + " at character " + strconv.Itoa(utf8.RuneCountInString(s[:at])+1) + form
		}
	}
	return "the value is not standard base64: it ends inside a group of four characters" + form
}

func isBase64Char(r rune) bool {
	return 'A' <= r && r <= 'Z' || 'a' <= r && r <= 'z' || '0' <= r && r <= '9' || r == '+' || r == '/'
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
	d := jsonDecoder{data: []byte(s), src: s}
	_, err := d.number("")
	return err == nil && d.pos == len(s)
}
