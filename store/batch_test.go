package store

import (
	"fmt"
	"reflect"
	"testing"

	"github.com/tstable/tstable/backend"
	"github.com/tstable/tstable/odata"
)

func TestBatchAppliesAll(t *testing.T) {
	db, _ := openTemp(t)
	newTable(t, db, "Emp")
	mustWrite(t, db, "Emp", backend.OpInsert, ent("Sales", "old"))
	out, err := db.Batch(ctx, "Emp", []backend.Operation{
		{Kind: backend.OpInsert, Entity: ent("Sales", "a", prop("N", odata.Int32(1)))},
		{Kind: backend.OpInsertOrMerge, Entity: ent("Sales", "b")},
		{Kind: backend.OpDelete, Entity: ent("Sales", "old"), IfMatch: "*"},
	})
	if err != nil || len(out) != 3 {
		t.Fatalf("batch: %v", err)
	}
	if got := keysOf(dump(t, db, "Emp")); !reflect.DeepEqual(got, []string{"Sales/a", "Sales/b"}) {
		t.Fatalf("after batch: %v", got)
	}
}

func TestBatchFailureChangesNothing(t *testing.T) {
	db, _ := openTemp(t)
	newTable(t, db, "Emp")
	stale := mustWrite(t, db, "Emp", backend.OpInsert, ent("Sales", "x", prop("N", odata.Int32(1))))
	mustWrite(t, db, "Emp", backend.OpMerge, ent("Sales", "x", prop("N", odata.Int32(2))))
	before := dump(t, db, "Emp")
	ops := func(bad backend.Operation, at int) []backend.Operation {
		var o []backend.Operation
		for i := 0; i < 5; i++ {
			o = append(o, backend.Operation{Kind: backend.OpInsert, Entity: ent("Sales", fmt.Sprint("n", i))})
		}
		return append(o[:at], append([]backend.Operation{bad}, o[at:]...)...)
	}
	cases := []struct {
		name  string
		ops   []backend.Operation
		code  odata.Code
		index int
	}{
		{"exists at 3", ops(backend.Operation{Kind: backend.OpInsert, Entity: ent("Sales", "x")}, 3), odata.CodeEntityAlreadyExists, 3},
		{"stale etag at 4", ops(backend.Operation{Kind: backend.OpReplace, Entity: ent("Sales", "x"), IfMatch: stale.ETag()}, 4), odata.CodeUpdateConditionNotSatisfied, 4},
		{"missing at 0", ops(backend.Operation{Kind: backend.OpDelete, Entity: ent("Sales", "404"), IfMatch: "*"}, 0), odata.CodeResourceNotFound, 0},
		{"other partition at 2", ops(backend.Operation{Kind: backend.OpInsert, Entity: ent("Marketing", "m")}, 2), odata.CodeCommandsInBatchActOnDifferentPartitions, 2},
		{"duplicate at 5", ops(backend.Operation{Kind: backend.OpInsert, Entity: ent("Sales", "n1")}, 5), odata.CodeInvalidDuplicateRow, 5},
		{"bad key at 1", ops(backend.Operation{Kind: backend.OpInsert, Entity: ent("Sales", "a/b")}, 1), odata.CodeOutOfRangeInput, 1},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			_, err := db.Batch(ctx, "Emp", c.ops)
			e, ok := err.(*odata.Error)
			if !ok || e.Code != c.code || e.Index != c.index {
				t.Fatalf("got %v, want %s at %d", err, c.code, c.index)
			}
			if want := fmt.Sprintf("operation %d: %s: ", c.index, c.code); err.Error()[:len(want)] != want {
				t.Fatalf("message %q does not start with %q", err, want)
			}
			after := dump(t, db, "Emp")
			if !reflect.DeepEqual(after, before) {
				t.Fatalf("table changed:\n%v\n%v", keysOf(before), keysOf(after))
			}
		})
	}
}

func TestBatchLimits(t *testing.T) {
	db, _ := openTemp(t)
	newTable(t, db, "Emp")
	_, err := db.Batch(ctx, "Emp", nil)
	wantCode(t, err, odata.CodeInvalidInput, 400)
	var ops []backend.Operation
	for i := 0; i < 101; i++ {
		ops = append(ops, backend.Operation{Kind: backend.OpInsert, Entity: ent("p", fmt.Sprint(i))})
	}
	_, err = db.Batch(ctx, "Emp", ops)
	wantCode(t, err, odata.CodeInvalidInput, 400)
	if _, err := db.Batch(ctx, "Emp", ops[:100]); err != nil {
		t.Fatalf("100 operations: %v", err)
	}
	var big []backend.Operation
	for i := 0; i < 8; i++ { // 8 × 9 × 60000 bytes > 4 MiB
		big = append(big, backend.Operation{Kind: backend.OpInsertOrReplace, Entity: ent("q", fmt.Sprint(i),
			prop("A", odata.Binary(make([]byte, 60000))), prop("B", odata.Binary(make([]byte, 60000))), prop("C", odata.Binary(make([]byte, 60000))),
			prop("D", odata.Binary(make([]byte, 60000))), prop("E", odata.Binary(make([]byte, 60000))), prop("F", odata.Binary(make([]byte, 60000))),
			prop("G", odata.Binary(make([]byte, 60000))), prop("H", odata.Binary(make([]byte, 60000))), prop("I", odata.Binary(make([]byte, 60000)))),
		})
	}
	_, err = db.Batch(ctx, "Emp", big)
	wantCode(t, err, odata.CodeRequestBodyTooLarge, 413)
}

// A batch looks its keys up together when none of them is stored, and one
// by one otherwise: either way each operation meets the entity as the
// batch found it, whether its keys' stretch holds other keys, one of its
// own, or nothing; and batches sharing one commit see each other's.
func TestBatchFindsItsKeysStored(t *testing.T) {
	db, _ := openTemp(t)
	newTable(t, db, "Emp")
	for _, rk := range []string{"b", "d"} {
		mustWrite(t, db, "Emp", backend.OpInsert, ent("P", rk))
	}
	for _, c := range []struct {
		name  string
		ops   []backend.Operation
		code  odata.Code
		index int
	}{
		{"others between its keys", []backend.Operation{{Kind: backend.OpInsert, Entity: ent("P", "c")}, {Kind: backend.OpInsert, Entity: ent("P", "a")}, {Kind: backend.OpInsert, Entity: ent("P", "e")}}, "", -1},
		{"one of its keys stored", []backend.Operation{{Kind: backend.OpInsert, Entity: ent("P", "f")}, {Kind: backend.OpInsert, Entity: ent("P", "d")}}, odata.CodeEntityAlreadyExists, 1},
		{"nothing stored, an update", []backend.Operation{{Kind: backend.OpInsert, Entity: ent("P", "y")}, {Kind: backend.OpReplace, Entity: ent("P", "x"), IfMatch: "*"}}, odata.CodeResourceNotFound, 1},
		{"nothing stored, upserts", []backend.Operation{{Kind: backend.OpInsertOrMerge, Entity: ent("P", "g")}, {Kind: backend.OpInsertOrReplace, Entity: ent("P", "h")}}, "", -1},
		{"stored by the batch before", []backend.Operation{{Kind: backend.OpInsert, Entity: ent("P", "h")}}, odata.CodeEntityAlreadyExists, 0},
		{"a delete, then nothing stored", []backend.Operation{{Kind: backend.OpDelete, Entity: ent("P", "h"), IfMatch: "*"}}, "", -1},
		{"the deleted key", []backend.Operation{{Kind: backend.OpMerge, Entity: ent("P", "h"), IfMatch: "*"}}, odata.CodeResourceNotFound, 0},
	} {
		_, err := db.Batch(ctx, "Emp", c.ops)
		if c.code == "" {
			if err != nil {
				t.Fatalf("%s: %v", c.name, err)
			}
			continue
		}
		if e, ok := err.(*odata.Error); !ok || e.Code != c.code || e.Index != c.index {
			t.Fatalf("%s: got %v, want %s at %d", c.name, err, c.code, c.index)
		}
	}
	if got := keysOf(dump(t, db, "Emp")); !reflect.DeepEqual(got, []string{"P/a", "P/b", "P/c", "P/d", "P/e", "P/g"}) {
		t.Fatalf("after the batches: %v", got)
	}
	// Concurrent batches of one partition, each inserting a key the one
	// before inserts too: every key is inserted once, the others refused.
	const n = 40
	errs := make(chan error, n)
	for i := range n {
		go func() {
			_, err := db.Batch(ctx, "Emp", []backend.Operation{
				{Kind: backend.OpInsert, Entity: ent("Q", fmt.Sprintf("%03d", i))},
				{Kind: backend.OpInsert, Entity: ent("Q", fmt.Sprintf("%03d", i+1))},
			})
			errs <- err
		}()
	}
	done := 0
	for range n {
		if err := <-errs; err == nil {
			done++
		} else if !odata.IsCode(err, odata.CodeEntityAlreadyExists) {
			t.Fatal(err)
		}
	}
	q := 0
	for _, k := range keysOf(dump(t, db, "Emp")) {
		if k[0] == 'Q' {
			q++
		}
	}
	if q != 2*done {
		t.Fatalf("%d batches of two done, %d keys stored", done, q)
	}
}
