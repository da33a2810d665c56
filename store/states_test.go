package store

import (
	"fmt"
	"strings"
	"testing"

	"github.com/tstable/tstable/backend"
)

// clockOf reads the file's clock through db.
func clockOf(t *testing.T, db *DB) int64 {
	t.Helper()
	var clock int64
	if err := db.do(false, func(o *op) error {
		return o.view(func(tx *gtx) (err error) {
			clock, err = tx.clock()
			return err
		})
	}); err != nil {
		t.Fatal(err)
	}
	return clock
}

// Every committed write advances the file's clock, those that write no
// entity too (a table created or deleted, an import's staged rows put in
// place), so that the clock orders the file's states.
func TestEveryCommitAdvancesTheClock(t *testing.T) {
	db, _ := openTemp(t)
	last := clockOf(t, db)
	step := func(what string, fn func() error) {
		t.Helper()
		if err := fn(); err != nil {
			t.Fatal(err)
		}
		if c := clockOf(t, db); c <= last {
			t.Fatalf("%s left the clock at %d (it was %d)", what, c, last)
		} else {
			last = c
		}
	}
	step("create", func() error { return db.CreateTable(ctx, "Aaa") })
	step("create", func() error { return db.CreateTable(ctx, "Bbb") })
	step("staged import", func() error {
		_, err := db.Load(ctx, "Aaa", backend.OpInsert, sliceSource(sortedEntities(300)), backend.LoadOptions{})
		return err
	})
	step("delete", func() error { return db.DeleteTable(ctx, "Bbb") })
}

// smashHeaders overwrites both copies of the file's header: every data
// page is intact.
func smashHeaders(t *testing.T, path string) {
	t.Helper()
	raw := openRaw(t, path)
	for _, id := range []uint64{0, 1} {
		writeAt(t, path, []byte(strings.Repeat("\xA5", int(raw.h.PageSize))), int64(id)*raw.h.PageSize)
	}
}

// With both copies of the header destroyed and every data page intact,
// Recover finds the newest state of the file by scanning its pages and
// saves every entity, as the file held them, and says how it found them;
// Check reads that state too.
func TestRecoverWithBothHeadersDestroyed(t *testing.T) {
	path := fixture(t)
	want := contents(t, path)
	smashHeaders(t, path)
	_, err := Open(path, &Options{ReadOnly: true})
	wantDamaged(t, err, "tstable recover "+path)
	rep, out := recoverTo(t, path)
	wantSaved(t, want, contents(t, out), nil)
	if !rep.Complete() || len(rep.Notes) != 1 || !strings.Contains(rep.Notes[0], "newest state of the file") {
		t.Fatalf("problems %v, notes %q", rep.Problems, rep.Notes)
	}
	chk := mustCheck(t, path)
	var tables []string
	for _, tr := range chk.Tables {
		tables = append(tables, fmt.Sprintf("%s %d", tr.Name, tr.Entities))
	}
	if fmt.Sprint(tables) != "[Alpha 3000 Beta 350 Gamma 3]" || len(chk.Problems) != 1 || !strings.Contains(chk.Problems[0].What, "the newest") {
		t.Fatalf("check: tables %v, problems %v", tables, chk.Problems)
	}
}

// The same for a file of 30,000 entities loaded in key order.
func TestRecoverALargeFileWithBothHeadersDestroyed(t *testing.T) {
	db, path := benchTable(t, 30_000)
	mustWrite(t, db, "Bench", backend.OpDelete, ent(benchEntity(7).PartitionKey, benchEntity(7).RowKey))
	db.Close()
	want := contents(t, path)
	smashHeaders(t, path)
	rep, out := recoverTo(t, path)
	wantSaved(t, want, contents(t, out), nil)
	if savedTotal(rep) != 29_999 || !rep.Complete() {
		t.Fatalf("saved %s; problems %v", savedCounts(rep), rep.Problems)
	}
}

// An import that finished (its staged rows put in place in its last
// commit) does not vanish when the newest copy of the header is damaged:
// the readable copy describes the state before that commit (the table
// empty, the rows staged), and Recover reads the newer state the pages
// hold instead, saying so.
func TestADamagedNewestHeaderKeepsTheLastImport(t *testing.T) {
	path := newFile(t)
	db, err := Open(path, &Options{loadChunk: 1000})
	if err != nil {
		t.Fatal(err)
	}
	if res, err := db.Load(ctx, "Slow", backend.OpInsert, sliceSource(sortedEntities(5000)), backend.LoadOptions{}); err != nil || res.Written != 5000 {
		t.Fatalf("load: %+v %v", res, err)
	}
	db.Close()
	raw := openRaw(t, path)
	newest := raw.h.Use
	writeAt(t, path, []byte("garbage!"), int64(newest)*raw.h.PageSize+16+20)
	rep, out := recoverTo(t, path)
	if n := len(contents(t, out)["Slow"]); n != 5000 || savedTotal(rep) != 5000 {
		t.Fatalf("the table holds %d (%s); want the 5000 the import committed", n, savedCounts(rep))
	}
	if len(rep.Notes) != 1 || !strings.Contains(rep.Notes[0], "older state") {
		t.Fatalf("notes %q", rep.Notes)
	}
}

// Recover and Check report the rows of an import killed while it staged,
// with their count, when the file still holds its staging (no open for
// writing has removed it), and save none of them.
func TestTheRowsOfAKilledImportAreReported(t *testing.T) {
	path := newFile(t)
	seen := killAfterCommits(t, "stage", path, 1000)
	chk := mustCheck(t, path)
	if !chk.OK() || len(chk.Unfinished) != 1 {
		t.Fatalf("check: problems %v, unfinished %+v", chk.Problems, chk.Unfinished)
	}
	u := chk.Unfinished[0]
	if u.Table != "slow" || u.Rows < seen || u.Rows%100 != 0 || len(u.Pages) == 0 || !strings.Contains(u.InFile(), fmt.Sprintf("%d rows", u.Rows)) {
		t.Fatalf("check's unfinished import %+v; want table slow, whole chunks of 100, at least the %d staged", u, seen)
	}
	rep, out := recoverTo(t, path)
	if !rep.Complete() || len(rep.Unfinished) != 1 || rep.Unfinished[0].Rows != u.Rows {
		t.Fatalf("recover: problems %v, unfinished %+v; want %d rows", rep.Problems, rep.Unfinished, u.Rows)
	}
	if n := len(contents(t, out)["Slow"]); n != 0 {
		t.Fatalf("the recovered table holds %d staged rows", n)
	}
}
