package values

import (
	"math"
	"strings"
	"testing"

	"github.com/tstable/tstable/odata"
)

// FuzzRawRecord: what a filter reads of a stored value (RawRecord, which
// steps over the properties it is not asked for) is what decoding the
// whole entity gives, property by property, for names and strings of any
// length; and a value that does not decode never makes it panic.
func FuzzRawRecord(f *testing.F) {
	long := strings.Repeat("é", 100) // 200 bytes: a length of two bytes
	g, _ := odata.Guid("a455c695-df98-5678-aaaa-81d3367e5a34")
	for _, props := range [][]odata.Property{
		nil,
		{prop("LastName", odata.String("Cao")), prop("Age", odata.Int32(71)), prop("Big", odata.Int64(math.MaxInt64)),
			prop("Score", odata.Double(2.5)), prop("NaN", odata.Double(math.NaN())), prop("Yes", odata.Bool(true)),
			prop("Born", odata.DateTimeTicks(odata.MaxDateTimeTicks)), prop("Id", g), prop("Blob", odata.Binary([]byte("\x00\xffab")))},
		{prop(long, odata.String(long)), prop("Name", odata.String(long+long)), prop("Age", odata.Int32(-1))},
		{prop("Bad", odata.String("\xff\xfe")), prop("Bad", odata.Int32(2))},
	} {
		f.Add([]byte("Sales\x0000010"), EncodeEntity(nil, 638000000000000000, props))
	}
	f.Add([]byte("a\x00b"), []byte{1, 0, 0, 0, 0, 0, 0, 0, 1, 1, 'A', 99})
	f.Add([]byte("a\x00b"), []byte{1, 0, 0, 0, 0, 0, 0, 0, 1, 0x80})
	names := []string{"LastName", "Age", "Big", "Score", "NaN", "Yes", "Born", "Id", "Blob", "Name", "Bad", long, "Missing", "PartitionKey", "RowKey", "Timestamp"}
	f.Fuzz(func(t *testing.T, key, val []byte) {
		rec := &RawRecord{Key: key, Val: val}
		e, err := DecodeEntity(key, val)
		for _, n := range names {
			got, ok := rec.Get(n)
			if err != nil || (n == odata.Timestamp && e.Timestamp.IsZero()) {
				continue // no panic is all that is asked; a stored value always has a time
			}
			want, has := e.Get(n)
			if ok != has || !sameValue(got, want) {
				t.Fatalf("%s: the filter reads %+v (%v), the decoded entity has %+v (%v)", n, got, ok, want, has)
			}
		}
	})
}
