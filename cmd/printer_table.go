package cmd

import (
	"bytes"
	"strings"

	"github.com/tstable/tstable/odata"
)

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
