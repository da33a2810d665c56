package store

import (
	"reflect"
	"strings"
	"testing"

	"github.com/tstable/tstable/backend"
	"github.com/tstable/tstable/odata"
)

func TestTableNames(t *testing.T) {
	db, _ := openTemp(t)
	for _, bad := range []string{"ab", "1abc", "has-dash", "has_underscore", strings.Repeat("a", 64), "tables", "Tables", ""} {
		wantCode(t, db.CreateTable(ctx, bad), odata.CodeInvalidResourceName, 400)
	}
	for _, good := range []string{"abc", "Employees", "a" + strings.Repeat("1", 62)} {
		if err := db.CreateTable(ctx, good); err != nil {
			t.Fatalf("%s: %v", good, err)
		}
	}
}

func TestTablesCaseInsensitiveButKeepCase(t *testing.T) {
	db, _ := openTemp(t)
	newTable(t, db, "Employees")
	e := wantCode(t, db.CreateTable(ctx, "EMPLOYEES"), odata.CodeTableAlreadyExists, 409)
	if !strings.Contains(e.Message, `"Employees"`) {
		t.Errorf("message should name the existing table: %s", e.Message)
	}
	newTable(t, db, "apples")
	names, _ := db.ListTables(ctx)
	if !reflect.DeepEqual(names, []string{"apples", "Employees"}) {
		t.Fatalf("list = %v", names)
	}
	mustWrite(t, db, "employees", backend.OpInsert, ent("p", "r"))
	if _, err := db.Get(ctx, "EMPLOYEES", "p", "r"); err != nil {
		t.Fatalf("lookup ignoring case: %v", err)
	}
}

func TestDeleteTableDropsEntities(t *testing.T) {
	db, _ := openTemp(t)
	newTable(t, db, "Logs")
	for i := 0; i < 50; i++ {
		mustWrite(t, db, "Logs", backend.OpInsert, ent("p", string(rune('a'+i%26))+strings.Repeat("x", i)))
	}
	if err := db.DeleteTable(ctx, "logs"); err != nil {
		t.Fatal(err)
	}
	wantCode(t, db.DeleteTable(ctx, "Logs"), odata.CodeResourceNotFound, 404)
	_, err := db.Get(ctx, "Logs", "p", "a")
	wantCode(t, err, odata.CodeTableNotFound, 404)
	newTable(t, db, "Logs")
	if n := len(dump(t, db, "Logs")); n != 0 {
		t.Fatalf("recreated table has %d entities", n)
	}
}

func TestMissingTable(t *testing.T) {
	db, _ := openTemp(t)
	_, err := db.Write(ctx, "Nope", backend.Operation{Kind: backend.OpInsert, Entity: ent("p", "r")})
	wantCode(t, err, odata.CodeTableNotFound, 404)
	_, err = db.Query(ctx, "Nope", backend.QueryRequest{}, nil)
	wantCode(t, err, odata.CodeTableNotFound, 404)
	_, err = db.Batch(ctx, "Nope", []backend.Operation{{Kind: backend.OpInsert, Entity: ent("p", "r")}})
	wantCode(t, err, odata.CodeTableNotFound, 404)
}
