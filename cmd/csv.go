package cmd

import (
	"bufio"
	"encoding/csv"
	"errors"
	"fmt"
	"io"
	"strings"
	"unicode/utf8"

	"github.com/tstable/tstable/odata"
	"github.com/tstable/tstable/store"
)

// The CSV form of entities, both directions: the header export writes is
// the header import reads (PartitionKey,RowKey,Timestamp,Name,Age@Edm.Int32,…).

// column is a typed CSV column: a property name and its Edm type.
type column struct {
	name string
	typ  odata.EdmType // 0 for the system columns
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

// badUTF8At is the 0-based byte offset of the first byte of s that is not
// valid UTF-8.
func badUTF8At(s string) int {
	for i, r := range s {
		if r == utf8.RuneError {
			if _, n := utf8.DecodeRuneInString(s[i:]); n == 1 {
				return i
			}
		}
	}
	return len(s)
}

// rowCapReader hands an import's CSV to encoding/csv at most a line at a
// time (a Read never goes past a newline), so that when the csv reader
// has a row, it holds nothing read beyond it. It counts the lines and the
// bytes of the row being read, and fails with *rowTooLong as soon as a
// row passes maxEntityInput: the csv reader would hold a row of any
// length, and a quote left open takes in the rest of the input.
type rowCapReader struct {
	src     *bufio.Reader
	pending []byte // the rest of the line read last, not yet handed on
	err     error  // what ended the source, once the pending bytes are handed on
	lines   int64  // lines handed on whole
	row     int64  // bytes of the current row handed on
	from    int64  // the line the current row begins on
}

func newRowCapReader(r io.Reader) *rowCapReader {
	return &rowCapReader{src: bufio.NewReaderSize(r, 1<<20), from: 1}
}

// nextRow tells the reader that the csv reader has read a whole row.
func (c *rowCapReader) nextRow() { c.row, c.from = 0, c.lines+1 }

func (c *rowCapReader) Read(p []byte) (int, error) {
	if len(c.pending) == 0 {
		if c.err != nil {
			return 0, c.err
		}
		var err error
		c.pending, err = c.src.ReadSlice('\n')
		if err != nil && !errors.Is(err, bufio.ErrBufferFull) {
			c.err = err
		}
		if len(c.pending) == 0 {
			return 0, c.err
		}
	}
	n := copy(p, c.pending)
	part := c.pending[:n]
	c.pending = c.pending[n:]
	if c.row == 0 && (string(part) == "\n" || string(part) == "\r\n") {
		c.lines++ // a blank line, which the csv reader skips: not part of a row
		c.from = c.lines + 1
		return n, nil
	}
	c.row += int64(n)
	if c.row > maxEntityInput {
		c.pending, c.err = nil, &rowTooLong{from: c.from, line: c.lines + 1, final: true}
		return 0, c.err
	}
	if part[n-1] == '\n' {
		c.lines++
	}
	return n, nil
}

// csvSource reads a header row and then one entity per row. A row longer
// than maxEntityInput stops it (*rowTooLong), even when keepGoing: where
// the next row begins is not known without reading the whole of it.
func csvSource(r io.Reader, name string, lines *lineIndex, keepGoing bool, reject func(int64, error), rowError func(int64, error) error) (store.EntitySource, error) {
	capped := newRowCapReader(r)
	cr := csv.NewReader(capped)
	cr.ReuseRecord = true
	cr.FieldsPerRecord = -1
	header, err := cr.Read()
	header = append([]string(nil), header...) // the reader reuses its record
	capped.nextRow()
	if err != nil {
		if errors.Is(err, io.EOF) {
			return func() (*odata.Entity, error) { return nil, io.EOF }, nil
		}
		var (
			long *rowTooLong
			pe   *csv.ParseError
		)
		switch {
		case errors.As(err, &long):
			return nil, odata.Errorf(odata.CodeRequestBodyTooLarge, "%s: the CSV header: %v", name, err)
		case errors.As(err, &pe):
			return nil, odata.Errorf(odata.CodeInvalidInput, "%s: the CSV header: %v", name, err)
		}
		return nil, store.FileError(err, "cannot read %s", name)
	}
	layout, err := csvLayoutOf(header, name)
	if err != nil {
		return nil, err
	}
	var n int64
	return func() (*odata.Entity, error) {
		for {
			rec, err := cr.Read()
			capped.nextRow()
			if errors.Is(err, io.EOF) {
				return nil, io.EOF
			}
			var long *rowTooLong
			if errors.As(err, &long) {
				return nil, rowError(long.from, long)
			}
			var line int
			if err == nil {
				line, _ = cr.FieldPos(0)
			} else {
				var pe *csv.ParseError
				if !errors.As(err, &pe) {
					return nil, err // the input cannot be read
				}
				line, err = pe.StartLine, pe.Err
				if keepGoing {
					reject(int64(line), err)
					continue
				}
				return nil, rowError(int64(line), err)
			}
			e, rerr := layout.entity(rec)
			if rerr != nil {
				if keepGoing {
					reject(int64(line), rerr)
					continue
				}
				return nil, rowError(int64(line), rerr)
			}
			lines.record(n, int64(line))
			n++
			return e, nil
		}
	}, nil
}

// csvLayout is what a CSV header says of the rows below it: each
// column's property and type (none for the keys, Timestamp and odata.etag
// columns), and which columns hold the keys.
type csvLayout struct {
	header []string
	cols   []column
	pk, rk int
}

// csvLayoutOf reads a CSV header row.
func csvLayoutOf(header []string, name string) (*csvLayout, error) {
	l := &csvLayout{header: header, cols: make([]column, len(header)), pk: -1, rk: -1}
	seen := map[string]bool{}
	for i, h := range header {
		h = strings.TrimSpace(strings.TrimPrefix(h, "\ufeff"))
		nm, typ, typed := strings.Cut(h, "@")
		switch nm {
		case odata.PartitionKey:
			l.pk = i
			continue
		case odata.RowKey:
			l.rk = i
			continue
		case odata.Timestamp, odata.ETagName:
			continue
		}
		t := odata.EdmString
		if typed {
			var ok bool
			if t, ok = odata.ParseEdmType(typ); !ok {
				return nil, odata.Errorf(odata.CodeInvalidInput, "%s: CSV header column %d %q: unknown type %q; expected Edm.String, Edm.Int32, Edm.Int64, Edm.Double, Edm.Boolean, Edm.DateTime, Edm.Guid or Edm.Binary", name, i+1, h, typ)
			}
		}
		if err := odata.ValidatePropertyName(nm); err != nil {
			return nil, odata.Errorf(odata.CodeInvalidInput, "%s: CSV header column %d %q: %s", name, i+1, h, err.(*odata.Error).Message)
		}
		if seen[nm] {
			return nil, odata.Errorf(odata.CodeInvalidInput, "%s: CSV header column %d names %s again; each property has one column", name, i+1, nm)
		}
		seen[nm] = true
		l.cols[i] = column{name: nm, typ: t}
	}
	if l.pk < 0 || l.rk < 0 {
		return nil, odata.Errorf(odata.CodeInvalidInput, "%s: the CSV header needs PartitionKey and RowKey columns; it has %s", name, strings.Join(header, ","))
	}
	return l, nil
}

// entity is the entity of one row.
func (l *csvLayout) entity(rec []string) (*odata.Entity, error) {
	if len(rec) != len(l.cols) {
		return nil, fmt.Errorf("the row has %d fields; the header has %d", len(rec), len(l.cols))
	}
	for i, cell := range rec {
		if !utf8.ValidString(cell) {
			return nil, fmt.Errorf("column %d (%s) is not valid UTF-8 at byte %d: save the file as UTF-8", i+1, l.header[i], badUTF8At(cell))
		}
	}
	e := &odata.Entity{PartitionKey: rec[l.pk], RowKey: rec[l.rk], Properties: make([]odata.Property, 0, len(l.cols))}
	for i, cell := range rec {
		c := l.cols[i]
		if c.typ == 0 || cell == "" {
			continue
		}
		v, err := odata.ParseValueText(c.name, c.typ, cell)
		if err != nil {
			return nil, err
		}
		e.Properties = append(e.Properties, odata.Property{Name: c.name, Value: v})
	}
	return e, nil
}
