package completions

import (
	"context"
	"fmt"
	"io"
	"path/filepath"
	"strings"
	"testing"

	"github.com/tstable/tstable/backend"
	"github.com/tstable/tstable/odata"
	"github.com/tstable/tstable/store"
)

// storeCache returns a Cache over a real store file holding Employees with
// partitions P00…P29 (a hundred entities each) and a count of reads.
func storeCache(t *testing.T) (*Cache, *int, string) {
	t.Helper()
	path := filepath.Join(t.TempDir(), "t.db")
	ctx := context.Background()
	db, err := store.Open(path, nil)
	if err != nil {
		t.Fatal(err)
	}
	if err := db.CreateTable(ctx, "Employees"); err != nil {
		t.Fatal(err)
	}
	n := 0
	src := func() (*odata.Entity, error) {
		if n == 3000 {
			return nil, io.EOF
		}
		p, r := n/100, n%100
		n++
		e := &odata.Entity{PartitionKey: fmt.Sprintf("P%02d", p), RowKey: fmt.Sprintf("%03d", r)}
		e.Set("Age", odata.Value{Type: odata.EdmInt32, Int: int64(r)})
		if r%2 == 0 {
			e.Set("Name", odata.Value{Type: odata.EdmString, Str: "n"})
		}
		return e, nil
	}
	if _, err := db.Load(ctx, "Employees", backend.OpInsert, src, backend.LoadOptions{}); err != nil {
		t.Fatal(err)
	}
	db.Close()
	reads := 0
	c := NewCache(func(ctx context.Context, fn func(backend.Backend) error) error {
		reads++
		db, err := store.Open(path, &store.Options{ReadOnly: true})
		if err != nil {
			return err
		}
		defer db.Close()
		return fn(db)
	})
	return c, &reads, path
}

func TestCacheOverTheStore(t *testing.T) {
	ctx := context.Background()
	c, reads, path := storeCache(t)

	if got := c.Tables(ctx); strings.Join(got, ",") != "Employees" {
		t.Fatalf("Tables = %v", got)
	}
	props := c.Properties(ctx, "employees")
	if len(props) != 2 || props[0].Name != "Age" || props[1].Name != "Name" || props[0].Types[0] != odata.EdmInt32 {
		t.Fatalf("Properties = %+v", props)
	}
	pks := c.PartitionKeys(ctx, "Employees", "P1")
	if strings.Join(pks, ",") != "P10,P11,P12,P13,P14,P15,P16,P17,P18,P19" {
		t.Fatalf("PartitionKeys(P1) = %v", pks)
	}
	if all := c.PartitionKeys(ctx, "Employees", ""); len(all) != MaxPartitionKeys || all[0] != "P00" || all[19] != "P19" {
		t.Fatalf("PartitionKeys() = %v, want the first %d", all, MaxPartitionKeys)
	}

	if rks := c.RowKeys(ctx, "Employees", "P03", "09"); strings.Join(rks, ",") != "090,091,092,093,094,095,096,097,098,099" {
		t.Fatalf("RowKeys(P03, 09) = %v", rks)
	}
	if rks := c.RowKeys(ctx, "Employees", "P03", ""); len(rks) != MaxPartitionKeys || rks[0] != "000" {
		t.Fatalf("RowKeys(P03) = %v", rks)
	}

	// Cached: asking again reads nothing.
	before := *reads
	c.Tables(ctx)
	c.Properties(ctx, "Employees")
	c.PartitionKeys(ctx, "Employees", "P1")
	if *reads != before {
		t.Fatalf("cached answers read the store %d more times", *reads-before)
	}

	// After a write and Invalidate, new properties are seen.
	db, err := store.Open(path, nil)
	if err != nil {
		t.Fatal(err)
	}
	e := &odata.Entity{PartitionKey: "P00", RowKey: "000"}
	e.Set("Email", odata.Value{Type: odata.EdmString, Str: "a@b"})
	if _, err := db.Write(ctx, "Employees", backend.Operation{Kind: backend.OpInsertOrMerge, Entity: e}); err != nil {
		t.Fatal(err)
	}
	db.Close()
	if got := c.Properties(ctx, "Employees"); len(got) != 2 {
		t.Fatalf("before Invalidate the cache answers as before; got %+v", got)
	}
	c.Invalidate()
	if got := c.Properties(ctx, "Employees"); len(got) != 3 || got[1].Name != "Email" {
		t.Fatalf("after Invalidate Properties = %+v", got)
	}
}

func TestCacheWithoutStorage(t *testing.T) {
	c := NewCache(func(context.Context, func(backend.Backend) error) error {
		return fmt.Errorf("no database")
	})
	ctx := context.Background()
	if c.Tables(ctx) != nil || c.Properties(ctx, "T") != nil || c.PartitionKeys(ctx, "T", "") != nil {
		t.Fatal("a Source that cannot read must answer nothing")
	}
	// Completion still offers what it knows without data.
	sugg, _ := Filter(ctx, c, "T", "")
	if len(sugg) == 0 || sugg[0].Text != "PartitionKey" {
		t.Fatalf("Filter without data = %v", texts(sugg))
	}
}
