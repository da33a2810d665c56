package shell

import (
	"strings"
	"unicode"
)

// A line that ends inside an open quote, or with a backslash, goes on on
// the next line, as in bash and psql: the shell reads lines, with a
// continuation prompt, until the command is whole. A newline inside
// quotes is part of the word (as in a POSIX shell); a backslash before
// the line's end joins the lines without it.

// openEnd says how line ends: inside a quote (the quote, double or
// single), after a backslash that escapes the line's end (a backslash),
// or whole (0). It reads the
// line as a POSIX shell does; # at the start of a word outside quotes
// begins a comment, whose quotes count for nothing.
func openEnd(line string) rune {
	var quote rune
	escaped, wordStart := false, true
	for _, r := range line {
		switch {
		case escaped:
			escaped, wordStart = false, false
		case quote == '\'':
			if r == '\'' {
				quote = 0
			}
		case r == '\\':
			escaped = true
		case quote == '"':
			if r == '"' {
				quote = 0
			}
		case r == '\'' || r == '"':
			quote, wordStart = r, false
		case r == '#' && wordStart:
			return 0
		default:
			wordStart = unicode.IsSpace(r)
		}
	}
	if escaped {
		return '\\'
	}
	return quote
}

// joinLine adds the next line to a command that ended open (see openEnd):
// after a backslash, in its place; inside a quote, after a newline.
func joinLine(command, next string) string {
	if openEnd(command) == '\\' {
		return strings.TrimSuffix(command, `\`) + next
	}
	return command + "\n" + next
}

// historyEntry is a command as the history keeps it, on one line: the
// newlines it holds inside quotes become spaces.
func historyEntry(command string) string {
	return strings.ReplaceAll(command, "\n", " ")
}
