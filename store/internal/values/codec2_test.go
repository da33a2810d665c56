package values

import (
	"bytes"
	"fmt"
	"math"
	"testing"
	"time"

	"github.com/tstable/tstable/odata"
)

// fuzzShapes is the dictionary the fuzz targets of format 2 read values
// with: shape 1 the properties of fuzzProps, shape 2 one string, shape 3
// every type once.
func fuzzShapes() *ShapeView {
	var list []*Shape
	for _, props := range [][]odata.Property{fuzzProps(), {prop("Name", odata.String(""))}, {
		prop("S", odata.String("")), prop("I", odata.Int32(0)), prop("L", odata.Int64(0)), prop("D", odata.Double(0)),
		prop("B", odata.Bool(false)), prop("T", odata.DateTimeTicks(0)), prop("G", odata.Value{Type: odata.EdmGuid}), prop("X", odata.Binary(nil)),
	}} {
		sh, err := ParseShape(AppendShapeDef(nil, props))
		if err != nil {
			panic(err)
		}
		list = append(list, sh)
	}
	return StaticShapes(1, EmptyShapes.With(list...))
}

func fuzzProps() []odata.Property {
	g, _ := odata.Guid("a455c695-df98-5678-aaaa-81d3367e5a34")
	return []odata.Property{prop("Name", odata.String("O'Brien \"x\" \\ \n é 😀 \x7f \x00")), prop("Age", odata.Int32(-41)), prop("Big", odata.Int64(math.MaxInt64)),
		prop("Score", odata.Double(2.5)), prop("Whole", odata.Double(math.Copysign(0, -1))), prop("NaN", odata.Double(math.NaN())),
		prop("Yes", odata.Bool(true)), prop("Born", odata.DateTimeTicks(odata.MaxDateTimeTicks)), prop("Id", g), prop("Blob", odata.Binary([]byte("\x00\xffab"))),
		prop("Min", odata.Int32(math.MinInt32)), prop("MinL", odata.Int64(math.MinInt64))}
}

// A value of format 2 decodes to what was encoded, by shape and with the
// names inline, and a filter reads each property alone.
func TestValue2RoundTrip(t *testing.T) {
	shapes := fuzzShapes()
	c := &Codec{L: 2, Shapes: shapes}
	props := fuzzProps()
	now := odata.TicksOf(time.Now())
	for _, id := range []uint64{0, 1} {
		val, err := AppendValue2(nil, now, id, props)
		if err != nil {
			t.Fatal(err)
		}
		if id == 1 && bytes.Contains(val, []byte("Score")) {
			t.Fatal("a value of a shape holds its names")
		}
		key := Layout(2).Key("p\uFFFD", "😀")
		e, err := c.Decode(key, val)
		if err != nil {
			t.Fatal(err)
		}
		if e.PartitionKey != "p\uFFFD" || e.RowKey != "😀" || odata.TicksOf(e.Timestamp) != now || len(e.Properties) != len(props) {
			t.Fatalf("shape %d: %+v", id, e)
		}
		r := &RawRecord{Key: key, Val: val, C: c}
		for i, p := range props {
			if e.Properties[i].Name != p.Name || !sameValue(e.Properties[i].Value, p.Value) {
				t.Fatalf("shape %d: %+v, want %+v", id, e.Properties[i], p)
			}
			if v, ok := r.Get(p.Name); !ok || !sameValue(v, p.Value) {
				t.Fatalf("shape %d: Get(%s) = %+v %v", id, p.Name, v, ok)
			}
		}
		if v, ok := r.Get("RowKey"); !ok || v.Str != "😀" {
			t.Fatalf("Get(RowKey) = %+v", v)
		}
		if _, ok := r.Get("Missing"); ok {
			t.Fatal("Get of a missing property")
		}
	}
	small, _ := AppendValue2(nil, now, 1, props)
	if big := EncodeEntity(nil, now, props); len(small)*10 > len(big)*6 {
		t.Fatalf("a value of a shape is %d bytes, of format 1 %d", len(small), len(big))
	}
}

// FuzzEntityLine2: for any stored value of format 2 (with fuzzShapes as
// its table's dictionary), the JSON line written from it is what
// decoding it, projecting it and writing that entity writes, or it fails
// as decoding does, leaving its buffer as it was; a filter's read of any
// property agrees with the decoded entity.
func FuzzEntityLine2(f *testing.F) {
	now := odata.TicksOf(time.Date(2026, 11, 23, 13, 29, 32, 168796700, time.UTC))
	for _, id := range []uint64{0, 1} {
		for _, ticks := range []int64{0, now, math.MaxInt64} {
			v, _ := AppendValue2(nil, ticks, id, fuzzProps())
			f.Add([]byte("Sales\x0000010"), v, uint16(0))
			f.Add([]byte("p\xf5\x80\x80\x00r\\k"), v, uint16(0x1ff))
		}
	}
	v, _ := AppendValue2(nil, now, 2, []odata.Property{prop("Name", odata.String("x"))})
	f.Add([]byte("a\x00b"), v, uint16(1))
	f.Add([]byte("a\x00b"), []byte{0, 0, 0, 0, 0, 0, 0, 0, 9}, uint16(0))
	names := []string{"Name", "Age", "S", "Timestamp", "PartitionKey", "Missing", "Score", "Id", "RowKey", "G", "I"}
	shapes := fuzzShapes()
	f.Fuzz(func(t *testing.T, key, val []byte, mask uint16) {
		sel := selectionOf(names, mask)
		c := &Codec{L: 2, Shapes: shapes}
		r := &RawRecord{}
		got, err := c.AppendLine([]byte("prefix"), key, val, sel, r)
		e, derr := c.Decode(key, val)
		lineIsDecoded(t, got, err, e, derr, sel)
		if derr != nil {
			return
		}
		rec := &RawRecord{Key: key, Val: val, C: c}
		for _, n := range names {
			if n == odata.Timestamp && e.Timestamp.IsZero() {
				continue // a value's ticks 0: no Timestamp for the entity, ticks 0 for a filter (as in format 1)
			}
			gv, gok := rec.Get(n)
			wv, wok := e.Get(n)
			if gok != wok || gok && !sameValue(gv, wv) {
				t.Fatalf("Get(%s) = %+v %v; decoded %+v %v", n, gv, gok, wv, wok)
			}
		}
	})
}

// FuzzShapeDef: a definition reads as shapes are written, and what reads
// is written back the same.
func FuzzShapeDef(f *testing.F) {
	f.Add(AppendShapeDef(nil, fuzzProps()))
	f.Add([]byte{1, 0})
	f.Add([]byte{9, 1, 'a'})
	f.Fuzz(func(t *testing.T, def []byte) {
		s, err := ParseShape(def)
		if err != nil {
			return
		}
		var props []odata.Property
		for i, n := range s.Names {
			props = append(props, odata.Property{Name: n, Value: odata.Value{Type: s.Types[i]}})
		}
		if back := AppendShapeDef(nil, props); !bytes.Equal(back, def) {
			t.Fatalf("%x reads as %v and writes back as %x", def, s.Names, back)
		}
	})
}

// FuzzFromRecord: a load's record (format 1's encoding) becomes a value
// of format 2 that decodes to the same entity.
func FuzzFromRecord(f *testing.F) {
	f.Add(EncodeEntity(nil, 5, fuzzProps()), int64(7))
	f.Add(EncodeEntity(nil, 0, nil), int64(1))
	f.Add([]byte{1, 0, 0, 0, 0, 0, 0, 0, 0, 1, 'A', 5, 9}, int64(1))
	shapes := fuzzShapes()
	f.Fuzz(func(t *testing.T, rec []byte, ticks int64) {
		c := &Codec{L: 2, Shapes: shapes}
		key := []byte("p\x00r")
		want, err := DecodeRecord(c.L, key, rec)
		val, ferr := c.FromRecord(nil, key, rec, ticks)
		if err != nil {
			if ferr == nil {
				t.Fatalf("a record that does not decode (%v) was stored as %x", err, val)
			}
			return
		}
		if ferr != nil {
			if odata.ValidateEntity(want) != nil {
				return // a value validation refuses before any write (a Guid not in canonical form)
			}
			t.Fatalf("a sound record %+v could not be stored: %v", want, ferr)
		}
		got, err := c.Decode(key, val)
		if err != nil {
			t.Fatalf("%x stored as %x, which does not decode: %v", rec, val, err)
		}
		if odata.TicksOf(got.Timestamp) != ticks || len(got.Properties) != len(want.Properties) {
			t.Fatalf("%+v, want %+v at %d", got, want, ticks)
		}
		for i, p := range want.Properties {
			if got.Properties[i].Name != p.Name || !sameValue(got.Properties[i].Value, p.Value) {
				t.Fatalf("property %d: %+v, want %+v", i, got.Properties[i], p)
			}
		}
	})
}

// BenchmarkFilterMatch is a filter of two conditions read from one stored
// narrow row, in each format: what a filtered scan pays for each entity.
func BenchmarkFilterMatch(b *testing.B) {
	e := narrowRow()
	f, err := odata.ParseFilter("LastName eq 'Cao' and Age gt 70")
	if err != nil {
		b.Fatal(err)
	}
	for _, s := range storedInEachFormat(e, 1) {
		b.Run(s.name, func(b *testing.B) {
			r := &RawRecord{Key: s.key, Val: s.val, C: s.c}
			for b.Loop() {
				f.Match(r)
			}
		})
	}
}

// stored is an entity as one format stores it, for a benchmark of that
// format.
type stored struct {
	name     string // "format 1", "format 2"
	c        *Codec
	key, val []byte
}

// storedInEachFormat is e stored with the given ticks in format 1 and in
// format 2 (its properties as shape 1).
func storedInEachFormat(e *odata.Entity, ticks int64) []stored {
	shapes := StaticShapes(1, EmptyShapes.With(must(ParseShape(AppendShapeDef(nil, e.Properties)))))
	var out []stored
	for _, v := range []uint64{1, 2} {
		c := &Codec{L: Layout(v), Shapes: shapes}
		val := EncodeEntity(nil, ticks, e.Properties)
		if v == 2 {
			val = must(AppendValue2(nil, ticks, 1, e.Properties))
		}
		out = append(out, stored{fmt.Sprintf("format %d", v), c, c.L.Key(e.PartitionKey, e.RowKey), val})
	}
	return out
}

func must[T any](v T, err error) T {
	if err != nil {
		panic(err)
	}
	return v
}

// BenchmarkEntityLine is one stored narrow row written as a JSON line, in
// each format: what an export pays for each entity.
func BenchmarkEntityLine(b *testing.B) {
	e := narrowRow()
	for _, s := range storedInEachFormat(e, 638_000_000_000_000_000) {
		b.Run(s.name, func(b *testing.B) {
			r := &RawRecord{}
			var dst []byte
			for b.Loop() {
				dst, _ = s.c.AppendLine(dst[:0], s.key, s.val, nil, r)
			}
		})
	}
}
