package completions

import (
	"errors"
	"strings"
	"unicode/utf8"
)

// partialLine is a command line split the way a POSIX shell splits it,
// up to the cursor: the words already complete and the one being typed.
type partialLine struct {
	// words are the complete words, unquoted.
	words []string
	// current is the word being typed, unquoted ("" after a space).
	current string
	// quote is the quote still open in current: '"', '\'' or 0.
	quote rune
	// escaped tells that line ended with an escaping backslash.
	escaped bool
	// begun tells that current is a word begun, even an empty one ("").
	begun bool
}

// splitPartial splits line (the text before the cursor) into shell words
// (see splitWords). An unclosed quote is allowed: it is the word being
// typed.
func splitPartial(line string) partialLine {
	return splitWords(line, BackslashEscapes, false)
}

// SplitLine splits a whole command line into words, as the shell runs it:
// quotes group and are removed as a POSIX shell removes them, a word that
// starts with # begins a comment to the end of the line, and a backslash
// outside single quotes escapes the next character (BackslashEscapes; on
// Windows a backslash is an ordinary character, as in paths such as
// C:\data\rows.jsonl). A quote left open is an error.
func SplitLine(line string) ([]string, error) {
	p := splitWords(line, BackslashEscapes, true)
	switch {
	case p.quote != 0:
		return nil, errors.New("a quote (" + string(p.quote) + ") is not closed")
	case p.escaped:
		return nil, errors.New("the line ends with a backslash that escapes nothing")
	}
	if p.begun {
		p.words = append(p.words, p.current)
	}
	return p.words, nil
}

// OpenEnd says how a command line ends, as SplitLine reads it: inside a
// quote (the quote, double or single), after a backslash that escapes
// the line's end (a backslash; not on Windows, where a backslash is a
// character), or whole (0) — the line SplitLine splits without an error.
// The shell reads a command that ends open on to the next line.
func OpenEnd(line string) rune {
	if !strings.ContainsAny(line, `'"\`) {
		return 0 // no quote to be inside of, no backslash (most lines)
	}
	p := scanWords(line, BackslashEscapes, true, false)
	switch {
	case p.quote != 0:
		return p.quote
	case p.escaped:
		return '\\'
	}
	return 0
}

// splitWords splits line into shell words: the complete ones, and the one
// still being typed at its end. Quotes group and are removed; with
// escapes, a backslash outside single quotes takes the next character as
// it is; with comments, a word starting with # ends the line.
func splitWords(line string, escapes, comments bool) partialLine {
	return scanWords(line, escapes, comments, true)
}

// scanWords is splitWords, keeping the complete words only when words is
// true (OpenEnd needs only how the line ends).
func scanWords(line string, escapes, comments, words bool) partialLine {
	var (
		p      partialLine
		cur    strings.Builder
		inWord bool
		// A word with no quote or escape in it is line[start:i] as it
		// is: it is cut out of line, not copied rune by rune (plain).
		start int
		plain bool
	)
	// quoted turns the plain word begun at start into one built in cur,
	// before its first quote or escape at i.
	quoted := func(i int) {
		if plain {
			cur.Reset()
			cur.WriteString(line[start:i])
			plain = false
		}
	}
	begin := func(i int) {
		if !inWord {
			inWord, plain, start = true, true, i
		}
	}
	for i, r := range line {
		switch {
		case p.escaped:
			cur.WriteRune(r)
			p.escaped = false
		case p.quote == '\'':
			if r == '\'' {
				p.quote = 0
			} else {
				cur.WriteRune(r)
			}
		case p.quote == '"':
			switch {
			case r == '"':
				p.quote = 0
			case r == '\\' && escapes:
				p.escaped = true
			default:
				cur.WriteRune(r)
			}
		case r == '\\' && escapes:
			begin(i)
			quoted(i)
			p.escaped = true
		case r == '\'' || r == '"':
			begin(i)
			quoted(i)
			p.quote = r
		case r == ' ' || r == '\t':
			if inWord && words {
				if p.words == nil {
					p.words = make([]string, 0, 8) // a command line's words, mostly
				}
				if plain {
					p.words = append(p.words, line[start:i])
				} else {
					p.words = append(p.words, cur.String())
				}
			}
			if inWord {
				cur.Reset()
				inWord = false
			}
		case r == '#' && comments && !inWord:
			p.current = ""
			return p
		default:
			begin(i)
			if r == utf8.RuneError {
				quoted(i) // a byte that is no UTF-8 becomes U+FFFD
			}
			if !plain {
				cur.WriteRune(r)
			}
		}
	}
	switch {
	case inWord && plain:
		p.current = line[start:]
	default:
		p.current = cur.String()
	}
	p.begun = inWord
	return p
}

// replacement returns the text that replaces the chunk go-prompt swaps on
// completion (everything after the line's last space) so that the last
// len(partial) characters of line become candidate.
func replacement(line, partial, candidate string) string {
	chunkStart := strings.LastIndexByte(line, ' ') + 1
	partialStart := len(line) - len(partial)
	if partialStart < 0 {
		partialStart = 0
	}
	if partialStart >= chunkStart {
		return line[chunkStart:partialStart] + candidate
	}
	// The partial token spans a space ('Sales D): the chunk holds only its
	// tail, so the candidate's matching head is dropped.
	cut := chunkStart - partialStart
	if cut > len(candidate) {
		return ""
	}
	return candidate[cut:]
}

// inSingleQuotes is text as it is typed inside a shell word's single
// quotes, where a quote is written '\” (the quotes closed, an escaped
// quote, the quotes opened again; '"'"' where a backslash escapes
// nothing): the filter PartitionKey eq 'Sales' is
// --filter 'PartitionKey eq '\”Sales'\”'.
func inSingleQuotes(text string) string {
	if BackslashEscapes {
		return strings.ReplaceAll(text, "'", `'\''`)
	}
	return strings.ReplaceAll(text, "'", `'"'"'`)
}

// singleQuoted is suggestions as they are typed inside single quotes.
func singleQuoted(sugg []Suggestion) []Suggestion {
	out := make([]Suggestion, len(sugg))
	for i, s := range sugg {
		out[i] = Suggestion{inSingleQuotes(s.Text), s.Description}
	}
	return out
}

// SpaceAfter says whether a completion inserted at once at the end of
// line (the line up to the cursor) is followed by a space, as readline
// puts one after a completed word: not when it opens something still to
// be typed — a literal (', datetime', X': an odd count of quotes in the
// word once its shell quoting is read, --filter 'RowKey gt '\” as
// --filter "RowKey gt '), a group "(" or a flag's "=".
func SpaceAfter(line string) bool {
	if strings.HasSuffix(line, "(") || strings.HasSuffix(line, "=") {
		return false
	}
	return strings.Count(splitPartial(line).current, "'")%2 == 0
}
