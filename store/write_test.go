package store

import (
	"strings"
	"testing"

	"github.com/tstable/tstable/backend"
	"github.com/tstable/tstable/odata"
)

func TestInsertReplaceMergeUpsertDelete(t *testing.T) {
	db, _ := openTemp(t)
	newTable(t, db, "Emp")
	first := mustWrite(t, db, "Emp", backend.OpInsert, ent("Sales", "1", prop("Name", odata.String("Ann")), prop("Age", odata.Int32(30))))
	_, err := db.Write(ctx, "Emp", backend.Operation{Kind: backend.OpInsert, Entity: ent("Sales", "1")})
	wantCode(t, err, odata.CodeEntityAlreadyExists, 409)

	// Merge keeps Age, changes Name, adds City; the ETag changes.
	merged := mustWrite(t, db, "Emp", backend.OpMerge, ent("Sales", "1", prop("Name", odata.String("Anne")), prop("City", odata.String("Oslo"))))
	if merged.ETag() == first.ETag() {
		t.Fatal("merge did not change the ETag")
	}
	got, _ := db.Get(ctx, "Emp", "Sales", "1")
	if v, _ := got.Get("Age"); v.Int != 30 {
		t.Fatalf("merge lost Age: %+v", got)
	}
	if v, _ := got.Get("Name"); v.Str != "Anne" {
		t.Fatalf("merge did not set Name: %+v", got)
	}
	if got.ETag() != merged.ETag() {
		t.Fatalf("read ETag %s != written %s", got.ETag(), merged.ETag())
	}

	// Replace drops what it does not give.
	mustWrite(t, db, "Emp", backend.OpReplace, ent("Sales", "1", prop("Name", odata.String("A"))))
	got, _ = db.Get(ctx, "Emp", "Sales", "1")
	if _, ok := got.Get("Age"); ok || len(got.Properties) != 1 {
		t.Fatalf("replace kept old properties: %+v", got)
	}

	// Replace, merge and delete of a missing entity.
	for _, k := range []backend.OpKind{backend.OpReplace, backend.OpMerge, backend.OpDelete} {
		_, err := db.Write(ctx, "Emp", backend.Operation{Kind: k, Entity: ent("Sales", "404"), IfMatch: "*"})
		wantCode(t, err, odata.CodeResourceNotFound, 404)
	}
	// Upserts create and then update.
	mustWrite(t, db, "Emp", backend.OpInsertOrMerge, ent("Sales", "2", prop("A", odata.Int32(1))))
	mustWrite(t, db, "Emp", backend.OpInsertOrMerge, ent("Sales", "2", prop("B", odata.Int32(2))))
	got, _ = db.Get(ctx, "Emp", "Sales", "2")
	if len(got.Properties) != 2 {
		t.Fatalf("insert-or-merge: %+v", got)
	}
	mustWrite(t, db, "Emp", backend.OpInsertOrReplace, ent("Sales", "2", prop("C", odata.Int32(3))))
	got, _ = db.Get(ctx, "Emp", "Sales", "2")
	if len(got.Properties) != 1 || got.Properties[0].Name != "C" {
		t.Fatalf("insert-or-replace: %+v", got)
	}
	mustWrite(t, db, "Emp", backend.OpDelete, ent("Sales", "2"))
	_, err = db.Get(ctx, "Emp", "Sales", "2")
	wantCode(t, err, odata.CodeResourceNotFound, 404)
}

func TestETagConditions(t *testing.T) {
	db, _ := openTemp(t)
	newTable(t, db, "Emp")
	v1 := mustWrite(t, db, "Emp", backend.OpInsert, ent("p", "r", prop("N", odata.Int32(1))))
	v2, err := db.Write(ctx, "Emp", backend.Operation{Kind: backend.OpReplace, Entity: ent("p", "r", prop("N", odata.Int32(2))), IfMatch: v1.ETag()})
	if err != nil {
		t.Fatalf("current ETag refused: %v", err)
	}
	for _, k := range []backend.OpKind{backend.OpReplace, backend.OpMerge, backend.OpDelete} {
		_, err := db.Write(ctx, "Emp", backend.Operation{Kind: k, Entity: ent("p", "r", prop("N", odata.Int32(9))), IfMatch: v1.ETag()})
		e := wantCode(t, err, odata.CodeUpdateConditionNotSatisfied, 412)
		if e.Index != -1 {
			t.Fatalf("index %d outside a batch", e.Index)
		}
	}
	got, _ := db.Get(ctx, "Emp", "p", "r")
	if v, _ := got.Get("N"); v.Int != 2 || got.ETag() != v2.ETag() {
		t.Fatalf("stale writes changed the entity: %+v", got)
	}
	if _, err := db.Write(ctx, "Emp", backend.Operation{Kind: backend.OpDelete, Entity: ent("p", "r"), IfMatch: v2.ETag()}); err != nil {
		t.Fatal(err)
	}
}

func TestEveryWriteChangesETag(t *testing.T) {
	db, _ := openTemp(t)
	newTable(t, db, "Emp")
	seen := map[string]bool{}
	for i := 0; i < 200; i++ {
		e := mustWrite(t, db, "Emp", backend.OpInsertOrReplace, ent("p", "r"))
		if seen[e.ETag()] {
			t.Fatalf("write %d reused ETag %s", i, e.ETag())
		}
		seen[e.ETag()] = true
	}
}

// Insert keeps the order its properties were given in; every other write
// (merge, replace and their upserts, in a batch and a load too) keeps them
// sorted by name, as the service's answers show.
func TestPropertyOrderAfterWrites(t *testing.T) {
	db, _ := openTemp(t)
	newTable(t, db, "Ord")
	names := func(pk, rk string) string {
		t.Helper()
		e, err := db.Get(ctx, "Ord", pk, rk)
		if err != nil {
			t.Fatal(err)
		}
		var out []string
		for _, p := range e.Properties {
			out = append(out, p.Name)
		}
		return strings.Join(out, ",")
	}
	given := func(pk, rk string) *odata.Entity {
		return ent(pk, rk, prop("sex", odata.String("m")), prop("age", odata.Int32(1)), prop("Birthday", odata.Bool(true)), prop("ETag", odata.Int32(2)), prop("etag", odata.Int32(3)), prop("Etag", odata.Int32(4)))
	}
	mustWrite(t, db, "Ord", backend.OpInsert, given("p", "insert"))
	if got := names("p", "insert"); got != "sex,age,Birthday,ETag,etag,Etag" {
		t.Errorf("after insert: %s", got)
	}
	const sorted = "Birthday,ETag,Etag,age,etag,sex"
	for _, k := range []backend.OpKind{backend.OpInsertOrReplace, backend.OpInsertOrMerge} {
		rk := k.String()
		mustWrite(t, db, "Ord", k, given("p", rk))
		if got := names("p", rk); got != sorted {
			t.Errorf("after %s: %s", k, got)
		}
	}
	mustWrite(t, db, "Ord", backend.OpMerge, ent("p", "insert", prop("aardvark", odata.Int32(5))))
	if got := names("p", "insert"); got != "Birthday,ETag,Etag,aardvark,age,etag,sex" {
		t.Errorf("after merge: %s", got)
	}
	if _, err := db.Batch(ctx, "Ord", []backend.Operation{{Kind: backend.OpReplace, Entity: given("p", "insert"), IfMatch: "*"}}); err != nil {
		t.Fatal(err)
	}
	if got := names("p", "insert"); got != sorted {
		t.Errorf("after a batch's replace: %s", got)
	}
	// A load merging into stored entities (staged or not: the table is not empty).
	mustWrite(t, db, "Ord", backend.OpInsert, ent("p", "loaded", prop("b", odata.Int32(1)), prop("a", odata.Int32(2))))
	for _, k := range []backend.OpKind{backend.OpInsertOrMerge, backend.OpMerge} {
		if _, err := db.Load(ctx, "Ord", k, sliceSource([]*odata.Entity{ent("p", "loaded", prop("C", odata.Int32(3)))}), backend.LoadOptions{}); err != nil {
			t.Fatal(err)
		}
		if got := names("p", "loaded"); got != "C,a,b" {
			t.Errorf("after a load's %s: %s", k, got)
		}
	}
}
