package store

import (
	"fmt"
	"reflect"
	"testing"

	"github.com/tstable/tstable/odata"
)

func TestBatchAppliesAll(t *testing.T) {
	db, _ := openTemp(t)
	newTable(t, db, "Emp")
	mustWrite(t, db, "Emp", OpInsert, ent("Sales", "old"))
	out, err := db.Batch(ctx, "Emp", []Operation{
		{Kind: OpInsert, Entity: ent("Sales", "a", prop("N", odata.Int32(1)))},
		{Kind: OpInsertOrMerge, Entity: ent("Sales", "b")},
		{Kind: OpDelete, Entity: ent("Sales", "old"), IfMatch: "*"},
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
	stale := mustWrite(t, db, "Emp", OpInsert, ent("Sales", "x", prop("N", odata.Int32(1))))
	mustWrite(t, db, "Emp", OpMerge, ent("Sales", "x", prop("N", odata.Int32(2))))
	before := dump(t, db, "Emp")
	ops := func(bad Operation, at int) []Operation {
		var o []Operation
		for i := 0; i < 5; i++ {
			o = append(o, Operation{Kind: OpInsert, Entity: ent("Sales", fmt.Sprint("n", i))})
		}
		return append(o[:at], append([]Operation{bad}, o[at:]...)...)
	}
	cases := []struct {
		name  string
		ops   []Operation
		code  odata.Code
		index int
	}{
		{"exists at 3", ops(Operation{Kind: OpInsert, Entity: ent("Sales", "x")}, 3), odata.CodeEntityAlreadyExists, 3},
		{"stale etag at 4", ops(Operation{Kind: OpReplace, Entity: ent("Sales", "x"), IfMatch: stale.ETag()}, 4), odata.CodeUpdateConditionNotSatisfied, 4},
		{"missing at 0", ops(Operation{Kind: OpDelete, Entity: ent("Sales", "404"), IfMatch: "*"}, 0), odata.CodeResourceNotFound, 0},
		{"other partition at 2", ops(Operation{Kind: OpInsert, Entity: ent("Marketing", "m")}, 2), odata.CodeCommandsInBatchActOnDifferentPartitions, 2},
		{"duplicate at 5", ops(Operation{Kind: OpInsert, Entity: ent("Sales", "n1")}, 5), odata.CodeInvalidDuplicateRow, 5},
		{"bad key at 1", ops(Operation{Kind: OpInsert, Entity: ent("Sales", "a/b")}, 1), odata.CodeOutOfRangeInput, 1},
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
	var ops []Operation
	for i := 0; i < 101; i++ {
		ops = append(ops, Operation{Kind: OpInsert, Entity: ent("p", fmt.Sprint(i))})
	}
	_, err = db.Batch(ctx, "Emp", ops)
	wantCode(t, err, odata.CodeInvalidInput, 400)
	if _, err := db.Batch(ctx, "Emp", ops[:100]); err != nil {
		t.Fatalf("100 operations: %v", err)
	}
	var big []Operation
	for i := 0; i < 8; i++ { // 8 × 9 × 60000 bytes > 4 MiB
		big = append(big, Operation{Kind: OpInsertOrReplace, Entity: ent("q", fmt.Sprint(i),
			prop("A", odata.Binary(make([]byte, 60000))), prop("B", odata.Binary(make([]byte, 60000))), prop("C", odata.Binary(make([]byte, 60000))),
			prop("D", odata.Binary(make([]byte, 60000))), prop("E", odata.Binary(make([]byte, 60000))), prop("F", odata.Binary(make([]byte, 60000))),
			prop("G", odata.Binary(make([]byte, 60000))), prop("H", odata.Binary(make([]byte, 60000))), prop("I", odata.Binary(make([]byte, 60000)))),
		})
	}
	_, err = db.Batch(ctx, "Emp", big)
	wantCode(t, err, odata.CodeRequestBodyTooLarge, 413)
}
