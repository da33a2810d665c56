package cmd

import (
	"bufio"
	"bytes"
	"context"
	"encoding/csv"
	"encoding/json"
	"fmt"
	"io"
	"strconv"
	"strings"

	"github.com/spf13/cobra"
	"github.com/tstable/tstable/iostreams"
	"github.com/tstable/tstable/odata"
	"github.com/tstable/tstable/store"
	"github.com/tstable/tstable/transfer"
)

// Output shapes, chosen once per run from -o and the terminal (see
// newPrinter) and written only by the Printer:
//
//   - table: for entities, a table with PartitionKey and RowKey first, then
//     the union of the entities' property columns in first-seen order;
//     Timestamp only when selected; long values cut with "…"; for a report,
//     its text for people.
//   - json: one object (get, insert, a report), or {"value":[…]} for lists,
//     with "continuation" beside "value" when there is a next page.
//   - jsonl: one entity (or one item of a report) per line and nothing else
//     on standard output.
//   - csv: for entities, a header PartitionKey,RowKey,Timestamp,Name,
//     Age@Edm.Int32,… (a column is typed Name@Edm.X unless it is a String)
//     and one row per entity — the header import reads, an empty cell an
//     absent property; for a report, its rows under a header.

// Output formats.
const (
	FormatTable = "table"
	FormatJSON  = "json"
	FormatJSONL = "jsonl"
	FormatCSV   = "csv"
)

// allFormats in the order help names them.
var allFormats = []string{FormatTable, FormatJSON, FormatJSONL, FormatCSV}

// formatsKey is the annotation of a command that prints only some
// formats: their names, comma-separated, the first being its default.
const formatsKey = "tstable.formats"

// onlyFormats declares that c prints only these formats; the first is its
// default whatever the terminal. -o with another is a usage error, said
// before the command runs.
func onlyFormats(c *cobra.Command, formats ...string) {
	if c.Annotations == nil {
		c.Annotations = map[string]string{}
	}
	c.Annotations[formatsKey] = strings.Join(formats, ",")
}

// newPrinter resolves the output format for command c: -o when given,
// else table when standard output is a terminal and jsonl when it is not,
// within what c prints.
func newPrinter(c *cobra.Command, flag string, ios *iostreams.IOStreams) (*Printer, error) {
	allowed := allFormats
	if s := c.Annotations[formatsKey]; s != "" {
		allowed = strings.Split(s, ",")
	}
	format := flag
	switch {
	case format == "" && ios.OutTTY:
		format = FormatTable
	case format == "":
		format = FormatJSONL
	}
	if !has(allFormats, format) {
		return nil, usageErrorf(c, "unknown output format %q; use table, json, jsonl or csv", flag)
	}
	if !has(allowed, format) {
		if flag != "" {
			return nil, usageErrorf(c, "%s writes %s; got -o %s", strings.TrimPrefix(c.CommandPath(), "tstable "), strings.Join(allowed, " or "), flag)
		}
		format = allowed[0]
	}
	return &Printer{Format: format, io: ios, out: bufio.NewWriterSize(ios.Out, 64<<10)}, nil
}

func has(list []string, s string) bool {
	for _, x := range list {
		if x == s {
			return true
		}
	}
	return false
}

// Printer writes a command's results in the run's format. Standard output
// is buffered; every method flushes what it wrote before it returns, and
// before anything goes to standard error, so the two never interleave out
// of order on a terminal.
type Printer struct {
	Format string
	io     *iostreams.IOStreams
	out    *bufio.Writer
	expand expandMode
}

// Table reports whether the output is for people (the table format).
func (p *Printer) Table() bool { return p.Format == FormatTable }

// Line writes text and a newline to standard output.
func (p *Printer) Line(text string) error {
	p.out.WriteString(text)
	p.out.WriteByte('\n')
	return p.out.Flush()
}

// Text writes text as it is to standard output.
func (p *Printer) Text(text string) error {
	p.out.WriteString(text)
	return p.out.Flush()
}

// Note writes a line to standard error: counts, continuation tokens,
// explanations — what is not the data.
func (p *Printer) Note(format string, args ...any) {
	p.out.Flush()
	fmt.Fprintf(p.io.ErrOut, format+"\n", args...)
}

// Columns says which system properties a listing shows beside the keys
// (the json formats always carry them; csv always has Timestamp).
type Columns struct {
	Timestamp bool
	ETag      bool
}

// selectedColumns shows the system properties a --select names.
func selectedColumns(sel []string) Columns {
	return Columns{Timestamp: hasName(sel, odata.Timestamp), ETag: hasName(sel, odata.ETagName)}
}

// Entity writes one entity: for people one property per line with its
// ETag and Timestamp, else one JSON object (json and jsonl alike), or a
// CSV header and row.
func (p *Printer) Entity(e *odata.Entity) error {
	switch p.Format {
	case FormatJSON, FormatJSONL:
		p.out.Write(append(odata.AppendEntityJSON(nil, e), '\n'))
		return p.out.Flush()
	}
	l := p.Entities(Columns{Timestamp: true, ETag: !e.Timestamp.IsZero()})
	l.view.expanded, l.view.single = expandOn, true
	l.Write(e)
	return l.Close()
}

// Entities starts a list of entities, written as they come (a table a
// thousand rows at a time, CSV once the columns are known).
func (p *Printer) Entities(cols Columns) *EntityList {
	l := &EntityList{p: p, view: tableView{timestamp: cols.Timestamp, etag: cols.ETag, width: p.io.TermWidth(), expanded: p.expand}}
	if p.Format == FormatJSON {
		l.json = newJSONList(p.out)
	}
	return l
}

// tableChunk is how many rows a table holds before it is drawn: a long
// listing is drawn as several tables, so memory holds one chunk.
const tableChunk = 1000

// EntityList is a list of entities being written.
type EntityList struct {
	p     *Printer
	view  tableView
	n     int64
	rows  []*odata.Entity // table: the chunk not drawn yet; csv: all, until the columns are known
	drawn bool
	csv   *transfer.Writer
	json  *jsonList
	buf   []byte
}

// SetColumns gives the CSV columns before the first Write, so that rows
// stream instead of waiting for the end (a caller that read the entities
// once already knows them).
func (l *EntityList) SetColumns(cols []transfer.Column) error {
	if l.p.Format != FormatCSV {
		return nil
	}
	cw, err := transfer.NewWriter(l.p.out, cols)
	l.csv = cw
	return err
}

// Write adds one entity.
func (l *EntityList) Write(e *odata.Entity) error {
	l.n++
	switch l.p.Format {
	case FormatJSON:
		return l.json.item(odata.AppendEntityJSON(l.buf[:0], e))
	case FormatJSONL:
		l.buf = append(odata.AppendEntityJSON(l.buf[:0], e), '\n')
		_, err := l.p.out.Write(l.buf)
		return err
	case FormatCSV:
		if l.csv != nil {
			return l.csv.Write(e)
		}
		l.rows = append(l.rows, e)
		return nil
	}
	l.rows = append(l.rows, e)
	if len(l.rows) == tableChunk {
		l.drawTable()
	}
	return nil
}

// Query runs req on b and writes its entities to the list: in json and
// jsonl, when the backend can write them (a local file), as the lines it
// writes straight from its stored bytes, the same bytes Write would write.
func (l *EntityList) Query(ctx context.Context, b store.Backend, table string, req store.QueryRequest) (*store.QueryResult, error) {
	if jq, ok := b.(store.JSONLQuerier); ok {
		switch l.p.Format {
		case FormatJSONL:
			return jq.QueryJSONL(ctx, table, req, l.writeLines)
		case FormatJSON:
			return jq.QueryJSONL(ctx, table, req, l.writeItems)
		}
	}
	return b.Query(ctx, table, req, l.Write)
}

// writeLines adds n entities already written as JSON lines.
func (l *EntityList) writeLines(lines []byte, n int) error {
	l.n += int64(n)
	_, err := l.p.out.Write(lines)
	return err
}

// writeItems adds n entities already written as JSON lines to the json
// list, one item a line (JSON text holds no raw newline).
func (l *EntityList) writeItems(lines []byte, n int) error {
	l.n += int64(n)
	for len(lines) > 0 {
		end := bytes.IndexByte(lines, '\n')
		if err := l.json.item(lines[:end]); err != nil {
			return err
		}
		lines = lines[end+1:]
	}
	return nil
}

func (l *EntityList) drawTable() {
	renderTable(l.p.out, l.rows, l.view)
	l.rows, l.drawn = l.rows[:0], true
}

// Abandon ends a list that an error cut short: what was written of it so
// far reaches standard output (a stream stays a prefix of the whole).
func (l *EntityList) Abandon() { l.p.out.Flush() }

// Count is how many entities were written.
func (l *EntityList) Count() int64 { return l.n }

// Close ends the list and flushes it. members are added beside "value" in
// the json format (`"continuation": "…"`, each already JSON); the other
// formats have no room for them.
func (l *EntityList) Close(members ...string) error {
	switch l.p.Format {
	case FormatJSON:
		l.json.end(members...)
	case FormatCSV:
		if l.csv == nil {
			if err := l.SetColumns(transfer.Columns(l.rows)); err != nil {
				return err
			}
			for _, e := range l.rows {
				if err := l.csv.Write(e); err != nil {
					return err
				}
			}
		}
		if err := l.csv.Flush(); err != nil {
			return err
		}
	case FormatTable:
		if len(l.rows) > 0 || !l.drawn {
			l.drawTable()
		}
	}
	return l.p.out.Flush()
}

// jsonList streams {"value":[item,item,…] …}, one item a line.
type jsonList struct {
	w *bufio.Writer
	n int
}

func newJSONList(w *bufio.Writer) *jsonList {
	w.WriteString("{\n  \"value\": [")
	return &jsonList{w: w}
}

// item adds one value, already JSON.
func (j *jsonList) item(v []byte) error {
	if j.n > 0 {
		j.w.WriteByte(',')
	}
	j.w.WriteString("\n    ")
	_, err := j.w.Write(v)
	j.n++
	return err
}

// end closes the array, writes the extra members (`"name": value`, the
// value already JSON) and closes the object.
func (j *jsonList) end(members ...string) {
	if j.n > 0 {
		j.w.WriteString("\n  ")
	}
	j.w.WriteString("]")
	for _, m := range members {
		j.w.WriteString(",\n  " + m)
	}
	j.w.WriteString("\n}\n")
}

// Report is a command's result that is not entities, in every form the
// formats need.
type Report struct {
	// JSON is the json format's one object (and jsonl's one line, when
	// Lines is nil).
	JSON any
	// Lines are the jsonl format's values, one a line.
	Lines []any
	// CSV is a header row and then the rows.
	CSV [][]string
	// Text writes the table format: the report for people.
	Text func(w io.Writer) error
}

// listReport is a report of a list: {"value":[…]} in json, an item a line
// in jsonl, rows (header first) in csv, and text for people.
func listReport(items []any, rows [][]string, text func(w io.Writer) error) Report {
	return Report{JSON: map[string]any{"value": items}, Lines: items, CSV: rows, Text: text}
}

// Report writes r in the run's format.
func (p *Printer) Report(r Report) error {
	switch p.Format {
	case FormatJSON, FormatJSONL:
		values := []any{r.JSON}
		if p.Format == FormatJSONL && r.Lines != nil {
			values = r.Lines
		}
		for _, v := range values {
			b, err := json.Marshal(v)
			if err != nil {
				return err
			}
			p.out.Write(append(b, '\n'))
		}
	case FormatCSV:
		w := csv.NewWriter(p.out)
		w.WriteAll(r.CSV)
		if err := w.Error(); err != nil {
			return err
		}
	default:
		if err := r.Text(p.out); err != nil {
			return err
		}
	}
	return p.out.Flush()
}

// TableNames writes table names as the service lists them: {"TableName":
// "…"} objects in a {"value":[…]} list (json) or a line each (jsonl), a
// TableName column in csv, and a table with a count line.
func (p *Printer) TableNames(names []string) error {
	switch p.Format {
	case FormatJSON:
		j := newJSONList(p.out)
		for _, n := range names {
			j.item(tableNameJSON(n))
		}
		j.end()
	case FormatJSONL:
		for _, n := range names {
			p.out.Write(append(tableNameJSON(n), '\n'))
		}
	case FormatCSV:
		w := csv.NewWriter(p.out)
		w.Write([]string{"TableName"})
		for _, n := range names {
			w.Write([]string{n})
		}
		w.Flush()
	default:
		renderList(p.out, "TableName", names)
		if len(names) == 1 {
			p.out.WriteString("1 table\n")
		} else {
			fmt.Fprintf(p.out, "%d tables\n", len(names))
		}
	}
	return p.out.Flush()
}

// TableName writes the table a command created or deleted: verb and its
// name for people ("created table Orders"), {"TableName":"…"} otherwise.
func (p *Printer) TableName(name, verb string) error {
	switch p.Format {
	case FormatTable:
		return p.Line(verb + " table " + name)
	case FormatCSV:
		return p.Report(Report{CSV: [][]string{{"TableName"}, {name}}})
	}
	p.out.Write(append(tableNameJSON(name), '\n'))
	return p.out.Flush()
}

// tableNameJSON is {"TableName":"name"}. Table names are plain ASCII, so
// strconv.Quote's escapes agree with JSON's.
func tableNameJSON(name string) []byte {
	return []byte(`{"TableName":` + strconv.Quote(name) + `}`)
}
