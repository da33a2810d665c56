package server

import (
	"context"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/tstable/tstable/odata"
	"github.com/tstable/tstable/store"
)

// A further account's tables live under its prefix, say their own names in
// errors, and may be only as long as the prefix leaves; the first account
// neither lists nor creates names under another's prefix.
func TestNamespaceOfAFurtherAccount(t *testing.T) {
	db, err := store.Open(filepath.Join(t.TempDir(), "ns.db"), nil)
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	ctx := context.Background()
	bobPrefix := NamespacePrefix("bob")
	if bobPrefix != "x03bob" {
		t.Fatalf("NamespacePrefix(bob) = %q", bobPrefix)
	}
	first := namespace{Backend: db, hide: []string{bobPrefix}}
	bob := namespace{Backend: db, prefix: bobPrefix}

	if err := bob.CreateTable(ctx, "Invoices"); err != nil {
		t.Fatal(err)
	}
	if err := first.CreateTable(ctx, "Orders"); err != nil {
		t.Fatal(err)
	}
	all, _ := db.ListTables(ctx)
	if !slices.Equal(all, []string{"Orders", "x03bobInvoices"}) {
		t.Errorf("the file holds %v", all)
	}
	if got, _ := first.ListTables(ctx); !slices.Equal(got, []string{"Orders"}) {
		t.Errorf("the first account lists %v", got)
	}
	if got, _ := bob.ListTables(ctx); !slices.Equal(got, []string{"Invoices"}) {
		t.Errorf("bob lists %v", got)
	}
	err = bob.CreateTable(ctx, "Invoices")
	if !odata.IsCode(err, odata.CodeTableAlreadyExists) || strings.Contains(err.Error(), bobPrefix) {
		t.Errorf("bob's second Invoices: %v", err)
	}
	long := "T" + strings.Repeat("a", 62) // 63: valid on its own
	if err := bob.CreateTable(ctx, long); !odata.IsCode(err, odata.CodeInvalidResourceName) || !strings.Contains(err.Error(), "NAME may have 57") {
		t.Errorf("a 63-character name for bob: %v", err)
	}
	if err := first.CreateTable(ctx, "X03BOBmine"); !odata.IsCode(err, odata.CodeInvalidResourceName) {
		t.Errorf("the first account creating under bob's prefix: %v", err)
	}
	if _, err := first.Get(ctx, "x03bobInvoices", "p", "r"); !odata.IsCode(err, odata.CodeResourceNotFound) {
		t.Errorf("the first account reading bob's table: %v", err)
	}
}
