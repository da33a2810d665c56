package store

import (
	"bytes"
	"encoding/binary"
	"fmt"
	"slices"

	"github.com/tstable/tstable/store/internal/boltfile"
)

// What Check and Recover read of the tables' dictionaries (format 2; see
// shapes.go), page by page as they read the rest.

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
	lists  map[uint64][]*shape
	broken map[uint64]bool // a dictionary with a gap or an unreadable shape: read no further
}

// add takes one entry, and says what is wrong with it, if anything.
func (d *dictReader) add(e boltfile.Elem) string {
	if d.lists == nil {
		d.lists, d.broken = map[uint64][]*shape{}, map[uint64]bool{}
	}
	if e.Bucket && bytes.Equal(e.Key, shapesPin) {
		return ""
	}
	if e.Bucket || len(e.Key) != 12 {
		return fmt.Sprintf("the tables' dictionaries hold %q, which tstable never writes", printable(e.Key))
	}
	inc, id := binary.BigEndian.Uint64(e.Key), uint64(binary.BigEndian.Uint32(e.Key[8:]))
	if d.broken[inc] {
		return ""
	}
	if want := uint64(len(d.lists[inc])) + 1; id != want {
		d.broken[inc] = true
		return fmt.Sprintf("the dictionary %016x lacks shape %d; the entities that name a shape it lacks cannot be read", inc, want)
	}
	sh, err := parseShape(e.Value)
	if err != nil {
		d.broken[inc] = true
		return fmt.Sprintf("shape %d of the dictionary %016x is unreadable (%s); the entities that name it or a later one cannot be read", id, inc, err)
	}
	d.lists[inc] = append(d.lists[inc], sh)
	return ""
}

// sets is the dictionaries read, by incarnation.
func (d *dictReader) sets() map[uint64]*shapeSet {
	out := map[uint64]*shapeSet{}
	for inc, l := range d.lists {
		out[inc] = emptyShapes.with(l...)
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

// staticShapes is a dictionary read whole already, for a codec that reads
// no transaction (Check, Recover).
func staticShapes(inc uint64, s *shapeSet) *shapeView {
	v := &shapeView{inc: inc, full: true}
	v.set.Store(s)
	return v
}

// why says why a stored value of format 2 does not decode, when it names
// a shape the table's dictionary lacks.
func (c *tableCodec) why(val []byte) string {
	if !c.values2() {
		return ""
	}
	if _, id, _, err := head2(val); err == nil && id != 0 {
		if _, err := c.shapes.get(id); err != nil {
			return fmt.Sprintf(": it names shape %d, which the table's dictionary does not hold", id)
		}
	}
	return ""
}
