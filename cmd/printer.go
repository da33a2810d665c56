package cmd

import (
	"bufio"
	"context"
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
// Each format is a value of the format interface, in a file of its own
// (printer_table.go, printer_json.go, printer_jsonl.go, printer_csv.go)
// and listed in formats: a new format is one more such file and its name
// in the list, and no command changes (the tests show it with a format of
// their own). The printer is the files named printer*.go, and they alone
// write to the streams.

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
	var allowed []string // nil: every format
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
	if allowed != nil && !slices.Contains(allowed, name) {
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

// anys is a list as a list of any.
func anys[T any](list []T) []any {
	out := make([]any, len(list))
	for i, x := range list {
		out[i] = x
	}
	return out
}

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
