package store

import (
	"context"
	"fmt"
	"slices"
	"strings"
	"testing"

	"github.com/tstable/tstable/backend"

	"github.com/tstable/tstable/odata"
)

// A filtered query passes over, by the text sieve, only entities the
// filter does not match: on a file of the format this tstable writes, a
// filter's string equalities find what the filter matched without the
// sieve (entity by entity, decoded), on either path of a query (a page, a
// stream read on every core) — strings short and long, in any script,
// the text inside other properties too. Should a format stop storing
// strings as their bytes, this fails until the sieve leaves it out.
func TestTextSieveLosesNoMatch(t *testing.T) {
	db, err := Open(dbPath(t, "s.db"), nil)
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	ctx := context.Background()
	if err := db.CreateTable(ctx, "Sieve"); err != nil {
		t.Fatal(err)
	}
	names := []string{"Cao", "Cao Jun", "xCaox", "Ærø", "😀 Ω", strings.Repeat("long name ", 40), "", "cao"}
	var ops []backend.Operation
	for i := 0; i < 600; i++ {
		e := &odata.Entity{PartitionKey: fmt.Sprintf("p%02d", i/100), RowKey: fmt.Sprintf("%05d", i)}
		e.Set("LastName", odata.String(names[i%len(names)]))
		e.Set("Note", odata.String(names[(i/3)%len(names)]+" and Cao"))
		e.Set("Age", odata.Int32(int32(i%90)))
		if i%5 == 0 {
			e.Set("Extra", odata.String("only some have it: "+names[i%len(names)]))
		}
		if i%11 == 0 {
			e.Set("LastName", odata.Int32(7)) // another type under the same name
		}
		ops = append(ops, backend.Operation{Kind: backend.OpInsert, Entity: e})
		if len(ops) == 100 {
			if _, err := db.Batch(ctx, "Sieve", ops); err != nil {
				t.Fatal(err)
			}
			ops = nil
		}
	}
	var all []*odata.Entity
	if _, err := db.Query(ctx, "Sieve", backend.QueryRequest{}, func(e *odata.Entity) error {
		all = append(all, e)
		return nil
	}); err != nil {
		t.Fatal(err)
	}
	var filters []string
	for _, n := range names {
		q := strings.ReplaceAll(n, "'", "''")
		filters = append(filters, "LastName eq '"+q+"'", "LastName eq '"+q+"' and Age gt 30",
			"Extra eq 'only some have it: "+q+"' and LastName eq '"+q+"'", "Note eq '"+q+" and Cao'")
	}
	for _, text := range filters {
		f, err := odata.ParseFilter(text)
		if err != nil {
			t.Fatal(err)
		}
		var want []string
		for _, e := range all {
			if f.Match(e) {
				want = append(want, e.RowKey)
			}
		}
		for _, pageSize := range []int{0, 1000} {
			var got []string
			if _, err := db.Query(ctx, "Sieve", backend.QueryRequest{Query: odata.Query{Filter: f}, PageSize: pageSize}, func(e *odata.Entity) error {
				got = append(got, e.RowKey)
				return nil
			}); err != nil {
				t.Fatal(err)
			}
			slices.Sort(got)
			slices.Sort(want)
			if !slices.Equal(got, want) {
				t.Errorf("%s (page size %d): %d entities, want %d", text, pageSize, len(got), len(want))
			}
		}
	}
}
