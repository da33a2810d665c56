package cmd

import (
	"bufio"
	"bytes"

	"github.com/tstable/tstable/odata"
)

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
