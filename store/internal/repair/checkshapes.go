package repair

import (
	"bytes"
	"fmt"
	"slices"

	"io"
	"strings"

	"github.com/tstable/tstable/odata"
	"github.com/tstable/tstable/store/internal/boltfile"
	"github.com/tstable/tstable/store/internal/dictcopy"
	"github.com/tstable/tstable/store/internal/values"
)

// What Check and Recover read of the tables' dictionaries (format 2; see
// values/shapes.go), page by page as they read the rest.

// readDictionaries reads the bucket of the tables' dictionaries into
// sv.shapes, each as far as it reads: shapes 1 to n without a gap. A
// dictionary that does not read whole is a problem of its own (the
// entities that name the shapes it lacks are each one too, and those lose
// data).
func (w *walker) readDictionaries(t entry, sv *survey) {
	root, _, inl, err := boltfile.InlinePage(t.Value)
	if err != nil {
		w.problem(Problem{Page: int64(t.page), What: "the tables' dictionaries cannot be read: " + err.Error()})
		return
	}
	lost := func(page uint64, lo, hi []byte, why string) {
		w.problem(Problem{Page: int64(page), What: why + "; shapes of the tables' dictionaries there cannot be read"})
	}
	d := &dictReader{}
	for _, e := range w.collect(root, inl, t.page, lost) {
		if what := d.add(e.Elem); what != "" {
			w.problem(Problem{Page: int64(e.page), What: what})
		}
	}
	for inc, s := range d.sets() {
		sv.shapes[inc] = s
	}
}

// dictReader gathers the entries of the tables' dictionaries, in key
// order, into shapes.
type dictReader struct {
	lists  map[uint64][]*values.Shape
	broken map[uint64]bool // a dictionary with a gap or an unreadable shape: read no further
}

// add takes one entry, and says what is wrong with it, if anything.
func (d *dictReader) add(e boltfile.Elem) string {
	if d.lists == nil {
		d.lists, d.broken = map[uint64][]*values.Shape{}, map[uint64]bool{}
	}
	if e.Bucket && bytes.Equal(e.Key, values.ShapesPin) {
		return ""
	}
	if e.Bucket || len(e.Key) != 12 {
		return fmt.Sprintf("the tables' dictionaries hold %q, which tstable never writes", printable(e.Key))
	}
	inc, id := values.IncarnationOf(e.Key)
	if d.broken[inc] {
		return ""
	}
	if want := uint64(len(d.lists[inc])) + 1; id != want {
		d.broken[inc] = true
		return fmt.Sprintf("the dictionary %016x lacks shape %d; the entities that name a shape it lacks cannot be read", inc, want)
	}
	sh, err := values.ParseShape(e.Value)
	if err != nil {
		d.broken[inc] = true
		return fmt.Sprintf("shape %d of the dictionary %016x is unreadable (%s); the entities that name it or a later one cannot be read", id, inc, err)
	}
	d.lists[inc] = append(d.lists[inc], sh)
	return ""
}

// sets is the dictionaries read, by incarnation.
func (d *dictReader) sets() map[uint64]*values.ShapeSet {
	out := map[uint64]*values.ShapeSet{}
	for inc, l := range d.lists {
		out[inc] = values.EmptyShapes.With(l...)
	}
	return out
}

// guessFormat decides the format of a file whose own records do not say
// it (they are lost): a table that has an incarnation is of format 2.
func (sv *survey) guessFormat() {
	if sv.formatRead {
		return
	}
	for _, t := range sv.tables {
		if t.inc != 0 {
			sv.format, sv.formatRead = 2, true
		}
	}
}

// orphanDictionaries reports the dictionaries of tables the file does not
// hold, which tstable never leaves.
func (w *walker) orphanDictionaries(sv *survey) {
	var orphans []uint64
	for inc := range sv.shapes {
		if !slices.Contains(sv.staged, inc) && !slices.ContainsFunc(sv.tables, func(t fileTable) bool { return t.inc == inc }) {
			orphans = append(orphans, inc)
		}
	}
	slices.Sort(orphans)
	for _, inc := range orphans {
		w.problem(Problem{Page: -1, What: fmt.Sprintf("the file holds the dictionary %016x of a table it does not hold", inc)})
	}
}

// readCopies reads the copies of the tables and their dictionaries that
// the pages of the header hold (format 3; the store's spare.go), those that read.
func (w *walker) readCopies(f io.ReaderAt, size int64) {
	ps := w.H.PageSize
	if !boltfile.PossiblePageSize(ps) {
		ps = boltfile.GuessPageSize(f, size)
	}
	for i := range 2 {
		if c, err := dictcopy.Parse(boltfile.Spare(f, size, ps, i)); err == nil {
			w.copies = append(w.copies, c)
		}
	}
}

// copiedShapes is the dictionary of inc as copy c holds it: shapes 1 to
// n, up to the first one it lacks.
func copiedShapes(c dictcopy.Copy, inc uint64) []*values.Shape {
	defs := map[uint64]string{}
	for _, s := range c.Shapes {
		if s.Inc == inc {
			defs[s.ID] = s.Def
		}
	}
	var list []*values.Shape
	for id := uint64(1); ; id++ {
		def, ok := defs[id]
		if !ok {
			return list
		}
		sh, err := values.ParseShape([]byte(def))
		if err != nil {
			return list
		}
		list = append(list, sh)
	}
}

// dictionariesFromCopies completes the dictionaries the file's tree gave
// (sv.shapes) with the copies in the header: a dictionary whose pages
// are lost, or that reads only in part, is read from a copy that holds
// more of it and agrees with what was read. The copies say the format
// too, when the file's records cannot.
func (w *walker) dictionariesFromCopies(sv *survey) {
	for _, c := range w.copies {
		if !sv.formatRead && c.Format >= 3 && c.Format <= values.FormatVersion {
			sv.format, sv.formatRead = c.Format, true
		}
		incs := map[uint64]bool{}
		for _, s := range c.Shapes {
			incs[s.Inc] = true
		}
		for inc := range incs {
			list := copiedShapes(c, inc)
			have := sv.shapes[inc]
			if have != nil && len(have.List) >= len(list) {
				continue
			}
			if have != nil && !slices.EqualFunc(have.List, list[:len(have.List)], func(a, b *values.Shape) bool { return a.Def == b.Def }) {
				continue
			}
			sv.shapes[inc] = values.EmptyShapes.With(list...)
		}
	}
}

// namesFromCopies adds to the catalogue read the tables' names as
// created that the copies in the header hold and it lacks (its page is
// lost).
func (w *walker) namesFromCopies(catalogue map[string]string) {
	w.copiedNames = map[string]string{}
	for _, c := range w.copies {
		for _, t := range c.Tables {
			lower := strings.ToLower(t.Name)
			if _, ok := catalogue[lower]; !ok && odata.ValidateTableName(t.Name) == nil {
				catalogue[lower], w.copiedNames[lower] = t.Name, t.Name
			}
		}
	}
}

// tablesFromCopies adds the tables the copies in the header name and
// the file's lists of tables (the newest, partly lost, and the one
// before) do not, as tables whose tree is lost: their entities can be
// found on pages no longer linked.
func (w *walker) tablesFromCopies(sv *survey) {
	for _, c := range w.copies {
		for _, t := range c.Tables {
			lower := strings.ToLower(t.Name)
			if odata.ValidateTableName(t.Name) != nil || slices.ContainsFunc(sv.tables, func(n fileTable) bool { return n.name == lower }) {
				continue
			}
			sv.tables = append(sv.tables, fileTable{name: lower, missing: true, gapAt: -1, inc: t.Inc})
		}
	}
}
