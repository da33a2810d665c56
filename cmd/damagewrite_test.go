package cmd

import (
	"bytes"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

// A write to a leaf whose count of overflow pages runs past the file is
// refused as DatabaseDamaged before the engine touches the page (the
// engine, freeing the leaf's pages one by one, spent hours on 2^31 of
// them), and the file is left as it was.
func TestAWriteToALeafWithAHugeOverflowCountIsRefused(t *testing.T) {
	db := filepath.Join(t.TempDir(), "t.db")
	bigTable(t, db)
	hugeOverflow(t, db)
	before, err := os.ReadFile(db)
	if err != nil {
		t.Fatal(err)
	}
	type result struct {
		errOut string
		status int
	}
	done := make(chan result, 1)
	go func() {
		_, errOut, st := runDamage(db, "", "upsert", "Big", `{"PartitionKey":"p3","RowKey":"k0123","Text":"new"}`)
		done <- result{errOut, st}
	}()
	select {
	case r := <-done:
		if r.status == 0 || !strings.Contains(r.errOut, "DatabaseDamaged") || !strings.Contains(r.errOut, "pages, past the") {
			t.Errorf("upsert: exit %d\n%s", r.status, r.errOut)
		}
	case <-time.After(20 * time.Second):
		t.Fatal("the upsert still runs after 20 s")
	}
	after, err := os.ReadFile(db)
	if err != nil {
		t.Fatal(err)
	}
	if !bytes.Equal(before, after) {
		t.Error("the refused write changed the file")
	}
}
