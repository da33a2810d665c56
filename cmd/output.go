package cmd

import (
	"bufio"
	"encoding/csv"
	"io"
	"sort"
	"strconv"
	"strings"

	"github.com/mattn/go-runewidth"
	"github.com/olekukonko/tablewriter"
	"github.com/tstable/tstable/odata"
)

// Output shapes, shared by every command that prints entities:
//
//   - table: a tablewriter table with PartitionKey and RowKey first, then
//     the union of the entities' property columns in first-seen order;
//     Timestamp only when selected; long values cut with "…"; then a count
//     line ("3 entities").
//   - json: one object (get, insert, …), or {"value":[…]} for lists, with
//     "continuation" beside "value" when there is a next page.
//   - jsonl: one entity per line and nothing else on standard output.
//   - csv: a header PartitionKey,RowKey,Timestamp,Name,Age@Edm.Int32,…
//     (a column is typed Name@Edm.X unless it is a String) and one row per
//     entity; the header import reads. An empty cell is an absent property.

// maxCellWidth caps a table cell when the output is not a terminal.
const maxCellWidth = 40

// column is a typed CSV column: a property name and its Edm type.
type column struct {
	name string
	typ  odata.EdmType // 0 for the system columns
}

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

// csvColumns returns the typed columns of ents in first-seen order: a
// property that appears with two types gets two columns.
func csvColumns(ents []*odata.Entity) []column {
	var c csvColumnSet
	for _, e := range ents {
		c.add(e)
	}
	return c.cols
}

// csvColumnSet collects typed columns entity by entity.
type csvColumnSet struct {
	cols []column
	seen map[column]bool
}

func (c *csvColumnSet) add(e *odata.Entity) {
	if c.seen == nil {
		c.seen = map[column]bool{}
	}
	for _, p := range e.Properties {
		k := column{p.Name, p.Value.Type}
		if !c.seen[k] {
			c.seen[k] = true
			c.cols = append(c.cols, k)
		}
	}
}

// csvHeader is the header row: PartitionKey, RowKey, Timestamp, then the
// columns, typed "Name@Edm.X" unless they are strings.
func csvHeader(cols []column) []string {
	h := []string{odata.PartitionKey, odata.RowKey, odata.Timestamp}
	for _, c := range cols {
		if c.typ == odata.EdmString {
			h = append(h, c.name)
		} else {
			h = append(h, c.name+"@"+c.typ.String())
		}
	}
	return h
}

// csvWriter writes entity rows under a fixed header.
type csvWriter struct {
	w    *csv.Writer
	cols []column
	row  []string
	buf  []byte
}

func newCSVWriter(w io.Writer, cols []column) (*csvWriter, error) {
	cw := &csvWriter{w: csv.NewWriter(w), cols: cols}
	return cw, cw.w.Write(csvHeader(cols))
}

func (cw *csvWriter) write(e *odata.Entity) error {
	cw.row = cw.row[:0]
	ts := ""
	if !e.Timestamp.IsZero() {
		ts = odata.FormatDateTime(e.Timestamp)
	}
	cw.row = append(cw.row, e.PartitionKey, e.RowKey, ts)
	for _, c := range cw.cols {
		s := ""
		for _, p := range e.Properties {
			if p.Name == c.name && p.Value.Type == c.typ {
				cw.buf = odata.AppendValueText(cw.buf[:0], p.Value)
				s = string(cw.buf)
				break
			}
		}
		cw.row = append(cw.row, s)
	}
	return cw.w.Write(cw.row)
}

func (cw *csvWriter) flush() error {
	cw.w.Flush()
	return cw.w.Error()
}

// jsonlWriter writes one entity per line.
type jsonlWriter struct {
	w   *bufio.Writer
	buf []byte
}

func newJSONLWriter(w io.Writer) *jsonlWriter {
	return &jsonlWriter{w: bufio.NewWriterSize(w, 64<<10)}
}

func (j *jsonlWriter) write(e *odata.Entity) error {
	j.buf = odata.AppendEntityJSON(j.buf[:0], e)
	j.buf = append(j.buf, '\n')
	_, err := j.w.Write(j.buf)
	return err
}

func (j *jsonlWriter) flush() error { return j.w.Flush() }

// jsonListWriter streams {"value":[e1,e2,…] …}: the caller writes the
// closing members with end.
type jsonListWriter struct {
	w   *bufio.Writer
	buf []byte
	n   int
}

func newJSONListWriter(w io.Writer) *jsonListWriter {
	j := &jsonListWriter{w: bufio.NewWriterSize(w, 64<<10)}
	j.w.WriteString("{\n  \"value\": [")
	return j
}

func (j *jsonListWriter) write(e *odata.Entity) error {
	j.buf = j.buf[:0]
	if j.n > 0 {
		j.buf = append(j.buf, ',')
	}
	j.buf = append(j.buf, "\n    "...)
	j.buf = odata.AppendEntityJSON(j.buf, e)
	j.n++
	_, err := j.w.Write(j.buf)
	return err
}

// end closes the array, writes the extra members (`"name": value`, the
// value already JSON) and closes the object.
func (j *jsonListWriter) end(members ...string) error {
	if j.n > 0 {
		j.w.WriteString("\n  ")
	}
	j.w.WriteString("]")
	for _, m := range members {
		j.w.WriteString(",\n  " + m)
	}
	j.w.WriteString("\n}\n")
	return j.w.Flush()
}

// writeEntity prints one entity (get, insert, upsert, …) in format.
func (f *Factory) writeEntity(format string, e *odata.Entity) error {
	w := f.IO.Out
	switch format {
	case FormatJSON, FormatJSONL:
		_, err := w.Write(append(odata.AppendEntityJSON(nil, e), '\n'))
		return err
	case FormatCSV:
		cw, err := newCSVWriter(w, csvColumns([]*odata.Entity{e}))
		if err != nil {
			return err
		}
		if err := cw.write(e); err != nil {
			return err
		}
		return cw.flush()
	}
	renderTable(w, []*odata.Entity{e}, false, f.IO.Width)
	return nil
}

// writeEntities prints a list held in memory (a batch's results, one page).
func (f *Factory) writeEntities(format string, ents []*odata.Entity, showTimestamp bool) error {
	w := f.IO.Out
	switch format {
	case FormatJSON:
		j := newJSONListWriter(w)
		for _, e := range ents {
			j.write(e)
		}
		return j.end()
	case FormatJSONL:
		j := newJSONLWriter(w)
		for _, e := range ents {
			j.write(e)
		}
		return j.flush()
	case FormatCSV:
		cw, err := newCSVWriter(w, csvColumns(ents))
		if err != nil {
			return err
		}
		for _, e := range ents {
			if err := cw.write(e); err != nil {
				return err
			}
		}
		return cw.flush()
	}
	renderTable(w, ents, showTimestamp, f.IO.Width)
	_, err := io.WriteString(w, countLine(int64(len(ents)))+"\n")
	return err
}
