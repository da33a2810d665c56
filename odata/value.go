package odata

import (
	"encoding/hex"
	"fmt"
	"math"
	"strconv"
	"strings"
	"time"
)

// EdmType is one of the eight property types of Azure Table Storage.
type EdmType uint8

// The Edm types, in the order tstable lists them.
const (
	EdmString EdmType = iota + 1
	EdmInt32
	EdmInt64
	EdmDouble
	EdmBoolean
	EdmDateTime
	EdmGuid
	EdmBinary
)

var edmNames = [...]string{
	EdmString:   "Edm.String",
	EdmInt32:    "Edm.Int32",
	EdmInt64:    "Edm.Int64",
	EdmDouble:   "Edm.Double",
	EdmBoolean:  "Edm.Boolean",
	EdmDateTime: "Edm.DateTime",
	EdmGuid:     "Edm.Guid",
	EdmBinary:   "Edm.Binary",
}

// String returns the type's wire name, such as "Edm.Int64".
func (t EdmType) String() string {
	if t >= EdmString && t <= EdmBinary {
		return edmNames[t]
	}
	return fmt.Sprintf("Edm.Unknown(%d)", uint8(t))
}

// Valid reports whether t is one of the eight Edm types.
func (t EdmType) Valid() bool { return t >= EdmString && t <= EdmBinary }

// ParseEdmType maps a wire name ("Edm.Int64"; the "Edm." prefix is optional
// and case is ignored) to its type.
func ParseEdmType(name string) (EdmType, bool) {
	n := strings.ToLower(strings.TrimSpace(name))
	n = strings.TrimPrefix(n, "edm.")
	for t := EdmString; t <= EdmBinary; t++ {
		if strings.ToLower(edmNames[t][4:]) == n {
			return t, true
		}
	}
	return 0, false
}

// Ticks are 100-nanosecond intervals since 0001-01-01T00:00:00Z, the unit in
// which the service keeps DateTime values and Timestamps.
const (
	// MinDateTimeTicks is 1601-01-01T00:00:00Z, the earliest DateTime the service accepts.
	MinDateTimeTicks int64 = 504911232000000000
	// MaxDateTimeTicks is 9999-12-31T23:59:59.9999999Z, the latest DateTime.
	MaxDateTimeTicks int64 = 3155378975999999999
	// unixEpochTicks is 1970-01-01T00:00:00Z in ticks.
	unixEpochTicks int64 = 621355968000000000
)

// Value is one typed property value. The zero Value is invalid (Type 0).
//
// Only the field that belongs to Type is meaningful:
//   - Str: String (UTF-8 text), Guid (canonical lower-case form), Binary (raw bytes)
//   - Int: Int32, Int64, Boolean (0 or 1), DateTime (ticks, see TicksOf)
//   - Float: Double
type Value struct {
	Type  EdmType
	Str   string
	Int   int64
	Float float64
}

// String makes an Edm.String value.
func String(s string) Value { return Value{Type: EdmString, Str: s} }

// Int32 makes an Edm.Int32 value.
func Int32(i int32) Value { return Value{Type: EdmInt32, Int: int64(i)} }

// Int64 makes an Edm.Int64 value.
func Int64(i int64) Value { return Value{Type: EdmInt64, Int: i} }

// Double makes an Edm.Double value (NaN and ±Inf included).
func Double(f float64) Value { return Value{Type: EdmDouble, Float: f} }

// Bool makes an Edm.Boolean value.
func Bool(b bool) Value {
	if b {
		return Value{Type: EdmBoolean, Int: 1}
	}
	return Value{Type: EdmBoolean}
}

// Binary makes an Edm.Binary value holding a copy of b.
func Binary(b []byte) Value { return Value{Type: EdmBinary, Str: string(b)} }

// DateTimeTicks makes an Edm.DateTime value from ticks (100 ns since year 1).
func DateTimeTicks(ticks int64) Value { return Value{Type: EdmDateTime, Int: ticks} }

// DateTime makes an Edm.DateTime value from t, truncated to 100 ns. Whether t
// is inside the service's range is checked by ValidateValue, not here.
func DateTime(t time.Time) Value { return DateTimeTicks(TicksOf(t)) }

// Guid makes an Edm.Guid value from its text form (with or without braces,
// any case). It fails when s is not a GUID.
func Guid(s string) (Value, error) {
	g, err := CanonicalGuid(s)
	if err != nil {
		return Value{}, err
	}
	return Value{Type: EdmGuid, Str: g}, nil
}

// CanonicalGuid returns s as a lower-case 8-4-4-4-12 GUID, or an error.
func CanonicalGuid(s string) (string, error) {
	t := strings.TrimSuffix(strings.TrimPrefix(s, "{"), "}")
	if len(t) != 36 || t[8] != '-' || t[13] != '-' || t[18] != '-' || t[23] != '-' {
		return "", fmt.Errorf("%q is not a GUID (expected the form 00000000-0000-0000-0000-000000000000)", s)
	}
	hexPart := t[0:8] + t[9:13] + t[14:18] + t[19:23] + t[24:]
	if _, err := hex.DecodeString(hexPart); err != nil {
		return "", fmt.Errorf("%q is not a GUID (expected hexadecimal digits)", s)
	}
	return strings.ToLower(t), nil
}

// TicksOf converts t to ticks (100 ns since 0001-01-01 UTC), truncating.
func TicksOf(t time.Time) int64 {
	t = t.UTC()
	secs := t.Unix() // may be far before 1970
	return unixEpochTicks + secs*10_000_000 + int64(t.Nanosecond()/100)
}

// TimeOfTicks converts ticks back to a UTC time.Time.
func TimeOfTicks(ticks int64) time.Time {
	d := ticks - unixEpochTicks
	secs := d / 10_000_000
	rem := d % 10_000_000
	if rem < 0 {
		rem += 10_000_000
		secs--
	}
	return time.Unix(secs, rem*100).UTC()
}

// Time returns a DateTime value as a UTC time.Time.
func (v Value) Time() time.Time { return TimeOfTicks(v.Int) }

// Bool returns a Boolean value's truth.
func (v Value) Bool() bool { return v.Int != 0 }

// Bytes returns a Binary value's bytes (a copy).
func (v Value) Bytes() []byte { return []byte(v.Str) }

// FormatDateTime renders a time the way the service does on the wire:
// RFC 3339 in UTC with up to seven fractional digits, trailing zeros left
// out, e.g. 2014-08-22T00:50:32.12345Z or 2014-08-22T00:50:32Z.
func FormatDateTime(t time.Time) string {
	return string(appendDateTime(nil, t))
}

// fullDateTimeLayout writes all seven fractional digits.
const fullDateTimeLayout = "2006-01-02T15:04:05.0000000Z"

// FormatDateTimeFull renders the same instant as FormatDateTime at a fixed
// width, all seven fractional digits written (2014-08-22T00:50:32.1234500Z),
// for columns people read, which then line up.
func FormatDateTimeFull(t time.Time) string { return t.UTC().Format(fullDateTimeLayout) }

// ETagFull is the ETag of a Timestamp with the time at FormatDateTimeFull's
// fixed width. It names the same version as ETagFor: ETagMatches compares
// the time, not the text.
func ETagFull(ts time.Time) string {
	return string(appendETagOf(nil, []byte(FormatDateTimeFull(ts))))
}

// Text renders v for people and for CSV: strings as they are, numbers in
// their shortest exact form, DateTime as FormatDateTime, Binary in base64
// is left to the wire codec; here it is hexadecimal for readability.
func (v Value) Text() string {
	switch v.Type {
	case EdmString, EdmGuid:
		return v.Str
	case EdmInt32, EdmInt64:
		return strconv.FormatInt(v.Int, 10)
	case EdmDouble:
		return FormatDouble(v.Float)
	case EdmBoolean:
		return strconv.FormatBool(v.Bool())
	case EdmDateTime:
		return FormatDateTime(v.Time())
	case EdmBinary:
		return "X'" + hex.EncodeToString([]byte(v.Str)) + "'"
	}
	return ""
}

// FormatDouble renders a float the way the wire format does: the shortest
// exact decimal, and "NaN", "Infinity", "-Infinity" for the special values.
func FormatDouble(f float64) string {
	switch {
	case math.IsNaN(f):
		return "NaN"
	case math.IsInf(f, 1):
		return "Infinity"
	case math.IsInf(f, -1):
		return "-Infinity"
	}
	return strconv.FormatFloat(f, 'g', -1, 64)
}

// Equal reports whether a and b have the same type and the same value
// (NaN equals NaN here: this is identity, not the filter's eq).
func (v Value) Equal(o Value) bool {
	if v.Type != o.Type {
		return false
	}
	if v.Type == EdmDouble {
		return v.Float == o.Float || (math.IsNaN(v.Float) && math.IsNaN(o.Float))
	}
	return v.Str == o.Str && v.Int == o.Int
}
