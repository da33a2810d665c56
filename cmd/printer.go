package cmd

import (
	"bufio"
	"bytes"
	"context"
	"encoding/csv"
	"fmt"
	"io"
	"reflect"
	"slices"
	"strings"
	"sync"

	"github.com/spf13/cobra"
	"github.com/tstable/tstable/design"
	"github.com/tstable/tstable/iostreams"
	"github.com/tstable/tstable/odata"
	"github.com/tstable/tstable/transfer"
)

// The Printer is the only writer of a command's output. Commands hand it
// values — a result (Print), entities (Entity, Entities), a line for
// people (Tell), a note (Note), a progress bar (Progress) — and it derives
// the bytes from them in the run's format, chosen once from -o and the
// terminal (newPrinter). The formats:
//
//   - table: for people. Entities as a table with PartitionKey and RowKey
//     first, then the union of their property columns in first-seen order
//     (Timestamp only when selected, long values cut with "…"), or one
//     property per line; a result as the command's text for people (else
//     its rows as a grid, drawn as entities' tables are).
//   - json: one object (get, insert, a result), or {"value":[…]} for lists,
//     an item a line, with "continuation" beside "value" when there is a
//     next page.
//   - jsonl: one entity (or one item of a result) per line and nothing else
//     on standard output.
//   - csv: entities under a header PartitionKey,RowKey,Timestamp,Name,
//     Age@Edm.Int32,… (the header import reads; an empty cell an absent
//     property); a result as rows of its items (or itself), its nested
//     fields flattened into dotted column names (evidence.summary), a list
//     of plain values joined by "; " in one cell.
//
// Each format is a value of the format interface, listed in formats: a new
// format is one more implementation here, and no command changes (the
// tests show it with a format of their own).

// The names of the formats the printer chooses by itself: table on a
// terminal, jsonl otherwise.
const (
	FormatTable = "table"
	FormatJSON  = "json"
	FormatJSONL = "jsonl"
	FormatCSV   = "csv"
)

// formats are the output formats, in the order help names them.
var formats = []format{tableFormat{}, jsonFormat{}, jsonlFormat{}, csvFormat{}}

// format is one shape of output.
type format interface {
	// name is what -o takes; about says what it is, for completion.
	name() string
	about() string
	// forPeople reports whether people read it: then Tell's lines are
	// written, and a lesson may run.
	forPeople() bool
	// result writes one result of a command.
	result(p *Printer, r result) error
	// list starts a list of entities shown as v says (v.single: one
	// entity on its own, as get shows it).
	list(p *Printer, v tableView) entityWriter
}

// entityWriter writes one list of entities in a format. A writer that can
// take entities already written as JSON lines implements lineWriter; one
// that needs its columns before the first entity, to stream, implements
// columnWriter.
type entityWriter interface {
	write(e *odata.Entity) error
	end(x ListEnd) error
}

// lineWriter takes n entities already written as JSON lines.
type lineWriter interface {
	writeLines(lines []byte, n int) error
}

// columnWriter is told the columns before the first entity.
type columnWriter interface {
	setColumns(cols []transfer.Column) error
}

// formatNamed is the format -o names, or nil.
func formatNamed(name string) format {
	for _, f := range formats {
		if f.name() == name {
			return f
		}
	}
	return nil
}

// formatNames lists the format names for people: "table, json, jsonl or csv".
func formatNames(names []string) string {
	if len(names) < 2 {
		return strings.Join(names, "")
	}
	return strings.Join(names[:len(names)-1], ", ") + " or " + names[len(names)-1]
}

// allFormatNames are the names of every format, in help's order.
func allFormatNames() []string {
	var out []string
	for _, f := range formats {
		out = append(out, f.name())
	}
	return out
}

// outputFlagUsage is the help of -o.
func outputFlagUsage() string {
	return "output `format`: " + formatNames(allFormatNames()) + " (default " + FormatTable + " on a terminal, " + FormatJSONL + " otherwise)"
}

// formatCompletions are -o's values with what each is, for completion.
func formatCompletions() []string {
	var out []string
	for _, f := range formats {
		out = append(out, f.name()+"\t"+f.about())
	}
	return out
}

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
	allowed := allFormatNames()
	if s := c.Annotations[formatsKey]; s != "" {
		allowed = strings.Split(s, ",")
	}
	name := flag
	switch {
	case name == "" && ios.OutTTY:
		name = FormatTable
	case name == "":
		name = FormatJSONL
	}
	if formatNamed(name) == nil {
		return nil, usageErrorf(c, "unknown output format %q; use %s", flag, formatNames(allFormatNames()))
	}
	if !slices.Contains(allowed, name) {
		if flag != "" {
			return nil, usageErrorf(c, "%s writes %s; got -o %s", strings.TrimPrefix(c.CommandPath(), "tstable "), strings.Join(allowed, " or "), flag)
		}
		name = allowed[0]
	}
	return &Printer{format: formatNamed(name), io: ios, out: outWriter(ios), ctx: c.Context()}, nil
}

// lastOut is the buffered writer of the last printer made, and the
// streams it writes to.
var lastOut struct {
	sync.Mutex
	ios *iostreams.IOStreams
	w   *bufio.Writer
}

// outWriter is the buffered writer of a command's output on ios: the
// printers made one after another on the same streams (the shell makes
// one for every line it runs) share one, since a new 64 KiB buffer for
// each costs more than a point query. They write one after another, each
// flushing what it wrote, so sharing the buffer is writing through it in
// turn.
func outWriter(ios *iostreams.IOStreams) *bufio.Writer {
	lastOut.Lock()
	defer lastOut.Unlock()
	if lastOut.ios != ios {
		lastOut.ios, lastOut.w = ios, bufio.NewWriterSize(ios.Out, 64<<10)
	}
	return lastOut.w
}

// defaultPrinter is the printer before -o is read: table on a terminal,
// jsonl otherwise.
func defaultPrinter(root *cobra.Command, ios *iostreams.IOStreams) *Printer {
	p, _ := newPrinter(root, "", ios) // no -o: cannot fail
	return p
}

// Printer writes a command's output in the run's format. Standard output
// is buffered; every method flushes what it wrote before it returns, and
// before anything goes to standard error, so the two never interleave out
// of order on a terminal.
type Printer struct {
	format format
	io     *iostreams.IOStreams
	out    *bufio.Writer
	expand expandMode

	mu  sync.Mutex // notes may come from another goroutine (a load's rejects, a server's log)
	bar *Bar       // the bar on the screen, cleared before a note

	// ctx is the command's: once it is done (Ctrl-C), a list of entities
	// takes no more, whatever feeds it (nil before the command runs).
	ctx context.Context
}

// interrupted is the command's interrupt, once it came.
func (p *Printer) interrupted() error {
	if p.ctx == nil {
		return nil
	}
	return p.ctx.Err()
}

// ForPeople reports whether the output is for people (the table format).
func (p *Printer) ForPeople() bool { return p.format.forPeople() }

// Tell writes text for people — a line, or lines, a final newline added
// when missing ("" is a blank line) — in a format people read; the others
// leave it out ("deleted …", a lesson's commentary).
func (p *Printer) Tell(text string) error {
	if !p.format.forPeople() {
		return nil
	}
	p.out.WriteString(text)
	if !strings.HasSuffix(text, "\n") {
		p.out.WriteByte('\n')
	}
	return p.out.Flush()
}

// Transcript is a printer of the same streams for output that people
// alone read, whatever -o and the terminal chose (a lesson): its Tell
// always writes.
func (p *Printer) Transcript() *Printer {
	return &Printer{format: tableFormat{}, io: p.io, out: p.out, expand: p.expand, ctx: p.ctx}
}

// Prompt writes text for people and no newline: a question whose answer
// is typed after it.
func (p *Printer) Prompt(text string) error {
	p.out.WriteString(text)
	return p.out.Flush()
}

// ClearPrompt takes the question Prompt wrote off the screen once it is
// answered, so that it does not stay among the output that follows: on a
// terminal, its row is erased (the row above the cursor when lineTyped,
// the answer's Enter having moved the cursor down). Elsewhere it does
// nothing.
func (p *Printer) ClearPrompt(lineTyped bool) error {
	if !p.io.OutTTY {
		return nil
	}
	if lineTyped {
		p.out.WriteString("\x1b[1A") // up a row
	}
	p.out.WriteString("\r\x1b[2K") // to its start, and erase it
	return p.out.Flush()
}

// Note writes a line to standard error: counts, continuation tokens,
// rejects, explanations — what is not the data. A progress bar on the
// screen is cleared first; it is drawn again at its next change.
func (p *Printer) Note(format string, args ...any) {
	p.mu.Lock()
	defer p.mu.Unlock()
	p.out.Flush()
	p.bar.clear()
	fmt.Fprintf(p.io.ErrOut, format+"\n", args...)
}

// NoteWriter is a writer whose lines are notes, for code that writes its
// own lines (the server's log of queries).
func (p *Printer) NoteWriter() io.Writer { return noteWriter{p} }

type noteWriter struct{ p *Printer }

func (w noteWriter) Write(b []byte) (int, error) {
	w.p.mu.Lock()
	defer w.p.mu.Unlock()
	w.p.out.Flush()
	w.p.bar.clear()
	return w.p.io.ErrOut.Write(b)
}

// Bar is a progress bar on standard error, drawn only when it is a
// terminal (every method of a bar not drawn does nothing).
type Bar struct {
	p   *Printer
	bar *iostreams.Progress
}

// Progress starts a bar described by desc counting items ("entities")
// towards total (-1 when unknown).
func (p *Printer) Progress(desc string, total int64, items string) *Bar {
	b := &Bar{p: p, bar: p.io.StartProgress(desc, total, items)}
	p.showing(b)
	return b
}

// showing records the bar on the screen (nil: none).
func (p *Printer) showing(b *Bar) {
	p.mu.Lock()
	defer p.mu.Unlock()
	p.bar = b
}

// ByteProgress starts a bar counting the bytes read through the returned
// reader towards total (-1 when unknown).
func (p *Printer) ByteProgress(desc string, total int64, r io.Reader) (*Bar, io.Reader) {
	bar, r := p.io.StartByteProgress(desc, total, r)
	b := &Bar{p: p, bar: bar}
	p.showing(b)
	return b, r
}

// Set sets the count to n.
func (b *Bar) Set(n int64) { b.bar.Set(n) }

// SetOf sets the count to n of total (a total learnt on the way).
func (b *Bar) SetOf(n, total int64) { b.bar.SetOf(n, total) }

// Finish takes the bar off the screen for good.
func (b *Bar) Finish() {
	b.bar.Finish()
	b.p.showing(nil)
}

func (b *Bar) clear() {
	if b != nil {
		b.bar.Clear()
	}
}

// marshal is a value's JSON, as every format writes it: <, > and & as
// they are, as the service writes them (odata.MarshalJSON).
func marshal(v any) ([]byte, error) { return odata.MarshalJSON(v) }

// result is what a command hands Print: its value, and how people read it.
type result struct {
	v     any
	text  func(w io.Writer) error
	prose bool // text's long lines wrap at word boundaries
}

// itemized is a result whose items are the lines of jsonl and the rows of
// csv (lint's findings, check's problems), while json writes it whole.
type itemized interface{ items() []any }

// Print writes a command's result v: for people with text (when nil, v's
// rows as a grid); otherwise derived from v itself — json its JSON (a list
// as {"value":[…]}, an item a line), jsonl an item (or v) a line, csv a
// row an item with nested fields in dotted columns.
func (p *Printer) Print(v any, text func(w io.Writer) error) error {
	if err := p.format.result(p, result{v: v, text: text}); err != nil {
		return err
	}
	return p.out.Flush()
}

// PrintProse is Print for a result whose text for people is prose
// (findings, advice, an explanation): its lines longer than the terminal
// (proseWidth columns off a terminal) wrap at word boundaries, each
// wrapped line under the text after its label, so that a long advice
// never breaks in the middle of a word.
func (p *Printer) PrintProse(v any, text func(w io.Writer) error) error {
	if err := p.format.result(p, result{v: v, text: text, prose: true}); err != nil {
		return err
	}
	return p.out.Flush()
}

// proseWidth is the width prose wraps at: the terminal's, else
// defaultProseWidth.
func (p *Printer) proseWidth() int {
	if w := p.io.TermWidth(); w > 0 {
		return w
	}
	return defaultProseWidth
}

// itemsOf is what a result lists: a slice's elements, an itemized value's
// items, else the value alone; list is true for a slice.
func itemsOf(v any) (items []any, list bool) {
	if it, ok := v.(itemized); ok {
		return it.items(), false
	}
	rv := reflect.ValueOf(v)
	if rv.Kind() != reflect.Slice {
		return []any{v}, false
	}
	for i := range rv.Len() {
		items = append(items, rv.Index(i).Interface())
	}
	return items, true
}

// FilterNotes writes, on standard error, why comparisons of a filter can
// never be true ("note: no entity in People has a property lastname (did
// you mean LastName? …)"): the query ran as the service runs it, and
// these say why it found nothing.
func (p *Printer) FilterNotes(notes []design.FilterNote) {
	for _, n := range notes {
		p.Note("note: %s", n.Text)
	}
}

// Columns says which system properties a listing shows beside the keys
// (the json formats always carry them; csv always has Timestamp), and
// what --select named (nil when it named nothing): the json formats then
// carry what the service's answer to that $select carries, odata.etag and
// the named properties only, a missing one as null; the table and csv keep
// the keys, which name each row.
type Columns struct {
	Timestamp bool
	ETag      bool
	Select    []string
}

// selectedColumns shows the system properties a --select names.
func selectedColumns(sel []string) Columns {
	return Columns{Timestamp: slices.Contains(sel, odata.Timestamp), ETag: slices.Contains(sel, odata.ETagName), Select: sel}
}

// Entity writes one entity on its own: for people one property per line
// with its ETag and Timestamp, else one JSON object (json and jsonl alike),
// or a CSV header and row.
func (p *Printer) Entity(e *odata.Entity) error { return p.SelectedEntity(e, nil) }

// SelectedEntity writes one entity as Entity does, the properties sel
// names only (nil: all): in json as the service answers a $select.
func (p *Printer) SelectedEntity(e *odata.Entity, sel []string) error {
	v := p.view(Columns{Timestamp: true, ETag: !e.Timestamp.IsZero(), Select: sel})
	v.expanded, v.single = expandOn, true
	l := &EntityList{p: p, w: p.format.list(p, v), sel: sel}
	l.Write(odata.Project(e, without(sel, odata.ETagName)))
	return l.Close(ListEnd{})
}

// Entities starts a list of entities, written as they come (a table a
// thousand rows at a time, CSV once the columns are known).
func (p *Printer) Entities(cols Columns) *EntityList {
	return &EntityList{p: p, w: p.format.list(p, p.view(cols)), sel: cols.Select}
}

// view is how a table shows entities with these columns, now.
func (p *Printer) view(cols Columns) tableView {
	return tableView{timestamp: cols.Timestamp, etag: cols.ETag, width: p.io.TermWidth(), expanded: p.expand, sel: cols.Select}
}

// appendEntity appends e's JSON, the properties sel names only (nil: all).
func appendEntity(dst []byte, e *odata.Entity, sel []string) []byte {
	if sel == nil {
		return odata.AppendEntityJSON(dst, e)
	}
	return odata.AppendSelectedJSON(dst, e, sel)
}

// EntityList is a list of entities being written.
type EntityList struct {
	p   *Printer
	w   entityWriter
	n   int64
	sel []string // --select's names, nil for all
}

// Write adds one entity; after an interrupt it fails with it (checked
// every 64 entities).
func (l *EntityList) Write(e *odata.Entity) error {
	if l.n&63 == 0 {
		if err := l.p.interrupted(); err != nil {
			return err
		}
	}
	l.n++
	return l.w.write(e)
}

// TakesLines reports whether the list takes entities already written as
// JSON lines (WriteLines): a store that keeps them so writes them
// straight from its bytes, all their properties (not a --select's).
func (l *EntityList) TakesLines() bool {
	_, ok := l.w.(lineWriter)
	return ok && l.sel == nil
}

// WriteLines adds n entities already written as JSON lines; only when
// TakesLines.
func (l *EntityList) WriteLines(lines []byte, n int) error {
	if err := l.p.interrupted(); err != nil {
		return err
	}
	l.n += int64(n)
	return l.w.(lineWriter).writeLines(lines, n)
}

// NeedsColumns reports whether the list streams only once it knows every
// entity's columns (SetColumns); else it holds the entities to the end.
func (l *EntityList) NeedsColumns() bool {
	_, ok := l.w.(columnWriter)
	return ok
}

// SetColumns gives the columns before the first Write, so that rows
// stream instead of waiting for the end (a caller that read the entities
// once already knows them).
func (l *EntityList) SetColumns(cols []transfer.Column) error {
	if cw, ok := l.w.(columnWriter); ok {
		return cw.setColumns(cols)
	}
	return nil
}

// Count is how many entities were written.
func (l *EntityList) Count() int64 { return l.n }

// Abandon ends a list that an error cut short: what was written of it so
// far reaches standard output (a stream stays a prefix of the whole), its
// last line ended, so that the error line after it starts a line.
func (l *EntityList) Abandon() {
	if a, ok := l.w.(abandoner); ok {
		a.abandon()
	}
	l.p.out.Flush()
}

// abandoner is an entityWriter that leaves a line open between two
// entities, and ends it when the list is cut short.
type abandoner interface {
	abandon()
}

// ListEnd is what follows a list of entities.
type ListEnd struct {
	// Continuation is the token of the next page ("" when there is none):
	// beside "value" in json, else a note "continuation: TOKEN".
	Continuation string
	// Explain is the query's explanation, when asked for: in json beside
	// "value", for people under the list, else a note.
	Explain *odata.Explanation
	// Summary is a line for people under the list ("5 entities").
	Summary string
	// Footer is the shell's one-line summary of a query: under the list for
	// people (in place of Summary), else a note.
	Footer string
}

// Close ends the list with what follows it, and flushes it.
func (l *EntityList) Close(x ListEnd) error {
	if err := l.w.end(x); err != nil {
		return err
	}
	return l.p.out.Flush()
}

// noteEnd says what follows a list in notes: the formats whose standard
// output holds only the data.
func (p *Printer) noteEnd(x ListEnd) {
	if x.Footer != "" {
		p.Note("%s", x.Footer)
	}
	if x.Explain != nil {
		p.Note("%s", strings.TrimSuffix(x.Explain.Text(), "\n"))
	}
	if x.Continuation != "" {
		p.Note("continuation: %s", x.Continuation)
	}
}

// tableFormat is for people: tables, text and lines.
type tableFormat struct{}

func (tableFormat) name() string    { return FormatTable }
func (tableFormat) about() string   { return "a readable table" }
func (tableFormat) forPeople() bool { return true }

func (tableFormat) result(p *Printer, r result) error {
	switch {
	case r.text != nil && r.prose:
		var b strings.Builder
		if err := r.text(&b); err != nil {
			return err
		}
		_, err := p.out.WriteString(wrapProse(b.String(), p.proseWidth()))
		return err
	case r.text != nil:
		return r.text(p.out)
	}
	items, _ := itemsOf(r.v)
	header, rows, err := flattenRows(items)
	if err != nil || len(header) == 0 {
		return err
	}
	writeGrid(p.out, header, rows, nil)
	return nil
}

func (tableFormat) list(p *Printer, v tableView) entityWriter {
	return &tableList{p: p, view: v}
}

// tableChunk is how many rows a table holds before it is drawn: a long
// listing is drawn as several tables, so memory holds one chunk.
const tableChunk = 1000

// tableList draws entities a chunk at a time.
type tableList struct {
	p     *Printer
	view  tableView
	rows  []*odata.Entity // the chunk not drawn yet
	drawn bool
}

func (t *tableList) write(e *odata.Entity) error {
	t.rows = append(t.rows, e)
	if len(t.rows) == tableChunk {
		t.draw()
	}
	return nil
}

// draw writes the chunk, fitted to the terminal's width; or, when it goes
// to a pager (which scrolls sideways), as a table is laid out off a
// terminal, its columns not cut to the width.
func (t *tableList) draw() {
	if t.view.width > 0 && t.p.io.MayPage() {
		t.p.out.Flush()
		var b bytes.Buffer
		uncut := t.view
		uncut.width = 0
		renderTable(&b, t.rows, uncut)
		if t.p.io.Paged(b.Bytes()) {
			t.p.out.Write(b.Bytes())
			t.rows, t.drawn = t.rows[:0], true
			return
		}
	}
	renderTable(t.p.out, t.rows, t.view)
	t.rows, t.drawn = t.rows[:0], true
}

func (t *tableList) end(x ListEnd) error {
	if len(t.rows) > 0 || !t.drawn {
		t.draw()
	}
	switch {
	case x.Footer != "":
		t.p.out.Flush()
		t.p.io.WriteTrailer([]byte(x.Footer + "\n"))
	case x.Summary != "":
		t.p.out.WriteString(x.Summary + "\n")
	}
	if x.Explain != nil {
		t.p.out.WriteString(wrapProse(x.Explain.Text(), t.p.proseWidth()))
	}
	if x.Continuation != "" {
		t.p.Note("continuation: %s", x.Continuation)
	}
	return nil
}

// jsonFormat writes one JSON document.
type jsonFormat struct{}

func (jsonFormat) name() string    { return FormatJSON }
func (jsonFormat) about() string   { return "one JSON object" }
func (jsonFormat) forPeople() bool { return false }

func (jsonFormat) result(p *Printer, r result) error {
	items, list := itemsOf(r.v)
	if !list {
		b, err := marshal(r.v)
		if err != nil {
			return err
		}
		p.out.Write(append(b, '\n'))
		return nil
	}
	j := newJSONList(p.out)
	for _, it := range items {
		b, err := marshal(it)
		if err != nil {
			return err
		}
		j.item(b)
	}
	return j.end()
}

func (jsonFormat) list(p *Printer, v tableView) entityWriter {
	if v.single {
		return jsonlList{p, v.sel}
	}
	return &jsonEntities{p: p, jsonList: newJSONList(p.out), sel: v.sel}
}

// jsonEntities is a list of entities in json: {"value":[…]} and its members.
type jsonEntities struct {
	*jsonList
	p   *Printer
	buf []byte
	sel []string // --select's names, nil for all
}

func (j *jsonEntities) write(e *odata.Entity) error {
	j.buf = appendEntity(j.buf[:0], e, j.sel)
	return j.item(j.buf)
}

// writeLines adds entities already written as JSON lines, an item a line
// (JSON text holds no raw newline).
func (j *jsonEntities) writeLines(lines []byte, n int) error {
	for len(lines) > 0 {
		end := bytes.IndexByte(lines, '\n')
		if err := j.item(lines[:end]); err != nil {
			return err
		}
		lines = lines[end+1:]
	}
	return nil
}

func (j *jsonEntities) end(x ListEnd) error {
	var members []member
	if x.Continuation != "" {
		members = append(members, member{"continuation", x.Continuation})
	}
	if x.Explain != nil {
		members = append(members, member{"explain", x.Explain})
	}
	if err := j.jsonList.end(members...); err != nil {
		return err
	}
	if x.Footer != "" {
		j.p.Note("%s", x.Footer)
	}
	return nil
}

// jsonList streams {"value":[item,item,…] …}, one item a line. It writes
// nothing until its first item or its end, so that a list an error ends
// before it starts (a missing table) leaves standard output empty.
type jsonList struct {
	w *bufio.Writer
	n int
}

func newJSONList(w *bufio.Writer) *jsonList { return &jsonList{w: w} }

// abandon ends the line of the last item of a list cut short.
func (j *jsonList) abandon() {
	if j.n > 0 {
		j.w.WriteByte('\n')
	}
}

// open writes the list's start.
func (j *jsonList) open() { j.w.WriteString("{\n  \"value\": [") }

// item adds one value, already JSON.
func (j *jsonList) item(v []byte) error {
	if j.n > 0 {
		j.w.WriteByte(',')
	} else {
		j.open()
	}
	j.w.WriteString("\n    ")
	_, err := j.w.Write(v)
	j.n++
	return err
}

// member is a name and value written beside "value".
type member struct {
	name  string
	value any
}

// end closes the array, writes the members beside it and closes the object.
func (j *jsonList) end(members ...member) error {
	if j.n > 0 {
		j.w.WriteString("\n  ")
	} else {
		j.open()
	}
	j.w.WriteString("]")
	for _, m := range members {
		b, err := marshal(m.value)
		if err != nil {
			return err
		}
		j.w.WriteString(",\n  \"" + m.name + "\": ")
		j.w.Write(b)
	}
	j.w.WriteString("\n}\n")
	return nil
}

// jsonlFormat writes one JSON value a line.
type jsonlFormat struct{}

func (jsonlFormat) name() string    { return FormatJSONL }
func (jsonlFormat) about() string   { return "one entity per line" }
func (jsonlFormat) forPeople() bool { return false }

func (jsonlFormat) result(p *Printer, r result) error {
	items, _ := itemsOf(r.v)
	for _, it := range items {
		b, err := marshal(it)
		if err != nil {
			return err
		}
		p.out.Write(append(b, '\n'))
	}
	return nil
}

func (jsonlFormat) list(p *Printer, v tableView) entityWriter { return jsonlList{p, v.sel} }

// jsonlList writes an entity a line.
type jsonlList struct {
	p   *Printer
	sel []string // --select's names, nil for all
}

func (j jsonlList) write(e *odata.Entity) error {
	_, err := j.p.out.Write(append(appendEntity(nil, e, j.sel), '\n'))
	return err
}

func (j jsonlList) writeLines(lines []byte, n int) error {
	_, err := j.p.out.Write(lines)
	return err
}

func (j jsonlList) end(x ListEnd) error {
	j.p.noteEnd(x)
	return nil
}

// csvFormat writes rows under a header.
type csvFormat struct{}

func (csvFormat) name() string    { return FormatCSV }
func (csvFormat) about() string   { return "comma-separated, typed header" }
func (csvFormat) forPeople() bool { return false }

func (csvFormat) result(p *Printer, r result) error {
	items, _ := itemsOf(r.v)
	header, rows, err := flattenRows(items)
	if err != nil || len(header) == 0 { // no items: no columns, no rows
		return err
	}
	w := csv.NewWriter(p.out)
	w.Write(header)
	w.WriteAll(rows)
	return w.Error()
}

func (csvFormat) list(p *Printer, v tableView) entityWriter { return &csvList{p: p} }

// csvList writes entities under the typed header: streaming once it knows
// the columns, else holding the entities to the end.
type csvList struct {
	p    *Printer
	w    *transfer.Writer
	rows []*odata.Entity
}

func (c *csvList) setColumns(cols []transfer.Column) error {
	w, err := transfer.NewWriter(c.p.out, cols)
	c.w = w
	return err
}

func (c *csvList) write(e *odata.Entity) error {
	if c.w != nil {
		return c.w.Write(e)
	}
	c.rows = append(c.rows, e)
	return nil
}

func (c *csvList) end(x ListEnd) error {
	if c.w == nil {
		if err := c.setColumns(transfer.Columns(c.rows)); err != nil {
			return err
		}
		for _, e := range c.rows {
			if err := c.w.Write(e); err != nil {
				return err
			}
		}
	}
	if err := c.w.Flush(); err != nil {
		return err
	}
	c.p.noteEnd(x)
	if note := c.w.EmptyNote(); note != "" {
		c.p.Note("note: %s", note)
	}
	return nil
}

// Errors and cobra's own output.

// writeError writes an error line (and, with TSTABLE_DEBUG, a stack) to
// standard error: the one place error messages are written.
func writeError(ios *iostreams.IOStreams, msg string, stack []byte) {
	if msg != "" {
		fmt.Fprintln(ios.ErrOut, msg)
	}
	ios.ErrOut.Write(stack)
}

// connectStreams gives cobra the streams it writes its help, usage and
// completion scripts to itself.
func connectStreams(c *cobra.Command, ios *iostreams.IOStreams) {
	c.SetIn(ios.In)
	c.SetOut(ios.Out)
	c.SetErr(ios.ErrOut)
}
