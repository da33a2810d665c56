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

// csvSource reads a header row and then one entity per row.
func csvSource(r io.Reader, name string, lines *lineIndex, keepGoing bool, reject func(int64, error), rowError func(int64, error) error) (store.EntitySource, error) {
	cr := csv.NewReader(bufio.NewReaderSize(r, 1<<20))
	cr.ReuseRecord = true
	cr.FieldsPerRecord = -1
	header, err := cr.Read()
	header = append([]string(nil), header...) // the reader reuses its record
	if err != nil {
		if errors.Is(err, io.EOF) {
			return func() (*odata.Entity, error) { return nil, io.EOF }, nil
		}
		return nil, odata.Errorf(odata.CodeInvalidInput, "%s: the CSV header: %v", name, err)
	}
	type col struct {
		name string
		typ  odata.EdmType // 0: ignored column
	}
	cols := make([]col, len(header))
	pk, rk := -1, -1
	seen := map[string]bool{}
	for i, h := range header {
		h = strings.TrimSpace(strings.TrimPrefix(h, "\ufeff"))
		nm, typ, typed := strings.Cut(h, "@")
		switch nm {
		case odata.PartitionKey:
			pk = i
			continue
		case odata.RowKey:
			rk = i
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
		cols[i] = col{name: nm, typ: t}
	}
	if pk < 0 || rk < 0 {
		return nil, odata.Errorf(odata.CodeInvalidInput, "%s: the CSV header needs PartitionKey and RowKey columns; it has %s", name, strings.Join(header, ","))
	}
	var n int64
	return func() (*odata.Entity, error) {
		for {
			rec, err := cr.Read()
			if errors.Is(err, io.EOF) {
				return nil, io.EOF
			}
			var line int
			if err == nil {
				line, _ = cr.FieldPos(0)
			} else {
				var pe *csv.ParseError
				if errors.As(err, &pe) {
					line = pe.StartLine
					err = pe.Err
				}
				if keepGoing && pe != nil {
					reject(int64(line), err)
					continue
				}
				return nil, rowError(int64(line), err)
			}
			e, rerr := func() (*odata.Entity, error) {
				if len(rec) != len(cols) {
					return nil, fmt.Errorf("the row has %d fields; the header has %d", len(rec), len(cols))
				}
				for i, cell := range rec {
					if !utf8.ValidString(cell) {
						return nil, fmt.Errorf("column %d (%s) is not valid UTF-8 at byte %d: save the file as UTF-8", i+1, header[i], badUTF8At(cell))
					}
				}
				e := &odata.Entity{PartitionKey: rec[pk], RowKey: rec[rk], Properties: make([]odata.Property, 0, len(cols))}
				for i, cell := range rec {
					c := cols[i]
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
			}()
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
