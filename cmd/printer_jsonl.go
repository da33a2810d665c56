package cmd

import (
	"github.com/tstable/tstable/odata"
)

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
	// Appended where the buffer's free space starts: written in place
	// when it fits, no slice grown from nothing for every entity.
	_, err := j.p.out.Write(append(appendEntity(j.p.out.AvailableBuffer(), e, j.sel), '\n'))
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
