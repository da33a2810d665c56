package server

import (
	"context"
	"errors"
	"github.com/tstable/tstable/backend"
	"path/filepath"
	"testing"

	"github.com/tstable/tstable/odata"
	"github.com/tstable/tstable/store"
)

// A query's entities count in the heat of their partitions, every one,
// also when the query stops part way (the entities given so far).
func TestHeatCountsQueryByPartition(t *testing.T) {
	db, err := store.Open(filepath.Join(t.TempDir(), "h.db"), nil)
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	ctx := context.Background()
	if err := db.CreateTable(ctx, "Tab"); err != nil {
		t.Fatal(err)
	}
	for _, k := range [][2]string{{"a", "1"}, {"a", "2"}, {"a", "3"}, {"b", "1"}, {"b", "2"}, {"c", "1"}} {
		if _, err := db.Write(ctx, "Tab", backend.Operation{Kind: backend.OpInsert, Entity: &odata.Entity{PartitionKey: k[0], RowKey: k[1]}}); err != nil {
			t.Fatal(err)
		}
	}
	h := newHeat()
	b := &heatBackend{Backend: db, h: h}
	if _, err := b.Query(ctx, "Tab", backend.QueryRequest{}, func(*odata.Entity) error { return nil }); err != nil {
		t.Fatal(err)
	}
	stop := errors.New("enough")
	n := 0
	if _, err := b.Query(ctx, "Tab", backend.QueryRequest{}, func(*odata.Entity) error {
		if n++; n == 5 {
			return stop
		}
		return nil
	}); !errors.Is(err, stop) {
		t.Fatalf("query stopped by its callback: %v", err)
	}
	want := map[string]int64{"a": 6, "b": 4, "c": 1}
	for pk, reads := range want {
		p := h.tables["Tab"][pk]
		if p == nil || p.Reads != reads || p.Writes != 0 || p.Peak < 1 || p.Peak > reads {
			t.Errorf("partition %s: %+v, want %d reads (its peak at most that)", pk, p, reads)
		}
	}
}
