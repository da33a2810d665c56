package odata

import (
	"math"
	"net/url"
	"strings"
	"testing"
	"time"
	"unicode/utf8"
)

// The general forms the fast DateTime, ETag and JSON string writers must
// agree with byte for byte.
func refDateTime(t time.Time) string { return t.UTC().Format(dateTimeLayout) }

func refETag(t time.Time) string {
	return `W/"datetime'` + url.QueryEscape(refDateTime(t)) + `'"`
}

// refJSONString is appendJSONString as it was before its plain-byte fast
// path: one byte at a time.
func refJSONString(dst []byte, s string) []byte {
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

func checkDateTimeTicks(t *testing.T, ticks int64) {
	t.Helper()
	tm := TimeOfTicks(ticks)
	if got, want := string(appendDateTimeTicks(nil, ticks)), refDateTime(tm); got != want {
		t.Fatalf("ticks %d: appendDateTimeTicks = %s, time.Format = %s", ticks, got, want)
	}
	if got, want := ETagFor(tm), refETag(tm); got != want {
		t.Fatalf("ticks %d: ETagFor = %s, want %s", ticks, got, want)
	}
}

func checkDateTime(t *testing.T, tm time.Time) {
	t.Helper()
	if got, want := FormatDateTime(tm), refDateTime(tm); got != want {
		t.Fatalf("%v: FormatDateTime = %s, time.Format = %s", tm, got, want)
	}
	if got, want := ETagFor(tm), refETag(tm); got != want {
		t.Fatalf("%v: ETagFor = %s, want %s", tm, got, want)
	}
}

func TestDateTimeTextEdges(t *testing.T) {
	for _, ticks := range []int64{
		0, 1, 9_999_999, 10_000_000, ticksPerDay - 1, ticksPerDay,
		MinDateTimeTicks - 1, MinDateTimeTicks, unixEpochTicks - 1, unixEpochTicks, unixEpochTicks + 1,
		MaxDateTimeTicks - 1, MaxDateTimeTicks, MaxDateTimeTicks + 1,
		-1, -ticksPerDay, math.MinInt64, math.MaxInt64,
		TicksOf(time.Date(2000, 2, 29, 23, 59, 59, 999_999_900, time.UTC)),
		TicksOf(time.Date(1900, 3, 1, 0, 0, 0, 0, time.UTC)),
		TicksOf(time.Date(2100, 2, 28, 12, 0, 0, 0, time.UTC)),
	} {
		checkDateTimeTicks(t, ticks)
	}
	for _, tm := range []time.Time{
		{},
		time.Date(2014, 8, 22, 0, 50, 32, 123456789, time.UTC),
		time.Date(2014, 8, 22, 0, 50, 32, 123456789, time.FixedZone("x", -7*3600)),
		time.Date(1, 1, 1, 0, 0, 0, 1, time.UTC),
		time.Date(0, 12, 31, 23, 59, 59, 0, time.UTC),
		time.Date(9999, 12, 31, 23, 59, 59, 999_999_999, time.UTC),
		time.Date(10000, 1, 1, 0, 0, 0, 0, time.UTC),
		time.Date(-5, 1, 1, 0, 0, 0, 0, time.UTC),
	} {
		checkDateTime(t, tm)
	}
	// Every day of four centuries (leap years and their exceptions).
	start := TicksOf(time.Date(1600, 1, 1, 13, 14, 15, 0, time.UTC))
	for d := int64(0); d < 146097+400; d++ {
		checkDateTimeTicks(t, start+d*ticksPerDay+d%10_000_000)
	}
}

// FuzzDateTimeText checks the DateTime and ETag writers against
// time.Format and url.QueryEscape for any ticks and any time.
func FuzzDateTimeText(f *testing.F) {
	f.Add(int64(0), int64(0), int64(0))
	f.Add(MaxDateTimeTicks, int64(253402300799), int64(999999999))
	f.Add(int64(-1), int64(-62135596801), int64(5))
	f.Fuzz(func(t *testing.T, ticks, sec, nsec int64) {
		checkDateTimeTicks(t, ticks)
		checkDateTime(t, time.Unix(sec, nsec))
	})
}

// FuzzJSONString checks appendJSONString against the byte-at-a-time form.
func FuzzJSONString(f *testing.F) {
	for _, s := range []string{"", "plain", "a\"b\\c\n\r\t\x01\x7f", "é€😀", "\xff\xfe", "ab\xe2\x82", "\u2028"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		if got, want := appendJSONString(nil, s), refJSONString(nil, s); string(got) != string(want) {
			t.Fatalf("%q: got %s, want %s", s, got, want)
		}
	})
}

// DateTime values are written as the service writes them: seven digits at
// most, trailing zeros left out, no point for a whole second.
func TestDateTimeWithoutTrailingZeros(t *testing.T) {
	base := time.Date(2021, 5, 26, 15, 48, 5, 0, time.UTC)
	for _, c := range []struct {
		nanos int
		want  string
	}{
		{0, "2021-05-26T15:48:05Z"},
		{100, "2021-05-26T15:48:05.0000001Z"},
		{179620100, "2021-05-26T15:48:05.1796201Z"},
		{900866000, "2021-05-26T15:48:05.900866Z"},
		{283000000, "2021-05-26T15:48:05.283Z"},
		{500000000, "2021-05-26T15:48:05.5Z"},
	} {
		ts := base.Add(time.Duration(c.nanos))
		if got := FormatDateTime(ts); got != c.want {
			t.Errorf("%d ns: %s, want %s", c.nanos, got, c.want)
		}
		if got, want := ETagFor(ts), `W/"datetime'`+strings.ReplaceAll(c.want, ":", "%3A")+`'"`; got != want {
			t.Errorf("%d ns: ETag %s, want %s", c.nanos, got, want)
		}
		if got := string(AppendValueJSON(nil, DateTimeTicks(TicksOf(ts)))); got != `"`+c.want+`"` {
			t.Errorf("%d ns: value %s", c.nanos, got)
		}
	}
	// Years past 9999's fast path take time.Format, trimmed the same way.
	if got := string(appendDateTime(nil, time.Date(10000, 1, 1, 0, 0, 0, 5e8, time.UTC))); got != "10000-01-01T00:00:00.5Z" {
		t.Errorf("year 10000: %s", got)
	}
}

// An If-Match value: any weak ETag is a condition (met when it carries the
// stored time, in the seven-digit form older versions wrote or the trimmed
// one); any other form is refused as InvalidInput.
func TestETagConditions(t *testing.T) {
	ts := time.Date(2021, 5, 26, 15, 48, 5, 900866000, time.UTC)
	ticks := TicksOf(ts)
	for _, c := range []struct {
		etag         string
		valid, match bool
	}{
		{"*", true, true},
		{ETagFor(ts), true, true},
		{`W/"datetime'2021-05-26T15%3A48%3A05.9008660Z'"`, true, true},
		{`w/"datetime'2021-05-26T15%3A48%3A05.900866Z'"`, true, true},
		{`W/"datetime'2021-05-26T15%3A48%3A05.900867Z'"`, true, false},
		{`W/"wrong"`, true, false},
		{`w/"wrong"`, true, false},
		{`W/""`, true, false},
		{`"wrong"`, false, false},
		{`wrong`, false, false},
		{`"`, false, false},
		{`datetime'2021-05-26T15%3A48%3A05.900866Z'`, false, false},
		{`W/\"datetime'2021-05-26T15%3A48%3A05.900866Z'\"`, false, false},
	} {
		err := CheckETag(c.etag)
		if (err == nil) != c.valid || (err != nil && CodeOf(err) != CodeInvalidInput) {
			t.Errorf("CheckETag(%s) = %v, want valid %v", c.etag, err, c.valid)
		}
		if got := ETagMatches(c.etag, ticks); got != c.match {
			t.Errorf("ETagMatches(%s) = %v, want %v", c.etag, got, c.match)
		}
	}
}
