package repair

import (
	"bytes"
	"encoding/binary"

	"strings"

	"github.com/tstable/tstable/odata"
	"github.com/tstable/tstable/store/internal/boltfile"
	"github.com/tstable/tstable/store/internal/dictcopy"
	"github.com/tstable/tstable/store/internal/values"
)

// What Recover gathers, from every page of a file of format 2, that the
// entities of pages no tree leads to need: the tables' dictionaries
// (values/shapes.go) and which incarnation each table had, and the file's format
// when the file's own records are lost. The dictionaries' entries each
// name their table's incarnation, so any page that holds some (a page of
// the bucket of dictionaries, or an older copy of the list of tables
// with that bucket inside it) gives them.

// noteRecords takes what a leaf page holds of the file's records: the
// entries of the tables' dictionaries (the page of the bucket, or the
// bucket inside an older list of tables), and the format named by an
// older copy of the file's own records.
func (ev *evidence) noteRecords(es []boltfile.Elem) {
	ev.noteValues(es)
	if dictionaryPage(es) {
		for _, e := range es {
			if !e.Bucket {
				ev.noteShape(e)
			}
		}
		return
	}
	ev.noteFormat(es)
	for _, e := range es {
		if !e.Bucket {
			continue
		}
		inner := inlineElems(e.Value)
		switch {
		case bytes.Equal(e.Key, values.ShapesBucket) && dictionaryPage(inner):
			for _, d := range inner {
				if !d.Bucket {
					ev.noteShape(d)
				}
			}
		case bytes.Equal(e.Key, values.MetaBucket):
			ev.noteFormat(inner)
		}
	}
}

// noteFormat takes the format from the entries of the file's own records
// (a copy of their page, or the page inside a list of tables), when es
// are those: the clock, the catalogue and the format.
func (ev *evidence) noteFormat(es []boltfile.Elem) {
	var format uint64
	clock, catalogue := false, false
	for _, e := range es {
		switch {
		case !e.Bucket && bytes.Equal(e.Key, values.FormatKey) && len(e.Value) == 8:
			format = binary.BigEndian.Uint64(e.Value)
		case !e.Bucket && bytes.Equal(e.Key, values.ClockKey) && len(e.Value) == 8:
			clock = true
		case e.Bucket && bytes.Equal(e.Key, values.CatalogueKey):
			catalogue = true
		}
	}
	if clock && catalogue && format >= 1 && format <= values.FormatVersion {
		ev.format = max(ev.format, format)
	}
}

// inlineElems are the entries of the page inside a bucket's value, when
// the bucket has no page of its own; nil otherwise.
func inlineElems(v []byte) []boltfile.Elem {
	root, h, b, err := boltfile.InlinePage(v)
	if err != nil || root != 0 {
		return nil
	}
	es, err := boltfile.ParseElems(h, b)
	if err != nil {
		return nil
	}
	return es
}

// dictionaryPage reports whether the entries are shapes of dictionaries
// (and the bucket that keeps them on pages of their own).
func dictionaryPage(es []boltfile.Elem) bool {
	shapes := 0
	for _, e := range es {
		if e.Bucket && bytes.Equal(e.Key, values.ShapesPin) {
			continue
		}
		shapes++
		if e.Bucket || len(e.Key) != 12 || binary.BigEndian.Uint32(e.Key[8:]) == 0 || binary.BigEndian.Uint32(e.Key[8:]) > values.MaxShapes {
			return false
		}
		if _, err := values.ParseShape(e.Value); err != nil {
			return false
		}
	}
	return shapes > 0
}

// noteShape records one shape; two definitions of one shape (a page
// written by a commit that failed, beside the one that took its place)
// leave it unknown.
func (ev *evidence) noteShape(e boltfile.Elem) {
	inc, id := values.IncarnationOf(e.Key)
	d := ev.dicts[inc]
	if d == nil {
		d = map[uint64]string{}
		ev.dicts[inc] = d
	}
	if old, ok := d[id]; ok && old != string(e.Value) {
		ev.clash[[2]uint64{inc, id}] = true
	}
	d[id] = string(e.Value)
}

// formatFound is the file's format as the pages tell it: the one a copy
// of the file's own records names, else 2 when the pages hold
// dictionaries or tables with incarnations, which only format 2 writes; 0
// when they do not tell.
func (ev *evidence) formatFound() uint64 {
	if ev.format != 0 {
		return ev.format
	}
	if len(ev.dicts) > 0 || len(ev.incs) > 0 {
		return 2
	}
	switch {
	case ev.pagesOf[2] > ev.pagesOf[1]:
		return 2
	case ev.pagesOf[1] > 0:
		return 1
	}
	return 0
}

// noteValues counts a page of entities by the format its first value
// reads in: format 1's values begin with the byte 1 and decode alone;
// format 2's begin with their Timestamp (whose first byte is 0x08 from
// the year 1827 to 2055) and a shape.
func (ev *evidence) noteValues(es []boltfile.Elem) {
	if len(es) == 0 || es[0].Bucket || bytes.IndexByte(es[0].Key, 0) < 0 {
		return
	}
	v := es[0].Value
	if _, err := values.DecodeEntity(es[0].Key, v); err == nil {
		ev.pagesOf[1]++
	} else if _, _, _, err := values.Head2(v); err == nil && v[0] != values.FormatV1 {
		ev.pagesOf[2]++
	}
}

// noteIncarnation records an incarnation a list of tables gives a table.
func (ev *evidence) noteIncarnation(lower string, inc uint64) {
	if inc == 0 {
		return
	}
	for _, i := range ev.incs[lower] {
		if i == inc {
			return
		}
	}
	ev.incs[lower] = append(ev.incs[lower], inc)
}

// shapes is the dictionary of inc as the pages found hold it: shapes 1
// to the highest number found, each one missing or known twice a gap (a
// nil in the list, which the codec reads as a shape it lacks: see
// values.ShapeView.get), so that the entities naming the shapes found after a
// lost page of the dictionary are read too; nil when none. Only Recover
// reads a dictionary with gaps.
func (ev *evidence) shapes(inc uint64) *values.ShapeSet {
	d := ev.dicts[inc]
	if d == nil {
		return nil
	}
	var list []*values.Shape
	for id := range d {
		if int(id) > len(list) {
			list = append(list, make([]*values.Shape, int(id)-len(list))...)
		}
		if ev.clash[[2]uint64{inc, id}] {
			continue
		}
		if sh, err := values.ParseShape([]byte(d[id])); err == nil {
			list[id-1] = sh
		}
	}
	return values.GappedShapes(list)
}

// noteCopies takes what the copies in the header's pages hold (format 3;
// the store's spare.go): the tables with their incarnations and names, the shapes
// of their dictionaries and the format.
func (ev *evidence) noteCopies(cs []dictcopy.Copy) {
	for _, c := range cs {
		if c.Format >= 3 && c.Format <= values.FormatVersion {
			ev.format = max(ev.format, c.Format)
		}
		for _, t := range c.Tables {
			lower := strings.ToLower(t.Name)
			ev.noteIncarnation(lower, t.Inc)
			if _, ok := ev.names[lower]; !ok && odata.ValidateTableName(t.Name) == nil {
				ev.names[lower] = t.Name
			}
		}
		for _, s := range c.Shapes {
			if s.ID > 0 && s.ID <= values.MaxShapes {
				ev.noteShape(boltfile.Elem{Key: values.ShapeKey(s.Inc, s.ID), Value: []byte(s.Def)})
			}
		}
	}
}

// readableBy narrows the tables a page of format 2 or 3 could belong to
// (homes, the last one's gap home) to the one whose dictionary reads
// every entity on it, when only one does: a value names a shape of its
// own table's dictionary, so the page's values tell its table unless two
// tables have shapes of the same types at those numbers.
func (pl *placement) readableBy(p unlinkedPage, homes []int, home *gap) ([]int, *gap) {
	if p.entities != nil || len(p.elems) == 0 {
		return homes, home
	}
	var fit []int
	for _, i := range homes {
		t := pl.sv.tables[i]
		for _, inc := range append([]uint64{t.inc}, pl.ev.incs[strings.ToLower(t.name)]...) {
			if s := pl.dictionary(inc); s != nil && readsAll(pl.w.l, inc, s, p.elems) {
				fit = append(fit, i)
				break
			}
		}
	}
	if len(fit) != 1 {
		return homes, home
	}
	for _, g := range pl.gaps[fit[0]] {
		if g.holds(p.lo, p.hi) {
			return fit, g
		}
	}
	return homes, home
}

// readsAll reports whether the dictionary s of inc decodes every entity
// of es.
func readsAll(l values.Layout, inc uint64, s *values.ShapeSet, es []boltfile.Elem) bool {
	c := &values.Codec{L: l, Shapes: values.StaticShapes(inc, s)}
	for _, e := range es {
		if _, err := c.Decode(e.Key, e.Value); err != nil {
			return false
		}
	}
	return true
}
