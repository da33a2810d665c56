package store

import (
	"fmt"
	"strings"
	"testing"

	"github.com/tstable/tstable/backend"

	"github.com/tstable/tstable/odata"
)

// twoCommits writes a file whose newest commit inserts ("p", "newest")
// into People, after ("p", "older"): it returns the file, the page of
// the newest commit's header and that commit's number.
func twoCommits(t *testing.T) (path string, page int, txid uint64) {
	t.Helper()
	path = dbPath(t, "torn.db")
	db, err := Open(path, nil)
	if err != nil {
		t.Fatal(err)
	}
	newTable(t, db, "People")
	mustWrite(t, db, "People", backend.OpInsert, ent("p", "older", prop("N", odata.Int32(1))))
	mustWrite(t, db, "People", backend.OpInsert, ent("p", "newest", prop("N", odata.Int32(2))))
	db.Close()
	raw := openRaw(t, path)
	return path, raw.h.Use, raw.h.Meta().TxID
}

// When the newest commit's header is damaged, the file opens at the
// commit before, and the DB says so (both commits, check and recover),
// calmly: a crash while committing tears it. Recover brings the newest
// commit's entity back. A damaged older copy is no news.
func TestADamagedNewestHeaderIsSaid(t *testing.T) {
	for _, how := range []string{"torn", "zeroed"} {
		t.Run(how, func(t *testing.T) {
			path, page, txid := twoCommits(t)
			ps := int64(4096)
			if how == "torn" { // the meta's first bytes written, the rest not
				writeAt(t, path, []byte("garbage!"), int64(page)*ps+16+20)
			} else {
				writeAt(t, path, make([]byte, ps), int64(page)*ps)
			}
			db, err := Open(path, &Options{ReadOnly: true})
			if err != nil {
				t.Fatal(err)
			}
			note := db.HeaderNote()
			_, gerr := db.Get(ctx, "People", "p", "newest")
			db.Close()
			for _, want := range []string{fmt.Sprintf("opened at commit %d, the one before its newest", txid-1), fmt.Sprintf("the header of commit %d is damaged, as a crash while committing leaves it", txid), "tstable recover " + path + " NEW brings it back", "tstable check " + path} {
				if !strings.Contains(note, want) {
					t.Errorf("note %q lacks %q", note, want)
				}
			}
			if !odata.IsCode(gerr, odata.CodeResourceNotFound) {
				t.Errorf("the newest commit's entity read at the commit before: %v", gerr)
			}
			_, out := recoverTo(t, path)
			if got := contents(t, out)["People"]; got["p/newest"] == nil || got["p/older"] == nil {
				t.Errorf("recover saved %v; want both commits' entities", sortedKeys(got))
			}
		})
	}
	t.Run("older", func(t *testing.T) {
		path, page, _ := twoCommits(t)
		writeAt(t, path, make([]byte, 4096), int64(1-page)*4096)
		db, err := Open(path, &Options{ReadOnly: true})
		if err != nil {
			t.Fatal(err)
		}
		defer db.Close()
		if note := db.HeaderNote(); note != "" {
			t.Errorf("a damaged older header is said: %q", note)
		}
	})
}
