package cmd

import (
	"io"
	"sort"
	"strconv"
	"strings"

	"github.com/mattn/go-runewidth"
	"github.com/olekukonko/tablewriter"
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

// renderTable writes ents as a table. showTimestamp adds the Timestamp
// column after RowKey. width is the terminal width (0: not a terminal,
// where each cell is cut at maxCellWidth).
func renderTable(w io.Writer, ents []*odata.Entity, showTimestamp bool, width int) {
	props := tableColumns(ents)
	header := []string{odata.PartitionKey, odata.RowKey}
	if showTimestamp {
		header = append(header, odata.Timestamp)
	}
	header = append(header, props...)
	rows := make([][]string, 0, len(ents))
	for _, e := range ents {
		row := make([]string, 0, len(header))
		row = append(row, cellText(odata.String(e.PartitionKey)), cellText(odata.String(e.RowKey)))
		if showTimestamp {
			ts := ""
			if !e.Timestamp.IsZero() {
				ts = odata.FormatDateTime(e.Timestamp)
			}
			row = append(row, ts)
		}
		for _, name := range props {
			s := ""
			for _, p := range e.Properties {
				if p.Name == name {
					s = cellText(p.Value)
					break
				}
			}
			row = append(row, s)
		}
		rows = append(rows, row)
	}
	limits := fitColumns(header, rows, width)
	t := tablewriter.NewWriter(w)
	t.SetHeader(header)
	t.SetAutoFormatHeaders(false)
	t.SetAutoWrapText(false)
	t.SetAlignment(tablewriter.ALIGN_LEFT)
	t.SetHeaderAlignment(tablewriter.ALIGN_LEFT)
	for _, row := range rows {
		for i := range row {
			row[i] = cut(row[i], limits[i])
		}
		t.Append(row)
	}
	t.Render()
}

// fitColumns picks each column's cell width limit. Off a terminal every
// column gets maxCellWidth. On a terminal the columns share its width:
// narrow columns keep their natural width and the wide ones split what is
// left evenly (never below their header, which is not cut).
func fitColumns(header []string, rows [][]string, width int) []int {
	limits := make([]int, len(header))
	if width <= 0 {
		for i := range limits {
			limits[i] = maxCellWidth
		}
		return limits
	}
	natural := make([]int, len(header))
	for i, h := range header {
		natural[i] = runewidth.StringWidth(h)
	}
	for _, row := range rows {
		for i, c := range row {
			natural[i] = max(natural[i], runewidth.StringWidth(c))
		}
	}
	avail := width - 3*len(header) - 1 // "| " before each cell, " " after, and the last "|"
	order := make([]int, len(header))
	for i := range order {
		order[i] = i
	}
	sort.Slice(order, func(a, b int) bool { return natural[order[a]] < natural[order[b]] })
	for k, i := range order {
		share := max(avail/(len(order)-k), 1)
		limits[i] = max(min(natural[i], share), runewidth.StringWidth(header[i]))
		avail -= limits[i]
	}
	return limits
}

// cut shortens s to at most n columns, ending with "…" when it was cut.
func cut(s string, n int) string {
	if runewidth.StringWidth(s) <= n {
		return s
	}
	return runewidth.Truncate(s, n, "…")
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
	t := tablewriter.NewWriter(w)
	t.SetHeader([]string{header})
	t.SetAutoFormatHeaders(false)
	t.SetAlignment(tablewriter.ALIGN_LEFT)
	for _, v := range values {
		t.Append([]string{v})
	}
	t.Render()
}
