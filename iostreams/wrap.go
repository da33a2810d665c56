package iostreams

import (
	"strings"
	"unicode/utf8"
)

// Wrap wraps each line of text longer than width at its spaces. head
// names the start of a line (a label, a name in a list) that the rows it
// wraps to are indented under; nil indents them under its leading spaces
// only.
func Wrap(text string, width int, head func(line string) string) string {
	var b strings.Builder
	for i, line := range strings.Split(text, "\n") {
		if i > 0 {
			b.WriteByte('\n')
		}
		h := line[:len(line)-len(strings.TrimLeft(line, " "))]
		if head != nil {
			h = head(line)
		}
		wrapLine(&b, line, h, width)
	}
	return b.String()
}

// wrapLine writes one line, wrapped: words go on a line while they fit;
// a word longer than the room left starts the next line (and stays
// whole, longer than the width, when it is longer than a line). The
// line's head (a prefix of it) is written as it is, and the rows after
// the first are indented by its width (two spaces when that is more than
// half the width).
func wrapLine(b *strings.Builder, line, head string, width int) {
	if utf8.RuneCountInString(line) <= width {
		b.WriteString(line)
		return
	}
	indent := strings.Repeat(" ", utf8.RuneCountInString(head))
	if len(indent) > width/2 {
		indent = "  "
	}
	b.WriteString(head)
	col := utf8.RuneCountInString(head)
	first := true
	for _, w := range strings.Fields(line[len(head):]) {
		n := utf8.RuneCountInString(w)
		switch {
		case first:
			first = false
		case col+1+n > width:
			b.WriteString("\n" + indent)
			col = len(indent)
		default:
			b.WriteByte(' ')
			col++
		}
		b.WriteString(w)
		col += n
	}
}
