package store

import (
	"fmt"
	"math/rand"
	"os"
	"syscall"
	"testing"
	"time"

	"github.com/tstable/tstable/backend"
	"github.com/tstable/tstable/odata"
)

// churn writes with every kind of write, for ever: inserts, merges and
// deletes, batches, loads in random order and staged ones, tables created
// and deleted.
func churn(db *DB) {
	rng := rand.New(rand.NewSource(int64(os.Getpid())))
	for i := 0; ; i++ {
		k := fmt.Sprintf("%06d", rng.Intn(5000))
		switch i % 6 {
		case 0:
			db.Write(ctx, "Slow", backend.Operation{Kind: backend.OpInsertOrReplace, Entity: ent("w", k, prop("N", odata.Int32(int32(i))))})
		case 1:
			db.Write(ctx, "Slow", backend.Operation{Kind: backend.OpDelete, IfMatch: "*", Entity: ent("w", k)})
		case 2:
			var ops []backend.Operation
			for j := range 20 {
				ops = append(ops, backend.Operation{Kind: backend.OpInsertOrMerge, Entity: ent(fmt.Sprintf("b%d", i%7), fmt.Sprintf("%03d", j), prop("I", odata.Int32(int32(i))))})
			}
			db.Batch(ctx, "Slow", ops)
		case 3:
			db.Load(ctx, "Slow", backend.OpInsertOrReplace, sliceSource(shuffled(2000, int64(i))), backend.LoadOptions{})
		case 4:
			name := fmt.Sprintf("Staged%d", i%3)
			db.DeleteTable(ctx, name)
			db.CreateTable(ctx, name)
			db.Load(ctx, name, backend.OpInsert, sliceSource(sortedEntities(1500)), backend.LoadOptions{})
		case 5:
			db.Write(ctx, "Slow", backend.Operation{Kind: backend.OpInsertOrMerge, Entity: ent("w", k, prop("M", odata.String("merged")))})
		}
	}
}

// A process killed (SIGKILL) at random moments while it writes every way
// leaves a file that opens for writing (the checks of an open for writing
// find nothing wrong with it), reads whole, and is sound by the engine's
// check and by Check (at the test's end).
func TestKilledAtRandomMomentsTheFileStaysSound(t *testing.T) {
	path := newFile(t)
	rng := rand.New(rand.NewSource(time.Now().UnixNano()))
	rounds := 8
	if testing.Short() || raceEnabled {
		rounds = 3
	}
	for r := range rounds {
		cmd, _, lines := helper(t, "churn", path)
		expect(t, lines, "ready")
		time.Sleep(time.Duration(20+rng.Intn(400)) * time.Millisecond)
		if err := cmd.Process.Signal(syscall.SIGKILL); err != nil {
			t.Fatal(err)
		}
		cmd.Wait()
		db, err := Open(path, nil)
		if err != nil {
			t.Fatalf("round %d: the file does not open for writing after the kill: %v", r, err)
		}
		names, err := db.ListTables(ctx)
		if err != nil {
			t.Fatal(err)
		}
		for _, n := range names {
			dump(t, db, n)
		}
		db.Close()
		wantSound(t, path)
	}
}
