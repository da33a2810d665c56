package cmd

import (
	"regexp"
	"sync"

	"github.com/tstable/tstable/iostreams"
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

// wrapProse wraps each line of text longer than width at its spaces, the
// rows of a labelled line indented under its label.
func wrapProse(text string, width int) string {
	return iostreams.Wrap(text, width, proseLabel().FindString)
}
