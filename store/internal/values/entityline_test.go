package values

import (
	"bytes"
	"math"
	"testing"
	"time"

	"github.com/tstable/tstable/odata"
)

// FuzzEntityLine: for any stored value, AppendEntityLine writes what
// decoding it into an entity, projecting it and writing that entity
// writes, or fails as DecodeEntity does, leaving its buffer as it was.
func FuzzEntityLine(f *testing.F) {
	g, _ := odata.Guid("a455c695-df98-5678-aaaa-81d3367e5a34")
	now := odata.TicksOf(time.Date(2026, 11, 23, 13, 29, 32, 168796700, time.UTC))
	for _, props := range [][]odata.Property{
		nil,
		{prop("Name", odata.String("O'Brien \"x\" \\ \n é 😀 \x7f \x00")), prop("Age", odata.Int32(-41)), prop("Big", odata.Int64(math.MaxInt64)),
			prop("Score", odata.Double(2.5)), prop("Whole", odata.Double(math.Copysign(0, -1))), prop("Exp", odata.Double(1e21)), prop("NaN", odata.Double(math.NaN())),
			prop("Yes", odata.Bool(true)), prop("Born", odata.DateTimeTicks(odata.MaxDateTimeTicks)), prop("Id", g), prop("Blob", odata.Binary([]byte("\x00\xffab")))},
		{prop("Bad", odata.String("\xff\xfe\xe2\x82")), prop("Bad", odata.Int32(2)), prop("T", odata.DateTimeTicks(-5))},
	} {
		for _, ticks := range []int64{0, now, 1, math.MaxInt64, odata.MinDateTimeTicks} {
			f.Add([]byte("Sales\x0000010"), EncodeEntity(nil, ticks, props), uint16(0))
			f.Add([]byte("p\"k\x00r\\k\xff"), EncodeEntity(nil, ticks, props), uint16(0x1ff))
		}
	}
	f.Add([]byte("nokeysplit"), []byte{1, 0, 0, 0, 0, 0, 0, 0, 1, 1, 'A', 99}, uint16(1))
	f.Add([]byte("a\x00b"), []byte{9}, uint16(0))
	names := []string{"Name", "Age", "Bad", "Timestamp", "PartitionKey", "Missing", "Score", "Blob", "RowKey"}
	f.Fuzz(func(t *testing.T, key, val []byte, mask uint16) {
		sel := selectionOf(names, mask)
		got, err := AppendEntityLine([]byte("prefix"), key, val, sel)
		e, derr := DecodeEntity(key, val)
		lineIsDecoded(t, got, err, e, derr, sel)
	})
}

// selectionOf is the $select a fuzzer's mask draws from names: nil for 0
// (no $select), else the names of the mask's bits, and each twice when
// its top bit is set (duplicates, as Project allows).
func selectionOf(names []string, mask uint16) []string {
	if mask == 0 {
		return nil
	}
	sel := []string{}
	for i, n := range names {
		if mask&(1<<i) != 0 {
			sel = append(sel, n)
		}
	}
	if mask&0x8000 != 0 {
		sel = append(sel, sel...)
	}
	return sel
}

// lineIsDecoded checks what a codec's appendLine wrote after "prefix" (got,
// err) against its decode of the same value (e, derr): the same failure
// and nothing written, or the decoded entity's JSON line as sel projects it.
func lineIsDecoded(t *testing.T, got []byte, err error, e *odata.Entity, derr error, sel []string) {
	t.Helper()
	if derr != nil {
		if err == nil || err.Error() != derr.Error() || string(got) != "prefix" {
			t.Fatalf("decode fails with %v; the line's writer gave %v and %q", derr, err, got)
		}
		return
	}
	if err != nil {
		t.Fatalf("decodes, but the line's writer fails: %v", err)
	}
	want := append(odata.AppendEntityJSON([]byte("prefix"), odata.Project(e, sel)), '\n')
	if !bytes.Equal(got, want) {
		t.Fatalf("select %q:\n got %s\nwant %s", sel, got, want)
	}
}
