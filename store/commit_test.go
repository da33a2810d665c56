package store

import (
	"context"
	"fmt"
	"sync"
	"testing"

	"github.com/tstable/tstable/backend"
	"github.com/tstable/tstable/odata"
)

// Concurrent writers share commits but keep the meaning of one-by-one
// writes: of racing inserts of one key exactly one succeeds, of racing
// conditional updates on one ETag exactly one succeeds, refused writes
// undo nobody else's, and every acknowledged write is there.
func TestGroupCommitKeepsSerialMeaning(t *testing.T) {
	db, _ := openTemp(t)
	ctx := context.Background()
	if err := db.CreateTable(ctx, "Group"); err != nil {
		t.Fatal(err)
	}
	first, err := db.Write(ctx, "Group", backend.Operation{Kind: backend.OpInsert, Entity: &odata.Entity{PartitionKey: "p", RowKey: "shared"}})
	if err != nil {
		t.Fatal(err)
	}
	const writers = 64
	var wg sync.WaitGroup
	var mu sync.Mutex
	inserted, updated := 0, 0
	var acked []string
	for w := 0; w < writers; w++ {
		wg.Add(1)
		go func(w int) {
			defer wg.Done()
			key := fmt.Sprintf("k%d", w%8) // 8 writers race for each key
			_, err := db.Write(ctx, "Group", backend.Operation{Kind: backend.OpInsert, Entity: &odata.Entity{PartitionKey: "p", RowKey: key}})
			ok := err == nil
			if !ok && !odata.IsCode(err, odata.CodeEntityAlreadyExists) {
				t.Errorf("insert: %v", err)
			}
			e := &odata.Entity{PartitionKey: "p", RowKey: "shared"}
			e.Set("W", odata.Int32(int32(w)))
			_, uerr := db.Write(ctx, "Group", backend.Operation{Kind: backend.OpMerge, Entity: e, IfMatch: first.ETag()})
			if uerr != nil && !odata.IsCode(uerr, odata.CodeUpdateConditionNotSatisfied) {
				t.Errorf("merge: %v", uerr)
			}
			own := fmt.Sprintf("own%02d", w)
			_, oerr := db.Batch(ctx, "Group", []backend.Operation{{Kind: backend.OpInsert, Entity: &odata.Entity{PartitionKey: "p", RowKey: own}}})
			mu.Lock()
			defer mu.Unlock()
			if ok {
				inserted++
			}
			if uerr == nil {
				updated++
			}
			if oerr == nil {
				acked = append(acked, own)
			}
		}(w)
	}
	wg.Wait()
	if inserted != 8 || updated != 1 || len(acked) != writers {
		t.Fatalf("inserted %d (want 8), updated %d (want 1), own batches %d (want %d)", inserted, updated, len(acked), writers)
	}
	for _, k := range acked {
		if _, err := db.Get(ctx, "Group", "p", k); err != nil {
			t.Errorf("acknowledged %s is missing: %v", k, err)
		}
	}
}
