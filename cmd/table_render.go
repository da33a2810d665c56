package cmd

import (
	"fmt"
	"io"
	"sort"
	"strconv"
	"strings"
	"sync"

	"github.com/mattn/go-runewidth"
	"github.com/tstable/tstable/odata"
)

// maxCellWidth caps a table cell when the output is not a terminal.
const maxCellWidth = 40

// tableColumns returns the union of the entities' property names in
// first-seen order (for the table format, whatever their types).
func tableColumns(ents []*odata.Entity) []string {
	var names []string
	seen := map[string]bool{}
	for _, e := range ents {
		for _, p := range e.Properties {
			if !seen[p.Name] {
				seen[p.Name] = true
				names = append(names, p.Name)
			}
		}
	}
	return names
}

// cellText renders a value for a table cell: by type, with control
// characters made visible.
func cellText(v odata.Value) string {
	s := v.Text()
	if v.Type == odata.EdmString && strings.ContainsFunc(s, func(r rune) bool { return r < 0x20 || r == 0x7f }) {
		s = strings.NewReplacer("\n", `\n`, "\r", `\r`, "\t", `\t`).Replace(s)
		s = strings.Map(func(r rune) rune {
			if r < 0x20 || r == 0x7f {
				return '�'
			}
			return r
		}, s)
	}
	return s
}

// tableView is what a table of entities shows: which system columns
// besides the keys, and the terminal's width (0 off a terminal).
type tableView struct {
	timestamp bool // the Timestamp column, after RowKey
	etag      bool // the odata.etag column, after the keys
	width     int
	expanded  expandMode
	single    bool     // one entity on its own (get, insert …): no "-[ 1 ]" rule
	sel       []string // --select's names (nil: all), for the json formats
}

// expandMode chooses between a table and one property per line.
type expandMode int

const (
	expandAuto expandMode = iota // expanded when the keys would not fit a table
	expandOn
	expandOff
)

// parseExpand reads --expanded: on, off, or auto ("" too).
func parseExpand(s string) (expandMode, error) {
	switch s {
	case "", "auto":
		return expandAuto, nil
	case "on":
		return expandOn, nil
	case "off":
		return expandOff, nil
	}
	return expandAuto, fmt.Errorf("--expanded must be on, off or auto; got %q", s)
}

// uncut is how many leading columns are never cut: the keys, and the
// ETag when shown — what people copy into get, delete and --if-match.
func (v tableView) uncut() int {
	if v.etag {
		return 3
	}
	return 2
}

// entityRows lays ents out as a header and rows of cell text, and says
// which cells hold numbers (Int32, Int64, Double), which a table aligns
// to the right.
func entityRows(ents []*odata.Entity, v tableView) (header []string, rows [][]string, numbers [][]bool) {
	props := tableColumns(ents)
	header = []string{odata.PartitionKey, odata.RowKey}
	if v.etag {
		header = append(header, odata.ETagName)
	}
	if v.timestamp {
		header = append(header, odata.Timestamp)
	}
	header = append(header, props...)
	rows = make([][]string, 0, len(ents))
	numbers = make([][]bool, 0, len(ents))
	for _, e := range ents {
		row := make([]string, 0, len(header))
		num := make([]bool, len(header))
		row = append(row, cellText(odata.String(e.PartitionKey)), cellText(odata.String(e.RowKey)))
		// The Timestamp and ETag columns line up: all seven digits of the
		// time (JSON and CSV write the service's form, without trailing
		// zeros; either ETag names the same version to tstable). An ETag a
		// remote service gave is shown as given: that service may compare
		// the text.
		if v.etag {
			etag := e.GivenETag
			if etag == "" && !e.Timestamp.IsZero() {
				etag = odata.ETagFull(e.Timestamp)
			}
			row = append(row, etag)
		}
		if v.timestamp {
			ts := ""
			if !e.Timestamp.IsZero() {
				ts = odata.FormatDateTimeFull(e.Timestamp)
			}
			row = append(row, ts)
		}
		for _, name := range props {
			s := ""
			for _, p := range e.Properties {
				if p.Name == name {
					s = cellText(p.Value)
					t := p.Value.Type
					num[len(row)] = t == odata.EdmInt32 || t == odata.EdmInt64 || t == odata.EdmDouble
					break
				}
			}
			row = append(row, s)
		}
		rows = append(rows, row)
		numbers = append(numbers, num)
	}
	return header, rows, numbers
}

// renderTable writes ents as a table, or one property per line when the
// view asks for it or (expandAuto, on a terminal) when the keys would not
// fit in a table the terminal's width.
func renderTable(w io.Writer, ents []*odata.Entity, v tableView) {
	header, rows, numbers := entityRows(ents, v)
	limits, fits := fitColumns(header, rows, v.width, v.uncut())
	if v.expanded == expandOn || (v.expanded == expandAuto && !fits && len(rows) > 0) {
		renderExpanded(w, header, rows, v.width, v.uncut(), !v.single)
		return
	}
	for _, row := range rows {
		for i := range row {
			if i >= v.uncut() {
				row[i] = cut(row[i], limits[i])
			}
		}
	}
	writeGrid(w, header, rows, numbers)
}

// writeGrid draws a bordered grid: a rule, the header, a rule, the rows
// and a rule, each cell padded to its column's width: left-aligned, but
// for those right (when not nil) marks, numbers, right-aligned as psql
// and sqlite3 align them.
func writeGrid(w io.Writer, header []string, rows [][]string, right [][]bool) {
	widths := columnWidths(header, rows)
	var b []byte
	rule := func() {
		for _, n := range widths {
			b = append(b, '+')
			b = append(b, strings.Repeat("-", n+2)...)
		}
		b = append(b, "+\n"...)
	}
	line := func(cells []string, right []bool) {
		for i, c := range cells {
			pad := widths[i] - displayWidth(c)
			b = append(b, "| "...)
			if right != nil && right[i] {
				b = append(b, strings.Repeat(" ", pad)...)
				b = append(b, c...)
				b = append(b, ' ')
				continue
			}
			b = append(b, c...)
			b = append(b, strings.Repeat(" ", pad+1)...)
		}
		b = append(b, "|\n"...)
	}
	rule()
	line(header, nil)
	rule()
	for r, row := range rows {
		var align []bool
		if right != nil {
			align = right[r]
		}
		line(row, align)
		if len(b) > 32<<10 {
			w.Write(b)
			b = b[:0]
		}
	}
	rule()
	w.Write(b)
}

// columnWidths is each column's width: its widest cell or its header.
func columnWidths(header []string, rows [][]string) []int {
	widths := make([]int, len(header))
	for i, h := range header {
		widths[i] = displayWidth(h)
	}
	for _, row := range rows {
		for i, c := range row {
			widths[i] = max(widths[i], displayWidth(c))
		}
	}
	return widths
}

// renderExpanded writes each row as a block, one property per line, as
// psql's expanded display does: a "-[ N ]---" rule, then "Name | value"
// lines (the rule only with titled). Properties a row does not have are
// left out; on a terminal a long value is cut to the width, but never a
// key.
func renderExpanded(w io.Writer, header []string, rows [][]string, width, uncut int, titled bool) {
	nameWidth := 0
	for _, h := range header {
		nameWidth = max(nameWidth, displayWidth(h))
	}
	var b strings.Builder
	for n, row := range rows {
		title := "-[ " + strconv.Itoa(n+1) + " ]"
		ruleLen := max(nameWidth+3+20, len(title))
		if width > 0 {
			ruleLen = min(max(ruleLen, len(title)), width)
		}
		if titled {
			b.WriteString(title + strings.Repeat("-", max(ruleLen-len(title), 0)) + "\n")
		}
		for i, c := range row {
			if c == "" && i >= uncut {
				continue
			}
			if width > 0 && i >= uncut {
				c = cut(c, max(width-nameWidth-3, 10))
			}
			b.WriteString(header[i] + strings.Repeat(" ", nameWidth-displayWidth(header[i])) + " | " + c + "\n")
		}
	}
	io.WriteString(w, b.String())
}

// fitColumns picks each column's cell width limit, and says whether the
// table fits. Off a terminal every column gets maxCellWidth. On a terminal
// the columns share its width: the keys keep their whole width, narrow
// columns keep theirs and the wide ones split what is left evenly (never
// below their header, which is not cut); the table does not fit when even
// so it is wider than the terminal.
func fitColumns(header []string, rows [][]string, width, uncut int) ([]int, bool) {
	limits := make([]int, len(header))
	if width <= 0 {
		for i := range limits {
			limits[i] = maxCellWidth
		}
		return limits, true // the uncut columns are not cut whatever their limit
	}
	natural := columnWidths(header, rows)
	avail := width - 3*len(header) - 1 // "| " before each cell, " " after, and the last "|"
	for i := 0; i < uncut && i < len(header); i++ {
		limits[i] = natural[i]
		avail -= natural[i]
	}
	order := make([]int, 0, len(header))
	for i := uncut; i < len(header); i++ {
		order = append(order, i)
	}
	sort.SliceStable(order, func(a, b int) bool { return natural[order[a]] < natural[order[b]] })
	for k, i := range order {
		share := max(avail/(len(order)-k), 1)
		limits[i] = max(min(natural[i], share), displayWidth(header[i]))
		avail -= limits[i]
	}
	return limits, avail >= 0
}

// displayWidth is how many terminal columns s takes. Its printable ASCII
// start is one column a byte; the rest is measured by grapheme cluster, from
// the last ASCII character on, which may begin the cluster after it (an
// accent or a keycap that follows it). A cut cell is ASCII up to its "…".
func displayWidth(s string) int {
	k := asciiLen(s)
	if k == len(s) {
		return len(s)
	}
	k = max(k-1, 0)
	return k + runewidth.StringWidth(s[k:])
}

// asciiLen is the length of the printable ASCII start of s.
func asciiLen(s string) int {
	for i := 0; i < len(s); i++ {
		if s[i] < 0x20 || s[i] >= 0x7f {
			return i
		}
	}
	return len(s)
}

// ellipsis ends a cut cell.
const ellipsis = "…"

// ellipsisWidth is the columns "…" takes: 1, or 2 where East Asian
// ambiguous characters are wide.
var ellipsisWidth = sync.OnceValue(func() int { return runewidth.StringWidth(ellipsis) })

// cut shortens s to at most n columns, ending with "…" when it was cut,
// as runewidth.Truncate does (the same cut, found without segmenting
// plain ASCII text).
func cut(s string, n int) string {
	if displayWidth(s) <= n {
		return s
	}
	if asciiLen(s) == len(s) { // printable ASCII
		return s[:max(n-ellipsisWidth(), 0)] + ellipsis
	}
	return runewidth.Truncate(s, n, ellipsis)
}

// countLine is "1 entity" or "N entities".
func countLine(n int64) string {
	if n == 1 {
		return "1 entity"
	}
	return strconv.FormatInt(n, 10) + " entities"
}

// renderList writes one column of values as a table under header.
func renderList(w io.Writer, header string, values []string) {
	rows := make([][]string, len(values))
	for i, v := range values {
		rows[i] = []string{v}
	}
	writeGrid(w, []string{header}, rows, nil)
}
