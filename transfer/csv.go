package transfer

import (
	"bufio"
	"encoding/csv"
	"errors"
	"fmt"
	"io"
	"strings"
	"unicode/utf8"

	"github.com/tstable/tstable/backend"
	"github.com/tstable/tstable/odata"
)

// The CSV form of entities, both directions: the header export writes is
// the header import reads (PartitionKey,RowKey,Timestamp,Name,Age@Edm.Int32,…).
// A column is typed by its header, Name@Edm.X (the "Edm." may be left
// out); an untyped column is Edm.String — there is no guessing; an empty
// cell is an absent property, so an empty String does not survive CSV
// (the Writer counts those it writes, for a note). A property of several
// types has a column per type, and a row gives it in one of them.

// Column is a typed CSV column: a property name and its Edm type.
type Column struct {
	Name string
	Type odata.EdmType
}

// Columns returns the typed columns of ents in first-seen order: a
// property that appears with two types gets two columns.
func Columns(ents []*odata.Entity) []Column {
	var c ColumnSet
	for _, e := range ents {
		c.Add(e)
	}
	return c.Columns()
}

// ColumnSet collects typed columns entity by entity.
type ColumnSet struct {
	cols []Column
	seen map[Column]bool
}

// Add adds the columns of e not seen yet.
func (c *ColumnSet) Add(e *odata.Entity) {
	if c.seen == nil {
		c.seen = map[Column]bool{}
	}
	for _, p := range e.Properties {
		k := Column{p.Name, p.Value.Type}
		if !c.seen[k] {
			c.seen[k] = true
			c.cols = append(c.cols, k)
		}
	}
}

// Columns is the columns collected, in first-seen order.
func (c *ColumnSet) Columns() []Column { return c.cols }

// header is the header row: PartitionKey, RowKey, Timestamp, then the
// columns, typed "Name@Edm.X" unless they are strings. A property that
// has two types has a column for each (Age@Edm.Int32 and Age), which
// import reads back as the one property, of the type of the column that
// holds a value.
func header(cols []Column) []string {
	h := []string{odata.PartitionKey, odata.RowKey, odata.Timestamp}
	for _, c := range cols {
		h = append(h, typedName(c.Name, c.Type))
	}
	return h
}

// typedName is a column's header: Name for a String, else Name@Edm.X.
func typedName(name string, t odata.EdmType) string {
	if t == odata.EdmString {
		return name
	}
	return name + "@" + t.String()
}

// Writer writes entity rows under a fixed header.
type Writer struct {
	w    *csv.Writer
	cols []Column
	row  []string
	buf  []byte
	// empty counts the entities with an empty String written, which CSV
	// cannot tell from an absent property; emptyAt is the first.
	empty   int64
	emptyAt string
}

// NewWriter writes the header of cols to w and returns the writer of the
// rows under it.
func NewWriter(w io.Writer, cols []Column) (*Writer, error) {
	cw := &Writer{w: csv.NewWriter(w), cols: cols}
	return cw, cw.w.Write(header(cols))
}

// Write writes one entity's row: its keys, its Timestamp (empty when it
// has none) and a cell for each column, empty where it lacks the property.
func (cw *Writer) Write(e *odata.Entity) error {
	cw.row = cw.row[:0]
	ts := ""
	if !e.Timestamp.IsZero() {
		ts = odata.FormatDateTime(e.Timestamp)
	}
	cw.row = append(cw.row, e.PartitionKey, e.RowKey, ts)
	emptied := false
	for _, c := range cw.cols {
		s := ""
		for _, p := range e.Properties {
			if p.Name == c.Name && p.Value.Type == c.Type {
				cw.buf = odata.AppendValueText(cw.buf[:0], p.Value)
				s = string(cw.buf)
				if s == "" && !emptied {
					emptied = true
					cw.noteEmpty(e, p.Name)
				}
				break
			}
		}
		cw.row = append(cw.row, s)
	}
	return cw.w.Write(cw.row)
}

// noteEmpty counts an entity with an empty String property.
func (cw *Writer) noteEmpty(e *odata.Entity, name string) {
	cw.empty++
	if cw.emptyAt == "" {
		cw.emptyAt = fmt.Sprintf("%s in (%s, %s)", name, odata.Quote(e.PartitionKey), odata.Quote(e.RowKey))
	}
}

// EmptyNote says, when the rows held empty Strings, that import will read
// them as absent properties; "" when there were none.
func (cw *Writer) EmptyNote() string {
	if cw.empty == 0 {
		return ""
	}
	verb := " hold"
	if cw.empty == 1 {
		verb = " holds"
	}
	entities := fmt.Sprintf("%d entities", cw.empty)
	if cw.empty == 1 {
		entities = "1 entity"
	}
	return fmt.Sprintf("%s%s an empty String (%s), which CSV writes as it writes an absent property: import leaves it out (-o jsonl keeps it)", entities, verb, cw.emptyAt)
}

// Flush writes what is buffered and reports any error of the writes.
func (cw *Writer) Flush() error {
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
// row passes MaxRowBytes: the csv reader would hold a row of any length,
// and a quote left open takes in the rest of the input.
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
	if c.row > MaxRowBytes {
		c.pending, c.err = nil, &rowTooLong{from: c.from, line: c.lines + 1, final: true}
		return 0, c.err
	}
	if part[n-1] == '\n' {
		c.lines++
	}
	return n, nil
}

// csvSource reads a header row and then one entity per row. A row longer
// than MaxRowBytes stops it (*rowTooLong), even with keepGoing: where the
// next row begins is not known without reading the whole of it.
type csvSource struct {
	cr     *csv.Reader
	capped *rowCapReader
	header []string       // as written, for messages
	cols   []Column       // by field; a zero Type is an ignored column
	pk, rk int            // the key columns
	named  map[string]int // columns per property name (one per type it has)
	faults *rowFaults
	lines  *lineIndex
	n      int64 // entities delivered
}

// newCSVSource reads the header of r; name is the input's name in
// messages. An input with no header at all yields no entities.
func newCSVSource(r io.Reader, name string, lines *lineIndex, faults *rowFaults) (*csvSource, error) {
	capped := newRowCapReader(r)
	cr := csv.NewReader(capped)
	cr.ReuseRecord = true
	cr.FieldsPerRecord = -1
	s := &csvSource{cr: cr, capped: capped, faults: faults, lines: lines}
	header, err := cr.Read()
	capped.nextRow()
	var (
		long *rowTooLong
		pe   *csv.ParseError
	)
	switch {
	case errors.Is(err, io.EOF):
		return s, nil
	case errors.As(err, &long):
		return nil, odata.Errorf(odata.CodeRequestBodyTooLarge, "%s: the CSV header: %v", name, err)
	case errors.As(err, &pe):
		return nil, odata.Errorf(odata.CodeInvalidInput, "%s: the CSV header: %v", name, err)
	case err != nil:
		return nil, backend.FileError(err, "cannot read %s", name)
	}
	s.header = append([]string(nil), header...) // the reader reuses its record
	if err := s.typeColumns(name); err != nil {
		return nil, err
	}
	return s, nil
}

// typeColumns reads the header's columns: the keys, the ignored system
// columns, and each property with its type.
func (s *csvSource) typeColumns(name string) error {
	s.cols = make([]Column, len(s.header))
	s.pk, s.rk = -1, -1
	s.named = map[string]int{}
	seen := map[Column]bool{}
	for i, h := range s.header {
		h = strings.TrimSpace(strings.TrimPrefix(h, "\ufeff"))
		nm, typ, typed := strings.Cut(h, "@")
		switch nm {
		case odata.PartitionKey:
			s.pk = i
			continue
		case odata.RowKey:
			s.rk = i
			continue
		case odata.Timestamp, odata.ETagName:
			continue
		}
		t := odata.EdmString
		if typed {
			var ok bool
			if t, ok = odata.ParseEdmType(typ); !ok {
				return odata.Errorf(odata.CodeInvalidInput, "%s: CSV header column %d %q: unknown type %q; expected Edm.String, Edm.Int32, Edm.Int64, Edm.Double, Edm.Boolean, Edm.DateTime, Edm.Guid or Edm.Binary", name, i+1, h, typ)
			}
		}
		if err := odata.ValidatePropertyName(nm); err != nil {
			return odata.Errorf(odata.CodeInvalidInput, "%s: CSV header column %d %q: %s", name, i+1, h, err.(*odata.Error).Message)
		}
		if seen[Column{nm, t}] {
			return odata.Errorf(odata.CodeInvalidInput, "%s: CSV header column %d names %s@%s again; each property has one column per type", name, i+1, nm, t)
		}
		seen[Column{nm, t}] = true
		s.named[nm]++
		s.cols[i] = Column{Name: nm, Type: t}
	}
	if s.pk < 0 || s.rk < 0 {
		return odata.Errorf(odata.CodeInvalidInput, "%s: the CSV header needs PartitionKey and RowKey columns; it has %s", name, strings.Join(s.header, ","))
	}
	return nil
}

// next is the source's backend.EntitySource: the next row's entity, io.EOF
// at the end, or the error that stops the import.
func (s *csvSource) next() (*odata.Entity, error) {
	if s.header == nil {
		return nil, io.EOF // no header: no rows
	}
	for {
		rec, err := s.cr.Read()
		s.capped.nextRow()
		if errors.Is(err, io.EOF) {
			return nil, io.EOF
		}
		var long *rowTooLong
		if errors.As(err, &long) {
			return nil, s.faults.stop(long.from, long)
		}
		if err != nil {
			if err := s.unreadable(err); err != nil {
				return nil, err
			}
			continue
		}
		line, _ := s.cr.FieldPos(0)
		e, err := s.entity(rec)
		if err != nil {
			if err := s.faults.bad(int64(line), err); err != nil {
				return nil, err
			}
			continue
		}
		s.lines.record(s.n, int64(line))
		s.n++
		return e, nil
	}
}

// unreadable handles a row the CSV reader could not read: a malformed row
// is a bad row; another error (reading the input) stops the import as it
// is.
func (s *csvSource) unreadable(err error) error {
	var pe *csv.ParseError
	if !errors.As(err, &pe) {
		return err // the input cannot be read
	}
	return s.faults.bad(int64(pe.StartLine), pe.Err)
}

// entity types one row by its columns.
func (s *csvSource) entity(rec []string) (*odata.Entity, error) {
	if len(rec) != len(s.cols) {
		return nil, fmt.Errorf("the row has %d fields; the header has %d", len(rec), len(s.cols))
	}
	for i, cell := range rec {
		if !utf8.ValidString(cell) {
			return nil, fmt.Errorf("column %d (%s) is not valid UTF-8 at byte %d: save the file as UTF-8", i+1, s.header[i], badUTF8At(cell))
		}
	}
	e := &odata.Entity{PartitionKey: rec[s.pk], RowKey: rec[s.rk], Properties: make([]odata.Property, 0, len(s.cols))}
	for i, cell := range rec {
		c := s.cols[i]
		if c.Type == 0 || cell == "" {
			continue
		}
		v, err := odata.ParseValueText(c.Name, c.Type, cell)
		if err != nil {
			return nil, err
		}
		if s.named[c.Name] > 1 {
			if prev, ok := e.Get(c.Name); ok {
				return nil, fmt.Errorf("%s has a value in two columns (%s and %s): an entity holds a property once, of one type", c.Name, typedName(c.Name, prev.Type), typedName(c.Name, c.Type))
			}
		}
		e.Properties = append(e.Properties, odata.Property{Name: c.Name, Value: v})
	}
	return e, nil
}
