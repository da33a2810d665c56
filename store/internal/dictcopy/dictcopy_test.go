package dictcopy

import (
	"reflect"
	"testing"
)

func sample() Copy {
	return Copy{TxID: 42, Format: 3, Complete: true,
		Tables: []Table{{Inc: 7, Name: "People"}, {Inc: 9, Name: "Orders"}},
		Shapes: []Shape{{Inc: 7, ID: 1, Def: "\x00\x04Name"}, {Inc: 9, ID: 1, Def: "\x02\x03Age"}, {Inc: 7, ID: 2, Def: "\x00\x04City"}},
	}
}

// A copy reads back as written.
func TestRoundTrip(t *testing.T) {
	c := sample()
	b := Append([]byte("before"), c, 4000)
	got, err := Parse(b[len("before"):])
	if err != nil {
		t.Fatal(err)
	}
	if !reflect.DeepEqual(got, c) {
		t.Fatalf("got %+v, want %+v", got, c)
	}
}

// A copy given too little room keeps the tables and the shapes that fit,
// in order, and says it is not complete; one with no room at all is not
// written.
func TestRoomCutsShapes(t *testing.T) {
	c := sample()
	full := len(Append(nil, c, 4000))
	b := Append(nil, c, full-1)
	got, err := Parse(b)
	if err != nil {
		t.Fatal(err)
	}
	if got.Complete || len(got.Shapes) != 2 || len(got.Tables) != 2 || got.Shapes[1] != c.Shapes[1] {
		t.Fatalf("cut short: got %+v", got)
	}
	if b := Append(nil, c, 10); len(b) != 0 {
		t.Fatalf("no room: wrote %d bytes", len(b))
	}
}

// Bytes that are not a copy, or a damaged one, are refused.
func TestDamageRefused(t *testing.T) {
	if _, err := Parse(make([]byte, 100)); err != ErrNone {
		t.Fatalf("zeros: %v", err)
	}
	b := Append(nil, sample(), 4000)
	for i := len(Magic); i < len(b); i++ {
		d := append([]byte(nil), b...)
		d[i] ^= 0x40
		if c, err := Parse(d); err == nil {
			t.Fatalf("byte %d changed: read %+v", i, c)
		}
	}
	if _, err := Parse(b[:len(b)-1]); err == nil {
		t.Fatal("a copy cut short was read")
	}
}

// Parse never panics, and what it reads writes back to the same bytes.
func FuzzParse(f *testing.F) {
	f.Add(Append(nil, sample(), 4000))
	f.Add([]byte(Magic))
	f.Fuzz(func(t *testing.T, b []byte) {
		c, err := Parse(b)
		if err != nil {
			return
		}
		again, err := Parse(Append(nil, c, 1<<20))
		if err != nil {
			t.Fatalf("a copy read does not read again: %v", err)
		}
		if !reflect.DeepEqual(again.Tables, c.Tables) || !reflect.DeepEqual(again.Shapes, c.Shapes) {
			t.Fatalf("read %+v, then %+v", c, again)
		}
	})
}
