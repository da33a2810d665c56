package docs

import (
	"regexp"
	"strings"
	"time"
	"unicode/utf8"
)

// screen is what a terminal shows after raw was written to it: a carriage
// return goes back to the start of the line and what follows overwrites
// it (a progress bar, then the line that replaces it), an erase-line
// sequence clears to the end, other escape sequences are dropped; trailing
// spaces are trimmed.
func screen(raw string) []string {
	var lines []string
	var cur []rune
	col := 0
	put := func(r rune) {
		if col < len(cur) {
			cur[col] = r
		} else {
			for len(cur) < col {
				cur = append(cur, ' ')
			}
			cur = append(cur, r)
		}
		col++
	}
	for i := 0; i < len(raw); {
		r, n := utf8.DecodeRuneInString(raw[i:])
		i += n
		switch r {
		case '\r':
			col = 0
		case '\n':
			lines = append(lines, strings.TrimRight(string(cur), " "))
			cur, col = nil, 0
		case '\b':
			col = max(col-1, 0)
		case 0x1b:
			var final byte
			final, i = skipEscape(raw, i)
			if final == 'K' && col < len(cur) {
				cur = cur[:col]
			}
		default:
			put(r)
		}
	}
	if s := strings.TrimRight(string(cur), " "); s != "" {
		lines = append(lines, s)
	}
	return lines
}

// skipEscape skips the escape sequence whose ESC ends before raw[i]; it
// returns the final byte of a CSI sequence (K for erase-line) and where
// the text goes on.
func skipEscape(raw string, i int) (byte, int) {
	if i >= len(raw) {
		return 0, i
	}
	switch raw[i] {
	case '[':
		for j := i + 1; j < len(raw); j++ {
			if raw[j] >= 0x40 && raw[j] <= 0x7e {
				return raw[j], j + 1
			}
		}
		return 0, len(raw)
	case ']': // OSC, to BEL or ST
		for j := i + 1; j < len(raw); j++ {
			if raw[j] == 0x07 {
				return 0, j + 1
			}
			if raw[j] == 0x1b && j+1 < len(raw) && raw[j+1] == '\\' {
				return 0, j + 2
			}
		}
		return 0, len(raw)
	}
	return 0, i + 1
}

// What changes from one run to the next is masked alike in the output a
// document shows and in the output of the run: the Timestamps and ETags
// the store sets (a time within a day of now in the run, written
// 2025-06-01T10:00:00.1234567Z in the documents), durations, rates, loopback ports,
// process ids, the end of a new certificate's validity, and the commit
// a build between releases names (none when it recorded none).
var volatile = []struct {
	re   *regexp.Regexp
	mask func(string) string
}{
	{regexp.MustCompile(`\d{4}-\d\d-\d\dT\d\d(:|%3A)\d\d(:|%3A)\d\d(\.\d{1,7})?Z`), maskStamp},
	{regexp.MustCompile(`\b\d+(\.\d+)? ?(ns|µs|ms|s)\b`), func(string) string { return "DURATION" }},
	{regexp.MustCompile(`(127\.0\.0\.1|localhost|\[::1\]):\d+`), func(s string) string { return s[:strings.LastIndex(s, ":")] + ":PORT" }},
	{regexp.MustCompile(`\bpid \d+`), func(string) string { return "pid N" }},
	{regexp.MustCompile(`"time":"[^"]*"`), func(string) string { return `"time":"TIME"` }},
	{regexp.MustCompile(`"ms":[\d.]+`), func(string) string { return `"ms":DURATION` }},
	{regexp.MustCompile(`\bvalid until \d{4}-\d\d-\d\d\b`), maskDigits},
	{regexp.MustCompile(`^tstable devel( [0-9a-f]{12}(\+dirty)? \(\d{4}-\d\d-\d\d\))?$`), func(string) string { return "tstable devel COMMIT" }},
	{regexp.MustCompile(`\b\d[\d,.]* ([a-z]+)/s\b`), func(s string) string { return "N " + s[strings.LastIndex(s, " ")+1:] }},
}

// docStamp is how the documents write a Timestamp the store sets.
const docStamp = "2025-06-01T10:00:00.1234567Z"

// maskStamp masks a Timestamp the store set: one within a day of now, or
// the documents' docStamp. Other dates and times are data, and stay.
func maskStamp(s string) string {
	plain := strings.ReplaceAll(s, "%3A", ":")
	t, err := time.Parse(time.RFC3339Nano, plain)
	if plain != docStamp && (err != nil || time.Since(t).Abs() > 24*time.Hour) {
		return s
	}
	if strings.Contains(s, "%3A") {
		return "STAMP%3A"
	}
	return "STAMP"
}

func maskDigits(s string) string {
	return strings.Map(func(r rune) rune {
		if r >= '0' && r <= '9' {
			return 'X'
		}
		return r
	}, s)
}

// normalize masks what changes between runs in each line.
func normalize(lines []string) []string {
	out := make([]string, len(lines))
	for i, l := range lines {
		for _, v := range volatile {
			l = v.re.ReplaceAllStringFunc(l, v.mask)
		}
		out[i] = strings.TrimRight(l, " ")
	}
	return out
}

// ellipsis, a line of its own in the output a document shows, stands for
// any number of lines.
const ellipsis = "..."

// matches reports whether got is what want shows: line for line, an
// ellipsis line standing for any lines (none included).
func matches(want, got []string) bool {
	if len(want) == 0 {
		return len(got) == 0
	}
	if want[0] == ellipsis {
		for skip := 0; skip <= len(got); skip++ {
			if matches(want[1:], got[skip:]) {
				return true
			}
		}
		return false
	}
	return len(got) > 0 && want[0] == got[0] && matches(want[1:], got[1:])
}

// hasPrefix reports whether got begins with what want shows (the first
// lines of a server's output).
func hasPrefix(want, got []string) bool {
	for n := 0; n <= len(got); n++ {
		if matches(want, got[:n]) {
			return true
		}
	}
	return false
}
