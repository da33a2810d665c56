package keyspace

import (
	"strconv"
	"strings"
	"unicode/utf8"
)

// Style is how a terminal takes a picture: its width in columns, whether
// it shows colours, and whether it can show more than ASCII.
type Style struct {
	Width int
	Color bool
	ASCII bool
}

// MinWidth is the narrowest terminal a picture is drawn on by default.
const MinWidth = 40

// maxWidth is the widest a picture is drawn, however wide the terminal.
const maxWidth = 120

// glyphs are the characters of one alphabet: a state's fill, the
// separator, and the marker's ends and middle.
type glyphs struct {
	fill              [5]string // by kind
	sep               string
	one, left, mid, r string
	ellipsis          string
}

var (
	unicodeGlyphs = glyphs{fill: [5]string{"░", "▒", "▓", "█", "█"}, sep: "│", one: "▲", left: "└", mid: "─", r: "┘", ellipsis: "…"}
	asciiGlyphs   = glyphs{fill: [5]string{".", "+", "*", "#", "!"}, sep: "|", one: "^", left: "^", mid: "-", r: "^", ellipsis: "~"}
)

// colours are the ANSI colours of the kinds of column.
var colours = [5]string{"\x1b[2m", "\x1b[33m", "\x1b[32m", "\x1b[1;32m", "\x1b[1;31m"}

const (
	sepColour = "\x1b[2m"
	reset     = "\x1b[0m"
)

// Text draws m for a terminal: a bar of its cells between separators,
// under it a marker of what is read (or flagged) named by its partitions,
// the first and last PartitionKey, and a one-line legend. Every line ends
// in a newline.
func Text(m *Model, st Style) string {
	g := unicodeGlyphs
	if st.ASCII {
		g = asciiGlyphs
	}
	width := min(max(st.Width, MinWidth), maxWidth)
	var b strings.Builder
	b.WriteString(header(m) + "\n")
	if m.Entities == 0 {
		b.WriteString("(no entities)\n")
		return b.String()
	}
	l := fit(m, width-2)
	b.WriteString(bar(l, g, st.Color) + "\n")
	if first, last, ok := l.marked(); ok {
		b.WriteString(marker(first+1, last+1, markLabel(m, g), width, g) + "\n")
	}
	if m.Focus != nil {
		b.WriteString(zoom(m.Focus, width, g, st.Color))
	}
	b.WriteString(axis(m.Cells[0].First, m.Cells[len(m.Cells)-1].Last, width, g) + "\n")
	b.WriteString(legend(m, l, g, st.Color) + "\n")
	return b.String()
}

// zoom draws the one partition a query read in, its entities as cells
// when they fit, else as one cell.
func zoom(f *Cell, width int, g glyphs, colour bool) string {
	z := &Model{Cells: []Cell{*f}, Entities: f.Entities}
	if f.Entities <= int64((width-1)/2) {
		z.Cells = entityCells(f)
	}
	l := fitAll(z, width-2)
	return "in " + quote(f.First) + ", " + Count(f.Entities, "entity", "entities") + " by RowKey:\n" + bar(l, g, colour) + "\n"
}

// header says whose key space it is and how large.
func header(m *Model) string {
	s := "key space of " + m.Table + ": " + Count(m.Entities, "entity", "entities") + " in " + Count(m.Partitions, "partition", "partitions")
	if m.Class != "" {
		s += " · " + m.Class
	}
	return s
}

// bar draws the layout's columns between two separators.
func bar(l *layout, g glyphs, colour bool) string {
	var b strings.Builder
	open := ""
	paint := func(code, s string) {
		if colour && code != open {
			if open != "" {
				b.WriteString(reset)
			}
			b.WriteString(code)
			open = code
		}
		b.WriteString(s)
	}
	paint(sepColour, g.sep)
	for _, c := range l.cols {
		if c.sep {
			paint(sepColour, g.sep)
			continue
		}
		paint(colours[c.kind], g.fill[c.kind])
	}
	paint(sepColour, g.sep)
	if colour {
		b.WriteString(reset)
	}
	return b.String()
}

// marker draws the stretch from column first to last (of the bar's line)
// and its label beside it: after it when it fits, else before it, else
// cut to fit after it.
func marker(first, last int, label string, width int, g glyphs) string {
	var m string
	if first == last {
		m = g.one
	} else {
		m = g.left + strings.Repeat(g.mid, last-first-1) + g.r
	}
	n := utf8.RuneCountInString(label)
	switch {
	case last+2+n <= width:
		return strings.Repeat(" ", first) + m + " " + label
	case n+1 <= first:
		return strings.Repeat(" ", first-n-1) + label + " " + m
	}
	return strings.Repeat(" ", first) + m + "\n" + strings.Repeat(" ", first) + cut(label, width-first, g)
}

// markLabel names what the marker points at: the partitions read, or
// flagged.
func markLabel(m *Model, g glyphs) string {
	var first, last *Cell
	var parts int64
	for i := range m.Cells {
		c := &m.Cells[i]
		if c.Strongest() == Unread {
			continue
		}
		if first == nil {
			first = c
		}
		last = c
		parts += c.Partitions
	}
	if first == nil {
		return ""
	}
	verb := "reads "
	if m.Class == "" {
		verb = "flagged: "
	}
	if parts == m.Partitions && parts > 1 {
		return verb + "all " + Count(parts, "partition", "partitions")
	}
	if first == last && first.Partitions == 1 {
		return verb + quote(first.First)
	}
	return verb + quote(first.First) + " " + g.ellipsis + " " + quote(last.Last) + " (" + Count(parts, "partition", "partitions") + ")"
}

// axis writes the first PartitionKey at the left and the last at the
// right of width columns, each cut to half the line when both do not fit.
func axis(first, last string, width int, g glyphs) string {
	l, r := quote(first), quote(last)
	if utf8.RuneCountInString(l)+utf8.RuneCountInString(r)+1 > width {
		half := (width - 1) / 2
		l, r = cut(l, half, g), cut(r, half, g)
	}
	gap := width - utf8.RuneCountInString(l) - utf8.RuneCountInString(r)
	return l + strings.Repeat(" ", max(gap, 1)) + r
}

// legend says what each fill means and what a cell is.
func legend(m *Model, l *layout, g glyphs, colour bool) string {
	sw := func(s kind, words string) string {
		if colour {
			return colours[s] + g.fill[s] + reset + " " + words
		}
		return g.fill[s] + " " + words
	}
	var parts []string
	switch {
	case m.Class != "":
		parts = append(parts, sw(kReturned, "returned"), sw(kSome, "some"), sw(kScanned, "scanned only"), sw(kUnread, "not read"))
	case m.Flagged > 0:
		parts = append(parts, sw(kFlagged, "flagged"), sw(kUnread, "entities"))
	default:
		parts = append(parts, sw(kUnread, "entities"))
	}
	cell := "cell: a partition"
	if len(l.groups) < int(m.Partitions) {
		cell = "cell: ~" + strconv.FormatInt((m.Partitions+int64(len(l.groups))-1)/int64(len(l.groups)), 10) + " partitions"
	}
	return strings.Join(parts, "  ") + " · " + cell + ", width: entities"
}

// cut shortens s to n runes, the last an ellipsis.
func cut(s string, n int, g glyphs) string {
	if utf8.RuneCountInString(s) <= n {
		return s
	}
	r := []rune(s)
	return string(r[:max(n-1, 0)]) + g.ellipsis
}

// quote writes a PartitionKey as tstable's prose does: 'Sales'.
func quote(pk string) string { return "'" + pk + "'" }

// Count writes n with thousands separators and the noun that agrees with
// it: "1 entity", "1,344 entities".
func Count(n int64, one, many string) string {
	noun := many
	if n == 1 {
		noun = one
	}
	return Thousands(n) + " " + noun
}

// Thousands writes n with a comma every three digits.
func Thousands(n int64) string {
	s := strconv.FormatInt(n, 10)
	neg := strings.HasPrefix(s, "-")
	s = strings.TrimPrefix(s, "-")
	var b strings.Builder
	for i, r := range s {
		if i > 0 && (len(s)-i)%3 == 0 {
			b.WriteByte(',')
		}
		b.WriteRune(r)
	}
	if neg {
		return "-" + b.String()
	}
	return b.String()
}
