package shell

import (
	"strings"

	"github.com/tstable/tstable/completions"
)

// A line that ends inside an open quote, or with a backslash, goes on on
// the next line, as in bash and psql: the shell reads lines, with a
// continuation prompt, until the command is whole. A newline inside
// quotes is part of the word (as in a POSIX shell); a backslash before
// the line's end joins the lines without it.

// openEnd says how line ends: inside a quote, after a backslash that
// escapes the line's end, or whole (0), as the shell's word splitter
// reads it (completions.OpenEnd).
func openEnd(line string) rune { return completions.OpenEnd(line) }

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
