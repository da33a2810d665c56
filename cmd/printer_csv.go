package cmd

import (
	"encoding/csv"

	"github.com/tstable/tstable/odata"
	"github.com/tstable/tstable/transfer"
)

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
