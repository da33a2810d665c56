package store

import (
	"fmt"
	"io"
	"testing"

	"github.com/tstable/tstable/backend"
	"github.com/tstable/tstable/odata"
)

// A point query on a 1M-entity table reads exactly one entity, and a range
// query exactly its range: asserted through the scanned count.
func TestQueriesOnAMillionEntitiesScanOnlyTheirRange(t *testing.T) {
	if testing.Short() {
		t.Skip("builds a 1M-entity table")
	}
	db, _ := openTemp(t)
	newTable(t, db, "Big")
	n := 0
	_, err := db.Load(ctx, "Big", backend.OpInsert, func() (*odata.Entity, error) {
		if n == 1_000_000 {
			return nil, io.EOF
		}
		n++
		return &odata.Entity{PartitionKey: fmt.Sprintf("%04d", (n-1)/1000), RowKey: fmt.Sprintf("%04d", (n-1)%1000)}, nil
	}, backend.LoadOptions{})
	if err != nil {
		t.Fatal(err)
	}
	for _, c := range []struct {
		filter            string
		scanned, returned int64
	}{
		{"PartitionKey eq '0500' and RowKey eq '0123'", 1, 1},
		{"PartitionKey eq '0500' and RowKey ge '0100' and RowKey lt '0200'", 100, 100},
		{"PartitionKey eq '0500' and RowKey ne '0001'", 1000, 999},
	} {
		f, err := odata.ParseFilter(c.filter)
		if err != nil {
			t.Fatal(err)
		}
		res, err := db.Query(ctx, "Big", backend.QueryRequest{Query: odata.Query{Filter: f}}, func(*odata.Entity) error { return nil })
		if err != nil {
			t.Fatal(err)
		}
		if res.Scanned != c.scanned || res.Returned != c.returned {
			t.Errorf("%s: scanned %d returned %d, want %d and %d", c.filter, res.Scanned, res.Returned, c.scanned, c.returned)
		}
	}
}
