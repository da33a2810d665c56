package keyspace

import (
	"fmt"
	"html"
	"strings"
)

// svgWidth is the picture's width in SVG user units; it scales to its box.
const svgWidth = 800

// svgFills are the kinds' colours, readable on light and dark pages; a
// page may restyle them by class (ks-unread, ks-scanned, ks-some,
// ks-returned, ks-flagged).
var svgFills = [5]string{"#9aa4b1", "#e0a526", "#6fbf73", "#2e8b3e", "#d64545"}

var svgClasses = [5]string{"ks-unread", "ks-scanned", "ks-some", "ks-returned", "ks-flagged"}

// SVG draws m as an SVG element: the cells as rectangles as wide as their
// entities, each column of the text picture a slice coloured by what
// happened to its entities, each cell titled with its partitions and size;
// the focus partition, when there is one, entity by entity below; a
// legend. It has no script, no style element and no outside reference.
func SVG(m *Model) string {
	const barY, barH = 22, 36
	var b strings.Builder
	height := 110
	if m.Focus != nil {
		height += 60
	}
	fmt.Fprintf(&b, `<svg xmlns="http://www.w3.org/2000/svg" class="keyspace" viewBox="0 0 %d %d" width="100%%" role="img" aria-label="%s">`, svgWidth, height, html.EscapeString(header(m)))
	fmt.Fprintf(&b, `<text x="0" y="14" font-size="13" fill="currentColor">%s</text>`, html.EscapeString(header(m)))
	if m.Entities == 0 {
		b.WriteString(`</svg>`)
		return b.String()
	}
	y := barY
	svgBar(&b, fit(m, 200), y, barH, "")
	y += barH + 16
	fmt.Fprintf(&b, `<text x="0" y="%d" font-size="12" fill="currentColor">%s</text>`, y, html.EscapeString(quote(m.Cells[0].First)))
	fmt.Fprintf(&b, `<text x="%d" y="%d" font-size="12" text-anchor="end" fill="currentColor">%s</text>`, svgWidth, y, html.EscapeString(quote(m.Cells[len(m.Cells)-1].Last)))
	if f := m.Focus; f != nil {
		y += 14
		fmt.Fprintf(&b, `<text x="0" y="%d" font-size="12" fill="currentColor">in %s, %s by RowKey</text>`, y, html.EscapeString(quote(f.First)), Count(f.Entities, "entity", "entities"))
		y += 6
		z := &Model{Cells: []Cell{*f}, Entities: f.Entities}
		if f.Entities <= 200 {
			z.Cells = entityCells(f)
		}
		svgBar(&b, fitAll(z, 400), y, 24, f.First)
		y += 24
	}
	y += 22
	x := 0
	for _, k := range []kind{kReturned, kSome, kScanned, kUnread, kFlagged} {
		if (m.Class == "" && (k == kReturned || k == kSome || k == kScanned)) || (k == kFlagged && m.Flagged == 0) {
			continue
		}
		words := [5]string{"not read", "scanned only", "some returned", "returned", "flagged"}[k]
		if m.Class == "" && k == kUnread {
			words = "entities"
		}
		fmt.Fprintf(&b, `<rect x="%d" y="%d" width="12" height="12" fill="%s" class="%s"/><text x="%d" y="%d" font-size="12" fill="currentColor">%s</text>`,
			x, y-11, svgFills[k], svgClasses[k], x+16, y, words)
		x += 30 + 8*len(words)
	}
	b.WriteString(`</svg>`)
	return b.String()
}

// entityCells is the focus partition as one cell an entity.
func entityCells(f *Cell) []Cell {
	var cells []Cell
	for _, r := range f.Runs {
		for range r.N {
			cells = append(cells, Cell{First: f.First, Last: f.First, Partitions: 1, Entities: 1, Runs: []Run{{State: r.State, N: 1}}})
		}
	}
	return cells
}

// svgBar draws a layout of cols columns as one bar across the picture,
// each column a slice; a group's slices are titled together.
func svgBar(b *strings.Builder, l *layout, y, h int, focus string) {
	if len(l.cols) == 0 {
		return
	}
	unit := float64(svgWidth) / float64(len(l.cols))
	for i, c := range l.cols {
		if c.sep {
			continue
		}
		g := l.groups[l.cellOf[i]]
		title := quote(g.First) + ": " + Count(g.Entities, "entity", "entities")
		if g.Partitions > 1 {
			title = quote(g.First) + " … " + quote(g.Last) + ": " + Count(g.Partitions, "partition", "partitions") + ", " + Count(g.Entities, "entity", "entities")
		}
		if focus != "" {
			title = "in " + quote(focus)
		}
		fmt.Fprintf(b, `<rect x="%.1f" y="%d" width="%.1f" height="%d" fill="%s" class="%s"><title>%s</title></rect>`,
			float64(i)*unit, y, unit+0.05, h, svgFills[c.kind], svgClasses[c.kind], html.EscapeString(title))
	}
}
