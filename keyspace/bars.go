package keyspace

import (
	"strings"
	"unicode/utf8"
)

// Bar is one row of a bar chart: a label, its value, and the value that
// fills the whole bar; Segments, when set, split the value into parts
// (a property's entities by Edm type), drawn with alternating fills.
type Bar struct {
	Label    string
	Value    int64
	Of       int64
	Note     string // after the bar: "2.2%", "Edm.String 1,000 · Edm.Int32 344"
	Segments []int64
}

// Bars draws a bar chart under a title: a row a bar, labels aligned,
// each bar as long as its share of the room left on width columns.
func Bars(title string, rows []Bar, st Style) string {
	g := unicodeGlyphs
	if st.ASCII {
		g = asciiGlyphs
	}
	width := min(max(st.Width, MinWidth), maxWidth)
	labelW := 0
	for _, r := range rows {
		labelW = max(labelW, utf8.RuneCountInString(r.Label))
	}
	labelW = min(labelW, width/3)
	room := max(width-labelW-3-24, 10)
	var b strings.Builder
	b.WriteString(title + "\n")
	for _, r := range rows {
		label := cut(r.Label, labelW, g)
		b.WriteString("  " + label + strings.Repeat(" ", labelW-utf8.RuneCountInString(label)) + " ")
		segs := r.Segments
		if len(segs) == 0 {
			segs = []int64{r.Value}
		}
		drawn := 0
		var sum int64
		for i, s := range segs {
			sum += s
			upto := 0
			if r.Of > 0 {
				upto = int((sum*int64(room) + r.Of - 1) / r.Of)
			}
			if n := upto - drawn; n > 0 {
				k := [2]kind{kReturned, kScanned}[i%2]
				if st.Color {
					b.WriteString(colours[k] + strings.Repeat(g.fill[k], n) + reset)
				} else {
					b.WriteString(strings.Repeat(g.fill[k], n))
				}
				drawn = upto
			}
		}
		b.WriteString(strings.Repeat(" ", max(room-drawn, 0)) + " " + r.Note + "\n")
	}
	return b.String()
}
