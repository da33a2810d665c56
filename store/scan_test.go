package store

import (
	"fmt"
	"reflect"
	"testing"

	"github.com/tstable/tstable/backend"
	"github.com/tstable/tstable/odata"
	"github.com/tstable/tstable/store/internal/values"
)

// fixture: partitions A, B, BB, C with RowKeys 1..4 each, written out of order.
func scanFixture(t *testing.T) *DB {
	db, _ := openTemp(t)
	newTable(t, db, "Tbl")
	for _, pk := range []string{"C", "A", "BB", "B"} {
		for _, rk := range []string{"3", "1", "4", "2"} {
			mustWrite(t, db, "Tbl", backend.OpInsert, ent(pk, rk, prop("N", odata.Int32(int32(len(pk)*10)))))
		}
	}
	return db
}

func query(t *testing.T, db *DB, filter string, req backend.QueryRequest) ([]string, *backend.QueryResult) {
	t.Helper()
	if filter != "" {
		f, err := odata.ParseFilter(filter)
		if err != nil {
			t.Fatal(err)
		}
		req.Query.Filter = f
	}
	var got []*odata.Entity
	res, err := db.Query(ctx, "Tbl", req, func(e *odata.Entity) error { got = append(got, e); return nil })
	if err != nil {
		t.Fatal(err)
	}
	return keysOf(got), res
}

func TestOrderIsPartitionThenRow(t *testing.T) {
	db := scanFixture(t)
	got, res := query(t, db, "", backend.QueryRequest{})
	want := []string{"A/1", "A/2", "A/3", "A/4", "B/1", "B/2", "B/3", "B/4", "BB/1", "BB/2", "BB/3", "BB/4", "C/1", "C/2", "C/3", "C/4"}
	if !reflect.DeepEqual(got, want) || res.Scanned != 16 || res.Returned != 16 || res.Next != nil {
		t.Fatalf("got %v (%+v)", got, res)
	}
}

func TestQueriesReadOnlyTheirRanges(t *testing.T) {
	db := scanFixture(t)
	cases := []struct {
		filter  string
		class   odata.QueryClass
		want    []string
		scanned int64
	}{
		{"PartitionKey eq 'B' and RowKey eq '3'", odata.ClassPoint, []string{"B/3"}, 1},
		{"PartitionKey eq 'B' and RowKey eq '9'", odata.ClassPoint, nil, 0},
		{"PartitionKey eq 'B' and RowKey gt '1' and RowKey le '3'", odata.ClassRange, []string{"B/2", "B/3"}, 2},
		{"PartitionKey eq 'B' and RowKey ge '2' and RowKey lt '4'", odata.ClassRange, []string{"B/2", "B/3"}, 2},
		{"PartitionKey eq 'B' and RowKey gt '3'", odata.ClassRange, []string{"B/4"}, 1},
		{"PartitionKey eq 'B'", odata.ClassPartitionScan, []string{"B/1", "B/2", "B/3", "B/4"}, 4},
		{"PartitionKey eq 'B' and N eq 10", odata.ClassPartitionScan, []string{"B/1", "B/2", "B/3", "B/4"}, 4},
		{"PartitionKey eq 'B' and (RowKey eq '1' or RowKey eq '4')", odata.ClassPartitionScan, []string{"B/1", "B/4"}, 4},
		{"PartitionKey ge 'B' and PartitionKey lt 'C'", odata.ClassTableScan, []string{"B/1", "B/2", "B/3", "B/4", "BB/1", "BB/2", "BB/3", "BB/4"}, 8},
		{"PartitionKey gt 'B' and PartitionKey le 'C'", odata.ClassTableScan, []string{"BB/1", "BB/2", "BB/3", "BB/4", "C/1", "C/2", "C/3", "C/4"}, 8},
		{"N eq 20", odata.ClassTableScan, []string{"BB/1", "BB/2", "BB/3", "BB/4"}, 16},
		{"RowKey eq '2'", odata.ClassTableScan, []string{"A/2", "B/2", "BB/2", "C/2"}, 16},
		{"PartitionKey eq 'A' and PartitionKey eq 'B'", "", nil, 0},
	}
	for _, c := range cases {
		t.Run(c.filter, func(t *testing.T) {
			got, res := query(t, db, c.filter, backend.QueryRequest{})
			if !reflect.DeepEqual(got, c.want) {
				t.Fatalf("got %v, want %v", got, c.want)
			}
			if c.class != "" && res.Plan.Class != c.class {
				t.Fatalf("class %s, want %s", res.Plan.Class, c.class)
			}
			if res.Scanned != c.scanned || res.Returned != int64(len(c.want)) {
				t.Fatalf("scanned %d returned %d, want %d and %d", res.Scanned, res.Returned, c.scanned, len(c.want))
			}
		})
	}
}

// scanKeys runs the internal scanner over ranges from a continuation key.
func scanKeys(t *testing.T, db *DB, ranges []odata.KeyRange, from *odata.Key) []string {
	t.Helper()
	keys := []string{}
	err := db.do(false, func(o *op) error {
		keys = keys[:0]
		return o.view(func(t *gtx) error {
			b, err := t.table("Tbl")
			if err != nil {
				return err
			}
			s, err := b.scanner(ranges, from, false)
			if err != nil {
				return err
			}
			for s.next() {
				pk, rk := values.SplitKey(s.k)
				keys = append(keys, string(pk)+"/"+string(rk))
			}
			return nil
		})
	})
	if err != nil {
		t.Fatal(err)
	}
	return keys
}

func TestScanBounds(t *testing.T) {
	db := scanFixture(t)
	b := func(pk, rk string, hasRK, incl bool) *odata.Bound {
		return &odata.Bound{PartitionKey: pk, RowKey: rk, HasRowKey: hasRK, Inclusive: incl}
	}
	cases := []struct {
		name string
		r    odata.KeyRange
		from *odata.Key
		want string
	}{
		{"partition incl..incl", odata.KeyRange{Lower: b("B", "", false, true), Upper: b("BB", "", false, true)}, nil, "[B/1 B/2 B/3 B/4 BB/1 BB/2 BB/3 BB/4]"},
		{"partition excl..excl", odata.KeyRange{Lower: b("A", "", false, false), Upper: b("C", "", false, false)}, nil, "[B/1 B/2 B/3 B/4 BB/1 BB/2 BB/3 BB/4]"},
		{"exact excl..excl", odata.KeyRange{Lower: b("A", "4", true, false), Upper: b("B", "2", true, false)}, nil, "[B/1]"},
		{"exact incl..incl", odata.KeyRange{Lower: b("A", "4", true, true), Upper: b("B", "2", true, true)}, nil, "[A/4 B/1 B/2]"},
		{"open lower", odata.KeyRange{Upper: b("A", "2", true, true)}, nil, "[A/1 A/2]"},
		{"open upper", odata.KeyRange{Lower: b("C", "3", true, true)}, nil, "[C/3 C/4]"},
		{"absent partition", odata.PartitionRange("AA"), nil, "[]"},
		{"point", odata.PointRange("BB", "2"), nil, "[BB/2]"},
		{"from inside", odata.PartitionRange("B"), &odata.Key{PartitionKey: "B", RowKey: "3"}, "[B/3 B/4]"},
		{"from before", odata.PartitionRange("B"), &odata.Key{PartitionKey: "A", RowKey: "9"}, "[B/1 B/2 B/3 B/4]"},
		{"from after", odata.PartitionRange("B"), &odata.Key{PartitionKey: "BB", RowKey: ""}, "[]"},
		{"from a deleted key", odata.FullRange(), &odata.Key{PartitionKey: "C", RowKey: "25"}, "[C/3 C/4]"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			if got := fmt.Sprint(scanKeys(t, db, []odata.KeyRange{c.r}, c.from)); got != c.want {
				t.Fatalf("got %s, want %s", got, c.want)
			}
		})
	}
	two := []odata.KeyRange{odata.PartitionRange("A"), odata.PartitionRange("C")}
	if got := fmt.Sprint(scanKeys(t, db, two, &odata.Key{PartitionKey: "A", RowKey: "4"})); got != "[A/4 C/1 C/2 C/3 C/4]" {
		t.Fatalf("two ranges: %s", got)
	}
}

func TestPagingResumesExactly(t *testing.T) {
	db := scanFixture(t)
	all, _ := query(t, db, "", backend.QueryRequest{})
	var paged []string
	var start *odata.Key
	pages := 0
	for {
		got, res := query(t, db, "", backend.QueryRequest{PageSize: 5, Start: start})
		pages++
		if len(got) > 5 {
			t.Fatalf("page of %d", len(got))
		}
		paged = append(paged, got...)
		if res.Next == nil {
			break
		}
		start = res.Next
		// Writes between pages neither skip nor repeat what was not touched.
		if pages == 1 {
			mustWrite(t, db, "Tbl", backend.OpDelete, ent("B", "3"))
			mustWrite(t, db, "Tbl", backend.OpInsert, ent("A", "0"))
		}
	}
	want := append(append([]string{}, all[:6]...), all[7:]...) // B/3 deleted after page 1; A/0 lies before it
	if !reflect.DeepEqual(paged, want) || pages != 3 {
		t.Fatalf("pages %d: %v\nwant %v", pages, paged, want)
	}
}

func TestTopAndExactLastPage(t *testing.T) {
	db := scanFixture(t)
	got, res := query(t, db, "PartitionKey eq 'A'", backend.QueryRequest{Query: odata.Query{Top: 2}})
	if len(got) != 2 || res.Next == nil || *res.Next != (odata.Key{PartitionKey: "A", RowKey: "3"}) {
		t.Fatalf("top 2: %v %+v", got, res.Next)
	}
	// A page that ends exactly at the last key has no continuation.
	_, res = query(t, db, "PartitionKey eq 'A'", backend.QueryRequest{PageSize: 4})
	if res.Next != nil {
		t.Fatalf("continuation after the last entity: %+v", res.Next)
	}
	_, err := db.Query(ctx, "Tbl", backend.QueryRequest{PageSize: 1001}, nil)
	wantCode(t, err, odata.CodeInvalidInput, 400)
}

func TestSelectProjects(t *testing.T) {
	db, _ := openTemp(t)
	newTable(t, db, "Tbl")
	mustWrite(t, db, "Tbl", backend.OpInsert, ent("p", "r", prop("A", odata.Int32(1)), prop("B", odata.Int32(2))))
	var got *odata.Entity
	db.Query(ctx, "Tbl", backend.QueryRequest{Query: odata.Query{Select: []string{"B"}}}, func(e *odata.Entity) error { got = e; return nil })
	if len(got.Properties) != 1 || got.Properties[0].Name != "B" || got.PartitionKey != "p" {
		t.Fatalf("projection: %+v", got)
	}
}
