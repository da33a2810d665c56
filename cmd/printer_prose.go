package cmd

import (
	"regexp"
	"strings"
	"sync"
	"unicode/utf8"
)

// defaultProseWidth is the width prose wraps at when standard output is
// not a terminal (see Printer.PrintProse).
const defaultProseWidth = 80

// proseLabel is what a line of prose starts with that its wrapped lines
// are indented under: spaces, then maybe a label ("advice:", "why:",
// "line 2:", "warning hot-partition:") and the spaces after it.
var proseLabel = sync.OnceValue(func() *regexp.Regexp {
	return regexp.MustCompile(`^ *(?:[a-z][a-z0-9 -]*: +)?`)
})

// wrapProse wraps each line of text longer than width at its spaces.
func wrapProse(text string, width int) string {
	var b strings.Builder
	for i, line := range strings.Split(text, "\n") {
		if i > 0 {
			b.WriteByte('\n')
		}
		wrapLine(&b, line, width)
	}
	return b.String()
}

// wrapLine writes one line, wrapped: words go on a line while they fit;
// a word longer than the room left starts the next line (and stays
// whole, longer than the width, when it is longer than a line).
func wrapLine(b *strings.Builder, line string, width int) {
	if utf8.RuneCountInString(line) <= width {
		b.WriteString(line)
		return
	}
	head := proseLabel().FindString(line)
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
