package completions

import "strings"

// partialLine is a command line split the way a POSIX shell splits it,
// up to the cursor: the words already complete and the one being typed.
type partialLine struct {
	// words are the complete words, unquoted.
	words []string
	// current is the word being typed, unquoted ("" after a space).
	current string
	// quote is the quote still open in current: '"', '\'' or 0.
	quote rune
}

// splitPartial splits line (the text before the cursor) into shell words.
// Quotes group and are removed as a POSIX shell removes them; a backslash
// outside single quotes escapes the next character. An unclosed quote is
// allowed: it is the word being typed.
func splitPartial(line string) partialLine {
	var (
		p       partialLine
		cur     strings.Builder
		inWord  bool
		quote   rune
		escaped bool
	)
	for _, r := range line {
		switch {
		case escaped:
			cur.WriteRune(r)
			escaped = false
		case quote == '\'':
			if r == '\'' {
				quote = 0
			} else {
				cur.WriteRune(r)
			}
		case quote == '"':
			switch r {
			case '"':
				quote = 0
			case '\\':
				escaped = true
			default:
				cur.WriteRune(r)
			}
		case r == '\\':
			escaped, inWord = true, true
		case r == '\'' || r == '"':
			quote, inWord = r, true
		case r == ' ' || r == '\t':
			if inWord {
				p.words = append(p.words, cur.String())
				cur.Reset()
				inWord = false
			}
		default:
			cur.WriteRune(r)
			inWord = true
		}
	}
	p.current = cur.String()
	p.quote = quote
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
