package odata

import (
	"time"
)

// dateTimeLayout is the service's DateTime form on the wire: RFC 3339 in
// UTC with up to seven fractional digits, trailing zeros left out (none,
// and no point, for a whole second): 2014-08-22T00:50:32.123Z,
// 2014-08-22T00:50:32Z, as the service writes them.
const dateTimeLayout = "2006-01-02T15:04:05.9999999Z"

const (
	ticksPerSecond = 10_000_000
	ticksPerDay    = 86400 * ticksPerSecond
	// maxFastTicks is the end of year 9999: up to it a DateTime has a
	// four-digit year, which appendDateTimeTicks writes without time.Format.
	maxFastTicks = MaxDateTimeTicks
	// daysToUnixEpoch is 0001-01-01 to 1970-01-01 in days.
	daysToUnixEpoch = unixEpochTicks / ticksPerDay
	// minFastUnix and maxFastUnix bound, in Unix seconds, the times of
	// years 1 to 9999.
	minFastUnix = -unixEpochTicks / ticksPerSecond
	maxFastUnix = (maxFastTicks - unixEpochTicks) / ticksPerSecond
)

// appendDateTimeTicks appends ticks as the service writes a DateTime,
// 2014-08-22T00:50:32.12345Z: the bytes time.Format writes with
// dateTimeLayout, but without its general machinery for years 1 to 9999.
func appendDateTimeTicks(dst []byte, ticks int64) []byte {
	if ticks < 0 || ticks > maxFastTicks {
		return TimeOfTicks(ticks).AppendFormat(dst, dateTimeLayout)
	}
	days := ticks / ticksPerDay
	rem := ticks % ticksPerDay
	y, m, d := civilDate(days - daysToUnixEpoch)
	secs := rem / ticksPerSecond
	frac := rem % ticksPerSecond
	hh, mm, ss := secs/3600, secs/60%60, secs%60
	var b [28]byte
	put4(b[0:], y)
	b[4] = '-'
	put2(b[5:], m)
	b[7] = '-'
	put2(b[8:], d)
	b[10] = 'T'
	put2(b[11:], hh)
	b[13] = ':'
	put2(b[14:], mm)
	b[16] = ':'
	put2(b[17:], ss)
	b[19] = '.'
	for i := 26; i >= 20; i-- {
		b[i] = byte('0' + frac%10)
		frac /= 10
	}
	end := 27
	for end > 20 && b[end-1] == '0' {
		end--
	}
	if end == 20 {
		end = 19 // a whole second: no point
	}
	b[end] = 'Z'
	return append(dst, b[:end+1]...)
}

func put2(b []byte, v int64) { b[0], b[1] = byte('0'+v/10), byte('0'+v%10) }

func put4(b []byte, v int64) {
	put2(b, v/100)
	put2(b[2:], v%100)
}

// civilDate converts days since 1970-01-01 to a proleptic Gregorian date
// (Howard Hinnant's days_from_civil inverse).
func civilDate(z int64) (y, m, d int64) {
	z += 719468
	era := z / 146097
	if z < 0 && z%146097 != 0 {
		era--
	}
	doe := z - era*146097
	yoe := (doe - doe/1460 + doe/36524 - doe/146096) / 365
	y = yoe + era*400
	doy := doe - (365*yoe + yoe/4 - yoe/100)
	mp := (5*doy + 2) / 153
	d = doy - (153*mp+2)/5 + 1
	if mp < 10 {
		m = mp + 3
	} else {
		m = mp - 9
	}
	if m <= 2 {
		y++
	}
	return y, m, d
}

// appendDateTime appends t as appendDateTimeTicks does (truncated to
// 100 ns, as time.Format truncates).
func appendDateTime(dst []byte, t time.Time) []byte {
	if s := t.Unix(); s < minFastUnix || s > maxFastUnix {
		return t.UTC().AppendFormat(dst, dateTimeLayout)
	}
	return appendDateTimeTicks(dst, TicksOf(t))
}

// appendETagOf appends the weak ETag the service derives from a Timestamp,
// given the Timestamp as appendDateTime writes it:
// W/"datetime'2014-08-22T00%3A50%3A32.1234567Z'", the DateTime URL-escaped
// (url.QueryEscape). Of the characters of a four-digit year's form only
// ':' needs escaping; any other form is escaped in general.
func appendETagOf(dst, dateTime []byte) []byte {
	start := len(dst)
	dst = append(dst, `W/"datetime'`...)
	for _, c := range dateTime {
		switch {
		case c == ':':
			dst = append(dst, "%3A"...)
		case '0' <= c && c <= '9', c == '-', c == '.', c == 'T', c == 'Z':
			dst = append(dst, c)
		default:
			dst = append(dst[:start], `W/"datetime'`...)
			dst = appendQueryEscaped(dst, dateTime)
			return append(dst, `'"`...)
		}
	}
	return append(dst, `'"`...)
}

// appendQueryEscaped appends s escaped as a URL's query component, as
// net/url's QueryEscape does: unreserved bytes as they are, a space as +,
// every other byte as %XX.
func appendQueryEscaped(dst, s []byte) []byte {
	const hex = "0123456789ABCDEF"
	for _, c := range s {
		switch {
		case 'a' <= c && c <= 'z', 'A' <= c && c <= 'Z', '0' <= c && c <= '9', c == '-', c == '_', c == '.', c == '~':
			dst = append(dst, c)
		case c == ' ':
			dst = append(dst, '+')
		default:
			dst = append(dst, '%', hex[c>>4], hex[c&15])
		}
	}
	return dst
}
