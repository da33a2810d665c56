package store

import (
	"bytes"
	"fmt"
	"slices"
	"strings"
	"testing"

	"github.com/tstable/tstable/backend"
	"github.com/tstable/tstable/odata"
	"github.com/tstable/tstable/store/internal/values"
)

// orderKeys are keys whose UTF-16 order differs from their code point
// order: the characters past U+FFFF (surrogates from U+D800) sort before
// U+E000 to U+FFFF in the service's order.
var orderKeys = []string{"a", "é", "\uD7FF", "𐀀", "😀", "😀z", "\U0010FFFF", "\uE000", "\uFFFD", "\uFFFDa", "ｶ"}

// inUTF16Order is keys sorted as the service sorts them.
func inUTF16Order(keys []string) []string {
	out := slices.Clone(keys)
	slices.SortFunc(out, odata.CompareUTF16)
	return out
}

// orderTable makes table Order in db: partition "p" holding orderKeys as
// RowKeys, each with Name = its RowKey, and a partition of each key.
func orderTable(t *testing.T, db *DB) {
	t.Helper()
	newTable(t, db, "Order")
	var es []*odata.Entity
	for _, k := range orderKeys {
		es = append(es, ent("p", k, prop("Name", odata.String(k))), ent(k, "1", prop("Name", odata.String(k))))
	}
	if _, err := db.Load(ctx, "Order", backend.OpInsert, sliceSource(es), backend.LoadOptions{}); err != nil {
		t.Fatal(err)
	}
}

// rowKeys runs a query on table Order and returns the RowKeys of partition
// p it delivers, in order, read as entities and as JSON lines.
func rowKeys(t *testing.T, db *DB, filter string, page int) []string {
	t.Helper()
	req := backend.QueryRequest{PageSize: page}
	if filter != "" {
		f, err := odata.ParseFilter(filter)
		if err != nil {
			t.Fatal(err)
		}
		req.Query.Filter = f
	}
	var got []string
	for {
		res, err := db.Query(ctx, "Order", req, func(e *odata.Entity) error {
			if e.PartitionKey == "p" {
				got = append(got, e.RowKey)
			}
			return nil
		})
		if err != nil {
			t.Fatal(err)
		}
		if res.Next == nil {
			break
		}
		req.Start = res.Next
	}
	var lines []string
	if page == 0 {
		if _, err := db.QueryJSONL(ctx, "Order", req, func(b []byte, n int) error {
			for _, l := range strings.Split(strings.TrimSuffix(string(b), "\n"), "\n") {
				if strings.Contains(l, `"PartitionKey":"p"`) {
					_, rk, _ := strings.Cut(l, `"RowKey":"`)
					rk, _, _ = strings.Cut(rk, `"`)
					lines = append(lines, rk)
				}
			}
			return nil
		}); err != nil {
			t.Fatal(err)
		}
		if fmt.Sprint(lines) != fmt.Sprint(got) {
			t.Fatalf("%s: as JSON lines %+q, as entities %+q", filter, lines, got)
		}
	}
	return got
}

// A table of a new file keeps its keys in the service's order, UTF-16
// code units, and every way of reading it follows: a scan (serial, by
// pages with continuations, parallel with a filter), the ranges a filter
// reads, and the filter's own comparisons of keys and of text.
func TestKeysInUTF16Order(t *testing.T) {
	db, _ := openTemp(t)
	orderTable(t, db)
	want := inUTF16Order(orderKeys)
	for _, page := range []int{0, 1, 3} {
		if got := rowKeys(t, db, "", page); fmt.Sprint(got) != fmt.Sprint(want) {
			t.Fatalf("pages of %d: %+q, want %+q", page, got, want)
		}
	}
	if got := rowKeys(t, db, "Name ne 'x'", 0); fmt.Sprint(got) != fmt.Sprint(want) {
		t.Fatalf("filtered scan: %+q, want %+q", got, want)
	}
	for _, tt := range []struct {
		filter string
		want   []string
	}{
		{"PartitionKey eq 'p' and RowKey gt '\uFFFD'", []string{"\uFFFDa"}},
		{"RowKey gt '\uFFFD'", []string{"\uFFFDa"}},
		{"Name gt '\uFFFD'", []string{"\uFFFDa"}},
		{"RowKey gt '😀z'", []string{"\U0010FFFF", "\uE000", "ｶ", "\uFFFD", "\uFFFDa"}},
		{"PartitionKey eq 'p' and RowKey lt '\uE000' and RowKey ge '😀'", []string{"😀", "😀z", "\U0010FFFF"}},
		{"Name lt '\uE000' and Name ge '😀'", []string{"😀", "😀z", "\U0010FFFF"}},
		{"PartitionKey eq 'p' and RowKey gt '\uD7FF' and RowKey le '\U0010FFFF'", []string{"𐀀", "😀", "😀z", "\U0010FFFF"}},
	} {
		if got := rowKeys(t, db, tt.filter, 0); !slices.Equal(got, tt.want) {
			t.Errorf("%+q: %+q, want %+q", tt.filter, got, tt.want)
		}
	}
	// Partitions too: a range of PartitionKeys.
	var pks []string
	f, _ := odata.ParseFilter("PartitionKey gt '😀' and PartitionKey lt '\uFFFD'")
	if _, err := db.Query(ctx, "Order", backend.QueryRequest{Query: odata.Query{Filter: f}}, func(e *odata.Entity) error {
		pks = append(pks, e.PartitionKey)
		return nil
	}); err != nil {
		t.Fatal(err)
	}
	if want := []string{"😀z", "\U0010FFFF", "\uE000", "ｶ"}; !slices.Equal(pks, want) {
		t.Errorf("partitions between 😀 and U+FFFD: %+q, want %+q", pks, want)
	}
	for _, k := range orderKeys {
		if e, err := db.Get(ctx, "Order", "p", k); err != nil || e.RowKey != k {
			t.Fatalf("get %+q: %v %v", k, e, err)
		}
	}
	if db.KeyOrder() != odata.UTF16 {
		t.Errorf("KeyOrder %v", db.KeyOrder())
	}
}

// A format-2 file stores each key's bytes mapped (0xEE, 0xEF to 0xF5,
// 0xF6), so that the engine's byte order is the keys' UTF-16 order.
func TestStoredKeysMapped(t *testing.T) {
	l := values.Layout(2)
	for _, a := range orderKeys {
		for _, b := range orderKeys {
			if got, want := bytes.Compare(l.Key("p", a), l.Key("p", b)), odata.CompareUTF16(a, b); got != want {
				t.Errorf("stored %+q against %+q: %d, want %d", a, b, got, want)
			}
		}
		if pk, rk := l.Keys(l.Key(a, a+"x")); pk != a || rk != a+"x" {
			t.Errorf("%+q: read back as %+q, %+q", a, pk, rk)
		}
		var buf []byte
		if v := l.View(l.AppendPart(nil, a), &buf); v != a {
			t.Errorf("%+q viewed as %+q", a, v)
		}
	}
	if !bytes.Equal(values.Layout(1).Key("p", "\uFFFD"), []byte("p\x00\uFFFD")) {
		t.Error("format 1 stores keys as they are")
	}
}

// A query's filter made for one order of keys is refused, never run, in a
// transaction whose table keeps the other (the file upgraded by another
// process between the two); a filter in the table's order, and none, run.
func TestQueryRefusesAFilterOfAnotherOrder(t *testing.T) {
	f, err := odata.ParseFilter("RowKey gt 'a'")
	if err != nil {
		t.Fatal(err)
	}
	for _, l := range []values.Layout{1, 2} {
		b := &gbucket{codec: &values.Codec{L: l}}
		other := odata.UTF16
		if l.Order() == odata.UTF16 {
			other = odata.CodePoint
		}
		if err := sameOrder(b, f.In(other)); !odata.IsCode(err, odata.CodeServerBusy) {
			t.Errorf("format %d, a filter in the other order: %v, want ServerBusy", l, err)
		}
		if err := sameOrder(b, f.In(l.Order())); err != nil {
			t.Errorf("format %d, a filter in its order: %v", l, err)
		}
		if err := sameOrder(b, nil); err != nil {
			t.Errorf("format %d, no filter: %v", l, err)
		}
	}
}
