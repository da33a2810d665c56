package design

import (
	"context"
	"io"
	"path/filepath"
	"testing"

	"github.com/tstable/tstable/odata"
	"github.com/tstable/tstable/store"
)

// loaded opens a fresh bbolt store holding ents in table.
func loaded(t testing.TB, table string, ents []*odata.Entity) store.Backend {
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
	i := 0
	src := func() (*odata.Entity, error) {
		if i == len(ents) {
			return nil, io.EOF
		}
		i++
		return ents[i-1], nil
	}
	if _, err := db.Load(ctx, table, store.OpInsert, src, store.LoadOptions{}); err != nil {
		t.Fatal(err)
	}
	return db
}
