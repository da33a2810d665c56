package cmd

import (
	"slices"
	"strings"

	"github.com/tstable/tstable/odata"
	"github.com/tstable/tstable/transfer"
)

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
