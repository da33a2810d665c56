package cmd

import (
	"encoding/binary"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// tearNewestHeader damages the meta of the newest commit as a crash
// while the engine writes it does (its first bytes written, the rest
// not), and returns the numbers of that commit and the one before.
func tearNewestHeader(t *testing.T, db string) (newest, before uint64) {
	t.Helper()
	data, err := os.ReadFile(db)
	if err != nil {
		t.Fatal(err)
	}
	ps := int64(os.Getpagesize())
	use := int64(0)
	tx0, tx1 := binary.LittleEndian.Uint64(data[16+48:]), binary.LittleEndian.Uint64(data[ps+16+48:])
	if tx1 > tx0 {
		use = 1
	}
	copy(data[use*ps+16+20:], "garbage!")
	if err := os.WriteFile(db, data, 0o644); err != nil {
		t.Fatal(err)
	}
	return max(tx0, tx1), min(tx0, tx1)
}

// When the newest commit's header is damaged, every command that opens
// the file says once, on stderr, that it opened at the commit before,
// with both numbers, and points at check and recover; status shows it;
// serve says it at its start; recover brings the newest commit back.
func TestADamagedNewestHeaderIsSaidByEveryCommand(t *testing.T) {
	dir := t.TempDir()
	db := filepath.Join(dir, "t.db")
	mustRun(t, db, "", "table", "create", "People")
	mustRun(t, db, `{"PartitionKey":"p","RowKey":"older"}`, "upsert", "People")
	mustRun(t, db, `{"PartitionKey":"p","RowKey":"newest"}`, "upsert", "People")
	newest, before := tearNewestHeader(t, db)
	want := []string{
		fmt.Sprintf("note: database %s opened at commit %d, the one before its newest: the header of commit %d is damaged, as a crash while committing leaves it", db, before, newest),
		"tstable recover " + db + " NEW brings it back", "tstable check " + db + " says more",
	}
	says := func(what, errOut string) {
		t.Helper()
		for _, w := range want {
			if strings.Count(errOut, w) != 1 {
				t.Errorf("%s: stderr says %d times %q:\n%s", what, strings.Count(errOut, w), w, errOut)
			}
		}
	}
	out, errOut, st := runDamage(db, "", "query", "People", "--all", "-o", "csv")
	if st != 0 || strings.Contains(out, "newest") || !strings.Contains(out, "older") {
		t.Errorf("query: exit %d, %q", st, out)
	}
	says("query", errOut)
	out, _, st = runDamage(db, "", "status")
	if st != 0 || !strings.Contains(out, fmt.Sprintf("opened at commit %d", before)) {
		t.Errorf("status: exit %d\n%s", st, out)
	}
	stop := serveInBackground(t, db)
	errOut, _ = stop()
	says("serve", errOut)
	saved := filepath.Join(dir, "saved.db")
	runDamage(db, "", "recover", db, saved)
	if out := mustRun(t, saved, "", "query", "People", "--all", "-o", "csv"); !strings.Contains(out, "newest") || !strings.Contains(out, "older") {
		t.Errorf("recover saved:\n%s", out)
	}
	// The next write goes on at the commit before, and the note with it.
	_, errOut, st = runDamage(db, `{"PartitionKey":"p","RowKey":"after"}`, "upsert", "People")
	if st != 0 {
		t.Errorf("upsert: exit %d\n%s", st, errOut)
	}
	says("upsert", errOut)
	if _, errOut, _ := runDamage(db, "", "query", "People", "--all"); strings.Contains(errOut, "note:") {
		t.Errorf("after a write both headers are whole, and stderr still says:\n%s", errOut)
	}
}
