package design

import (
	"context"
	"io"
	"path/filepath"
	"testing"

	"github.com/tstable/tstable/backend"
	"github.com/tstable/tstable/odata"
	"github.com/tstable/tstable/store"
)

// loaded opens a fresh bbolt store holding ents in table.
func loaded(t testing.TB, table string, ents []*odata.Entity) backend.Backend {
	t.Helper()
	i := 0
	return loadedFrom(t, table, func() (*odata.Entity, error) {
		if i == len(ents) {
			return nil, io.EOF
		}
		i++
		return ents[i-1], nil
	})
}

// loadedFrom opens a fresh bbolt store and loads table from src.
func loadedFrom(t testing.TB, table string, src backend.EntitySource) backend.Backend {
	t.Helper()
	db, err := store.Open(filepath.Join(t.TempDir(), "t.db"), nil)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { db.Close() })
	ctx := context.Background()
	if err := db.CreateTable(ctx, table); err != nil {
		t.Fatal(err)
	}
	if _, err := db.Load(ctx, table, backend.OpInsert, src, backend.LoadOptions{}); err != nil {
		t.Fatal(err)
	}
	return db
}

// storeScanAll is the request that streams a whole table.
func storeScanAll() backend.QueryRequest { return backend.QueryRequest{PageSize: 0} }
