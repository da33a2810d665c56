package odata

import (
	"encoding/hex"
	"math"
	"strconv"
	"strings"
	"time"
)

// Literal typing rules (each is a case of TestLiteralTyping in parser_test.go):
//
//   - 'text' is Edm.String; a doubled quote stands for one quote.
//   - A whole number without suffix is Edm.Int32, and one that does not
//     fit in 32 bits is an error, as the service answers it (400): an
//     Edm.Int64 literal carries the suffix L (2147483648L), always.
//   - A number with a fraction or an exponent is Edm.Double (1.0 included).
//     A value that overflows a double is an error. There are no NaN or INF
//     literals.
//   - true and false are Edm.Boolean.
//   - datetime'2014-08-22T00:50:32Z' is Edm.DateTime: seconds optional,
//     up to 7 fractional digits, 'Z', a ±hh:mm offset or no zone (UTC);
//     it must lie in 1601-01-01 … 9999-12-31.
//   - guid'…' is Edm.Guid (compared by its canonical lower-case form).
//   - X'0A1B' and binary'0A1B' are Edm.Binary: an even number of hex digits.
//   - A '-' right before the digits makes a negative number: -5, -2.5, -7L.

// literalError is a problem with a literal's text, at a byte offset
// relative to the start of the literal.
type literalError struct {
	off int
	msg string
}

// parseNumber types a number literal.
func parseNumber(s string) (Value, *literalError) {
	if strings.HasSuffix(s, "L") {
		digits := s[:len(s)-1]
		if strings.ContainsAny(digits, ".eE") {
			return Value{}, &literalError{0, "the L suffix marks an Edm.Int64 and cannot follow a fraction or exponent: " + s}
		}
		i, err := strconv.ParseInt(digits, 10, 64)
		if err != nil {
			return Value{}, &literalError{0, "the number " + s + " is outside the Edm.Int64 range (-9223372036854775808 to 9223372036854775807)"}
		}
		return Int64(i), nil
	}
	if strings.ContainsAny(s, ".eE") {
		f, err := strconv.ParseFloat(s, 64)
		if err != nil || math.IsInf(f, 0) {
			return Value{}, &literalError{0, "the number " + s + " is outside the Edm.Double range"}
		}
		return Double(f), nil
	}
	i, err := strconv.ParseInt(s, 10, 64)
	if err != nil {
		return Value{}, &literalError{0, "the number " + s + " is outside the Edm.Int64 range (-9223372036854775808 to 9223372036854775807)"}
	}
	if i < math.MinInt32 || i > math.MaxInt32 {
		return Value{}, &literalError{0, "the number " + s + " is outside the Edm.Int32 range (-2147483648 to 2147483647) that a number without a suffix has: write " + s + "L for an Edm.Int64"}
	}
	return Int32(int32(i)), nil
}

// unquote decodes a quoted literal: the quotes go and a doubled quote
// inside is one quote. An unfinished literal (no closing quote, as
// LexPartial hands out) is read the same way.
//
//	'O''Brien'  O'Brien
//	'O''Br      O'Br
func unquote(raw string) string {
	body := raw[1:]
	if closed := strings.Count(body, "'")%2 == 1; closed {
		body = body[:len(body)-1]
	}
	if !strings.Contains(body, "''") {
		return body
	}
	return strings.ReplaceAll(body, "''", "'")
}

// parseTyped decodes prefix'…' literals. raw is the whole token text.
func parseTyped(raw string) (Value, *literalError) {
	q := strings.IndexByte(raw, '\'')
	prefix, body := raw[:q], unquote(raw[q:])
	bodyOff := q + 1
	switch prefix {
	case "datetime":
		ticks, e := parseDateTimeLiteral(body)
		if e != nil {
			e.off += bodyOff
			return Value{}, e
		}
		return DateTimeTicks(ticks), nil
	case "guid":
		g, err := CanonicalGuid(body)
		if err != nil || strings.HasPrefix(body, "{") || strings.HasSuffix(body, "}") {
			return Value{}, &literalError{bodyOff, "bad guid literal; expected guid'00000000-0000-0000-0000-000000000000' (8-4-4-4-12 hexadecimal digits)"}
		}
		return Value{Type: EdmGuid, Str: g}, nil
	default: // X, binary
		if len(body)%2 != 0 {
			return Value{}, &literalError{bodyOff, "bad binary literal: " + strconv.Itoa(len(body)) + " hex digits; expected an even number (two per byte), as in X'0A1B'"}
		}
		b, err := hex.DecodeString(body)
		if err != nil {
			off := 0
			for off < len(body) && isHexDigit(body[off]) {
				off++
			}
			return Value{}, &literalError{bodyOff + off, "bad binary literal; expected hexadecimal digits 0-9 A-F, as in X'0A1B'"}
		}
		return Value{Type: EdmBinary, Str: string(b)}, nil
	}
}

func isHexDigit(c byte) bool {
	return '0' <= c && c <= '9' || 'a' <= c && c <= 'f' || 'A' <= c && c <= 'F'
}

// parseDateTimeLiteral reads yyyy-mm-ddThh:mm[:ss[.fffffff]][Z|±hh:mm] and
// returns ticks, checked against the service's range 1601..9999.
func parseDateTimeLiteral(s string) (int64, *literalError) {
	d := &dateScanner{s: s}
	year, month, day, err := d.date()
	if err != nil {
		return 0, err
	}
	hour, minute, sec, frac, err := d.clock()
	if err != nil {
		return 0, err
	}
	offset, err := d.zone()
	if err != nil {
		return 0, err
	}
	if d.p != len(s) {
		return 0, d.bad("unexpected text after the time")
	}
	if month < 1 || month > 12 || hour > 23 || minute > 59 || sec > 59 {
		d.p = 0
		return 0, d.bad("a field is out of range")
	}
	t := time.Date(year, time.Month(month), day, hour, minute, sec, 0, time.UTC)
	if t.Day() != day {
		d.p = 0
		return 0, d.bad("there is no day " + strconv.Itoa(day) + " in that month")
	}
	ticks := TicksOf(t) + int64(frac) - int64(offset)*10_000_000
	if ticks < MinDateTimeTicks || ticks > MaxDateTimeTicks {
		return 0, &literalError{0, "datetime " + s + " is outside the range the service stores (1601-01-01T00:00:00Z to 9999-12-31T23:59:59.9999999Z)"}
	}
	return ticks, nil
}

// dateScanner reads a datetime literal from the left; p is where it is.
type dateScanner struct {
	s string
	p int
}

// num reads n decimal digits.
func (d *dateScanner) num(n int) (int, bool) {
	if d.p+n > len(d.s) {
		return 0, false
	}
	v := 0
	for i := 0; i < n; i++ {
		c := d.s[d.p+i]
		if c < '0' || c > '9' {
			return 0, false
		}
		v = v*10 + int(c-'0')
	}
	d.p += n
	return v, true
}

// lit reads c when it comes next.
func (d *dateScanner) lit(c byte) bool {
	if d.p < len(d.s) && d.s[d.p] == c {
		d.p++
		return true
	}
	return false
}

// bad is the error at where the scanner is.
func (d *dateScanner) bad(what string) *literalError {
	return &literalError{d.p, "bad datetime literal: " + what + "; expected datetime'yyyy-mm-ddThh:mm:ss[.fffffff]Z', as in datetime'2014-08-22T00:50:32Z'"}
}

// date reads yyyy-mm-ddT.
func (d *dateScanner) date() (year, month, day int, err *literalError) {
	var ok bool
	if year, ok = d.num(4); !ok || !d.lit('-') {
		return 0, 0, 0, d.bad("expected a four-digit year and '-'")
	}
	if month, ok = d.num(2); !ok || !d.lit('-') {
		return 0, 0, 0, d.bad("expected a two-digit month and '-'")
	}
	if day, ok = d.num(2); !ok || !d.lit('T') {
		return 0, 0, 0, d.bad("expected a two-digit day and 'T'")
	}
	return year, month, day, nil
}

// clock reads hh:mm[:ss[.fffffff]]; frac is in 100 ns ticks.
func (d *dateScanner) clock() (hour, minute, sec, frac int, err *literalError) {
	var ok bool
	if hour, ok = d.num(2); !ok || !d.lit(':') {
		return 0, 0, 0, 0, d.bad("expected a two-digit hour and ':'")
	}
	if minute, ok = d.num(2); !ok {
		return 0, 0, 0, 0, d.bad("expected two-digit minutes")
	}
	if !d.lit(':') {
		return hour, minute, 0, 0, nil
	}
	if sec, ok = d.num(2); !ok {
		return 0, 0, 0, 0, d.bad("expected two-digit seconds")
	}
	if d.lit('.') {
		if frac, err = d.fraction(); err != nil {
			return 0, 0, 0, 0, err
		}
	}
	return hour, minute, sec, frac, nil
}

// fraction reads 1 to 7 fractional digits, as 100 ns ticks.
func (d *dateScanner) fraction() (int, *literalError) {
	frac, n := 0, 0
	for d.p < len(d.s) && d.s[d.p] >= '0' && d.s[d.p] <= '9' {
		if n == 7 {
			return 0, d.bad("more than 7 fractional digits (the service keeps 100 ns ticks)")
		}
		frac = frac*10 + int(d.s[d.p]-'0')
		d.p++
		n++
	}
	if n == 0 {
		return 0, d.bad("expected fractional digits after '.'")
	}
	for ; n < 7; n++ {
		frac *= 10
	}
	return frac, nil
}

// zone reads Z, ±hh:mm or nothing (UTC) and returns the offset in seconds.
func (d *dateScanner) zone() (int, *literalError) {
	if d.lit('Z') || d.p >= len(d.s) || (d.s[d.p] != '+' && d.s[d.p] != '-') {
		return 0, nil
	}
	sign := 1
	if d.s[d.p] == '-' {
		sign = -1
	}
	d.p++
	oh, ok1 := d.num(2)
	ok2 := d.lit(':')
	om, ok3 := d.num(2)
	if !ok1 || !ok2 || !ok3 || oh > 23 || om > 59 {
		return 0, d.bad("expected a zone offset ±hh:mm")
	}
	return sign * (oh*3600 + om*60), nil
}

// Quote writes s as a $filter string literal: in single quotes, with each
// quote inside doubled, so that O'Brien becomes
//
//	'O''Brien'
func Quote(s string) string { return "'" + strings.ReplaceAll(s, "'", "''") + "'" }

// formatLiteral renders a value as a $filter literal that parses back to
// the same type and value.
func formatLiteral(v Value) string {
	switch v.Type {
	case EdmString:
		return Quote(v.Str)
	case EdmInt32:
		return strconv.FormatInt(v.Int, 10)
	case EdmInt64:
		return strconv.FormatInt(v.Int, 10) + "L"
	case EdmDouble:
		return formatDoubleLiteral(v.Float)
	case EdmBoolean:
		return strconv.FormatBool(v.Bool())
	case EdmDateTime:
		return "datetime'" + v.Time().Format("2006-01-02T15:04:05.9999999Z") + "'"
	case EdmGuid:
		return "guid'" + v.Str + "'"
	case EdmBinary:
		return "X'" + strings.ToUpper(hex.EncodeToString([]byte(v.Str))) + "'"
	}
	return "null"
}

// formatDoubleLiteral writes a finite double so that it reads back as a
// double: always with a decimal point, and an exponent without '+'.
func formatDoubleLiteral(f float64) string {
	s := strconv.FormatFloat(f, 'g', -1, 64)
	mant, exp, hasExp := strings.Cut(s, "e")
	if !strings.Contains(mant, ".") {
		mant += ".0"
	}
	if !hasExp {
		return mant
	}
	return mant + "E" + strings.TrimPrefix(exp, "+")
}

// CutQuoted reads the OData string literal s starts with ('it”s': a
// doubled quote is a quote) and returns its value and what follows it; ok
// is false when s does not start with a quote or the literal is not
// closed.
func CutQuoted(s string) (value, rest string, ok bool) {
	if !strings.HasPrefix(s, "'") {
		return "", "", false
	}
	var b strings.Builder
	for i := 1; i < len(s); i++ {
		if s[i] != '\'' {
			b.WriteByte(s[i])
			continue
		}
		if i+1 < len(s) && s[i+1] == '\'' {
			b.WriteByte('\'')
			i++
			continue
		}
		return b.String(), s[i+1:], true
	}
	return "", "", false
}
