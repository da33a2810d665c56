package store

import (
	"bytes"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/tstable/tstable/backend"
	"github.com/tstable/tstable/store/internal/boltfile"
	"github.com/tstable/tstable/store/internal/repair"
	"github.com/tstable/tstable/store/internal/values"

	"github.com/tstable/tstable/odata"
)

// recoverTo recovers path into a new file and checks that the new file
// passes Check and that the damaged one did not change.
func recoverTo(t *testing.T, path string) (*repair.RecoverReport, string) {
	t.Helper()
	before := readAll(t, path)
	out := dbPath(t, "recovered.db")
	rep, err := Recover(ctx, path, out, nil)
	if err != nil {
		t.Fatal(err)
	}
	if !bytes.Equal(before, readAll(t, path)) {
		t.Fatal("Recover changed the damaged file")
	}
	if chk := mustCheck(t, out); !chk.OK() {
		t.Fatalf("the recovered file has problems: %v", chk.Problems)
	}
	return rep, out
}

// sameEntity reports whether two entities are equal, Timestamp included.
func sameEntity(a, b *odata.Entity) bool {
	return string(odata.AppendEntityJSON(nil, a)) == string(odata.AppendEntityJSON(nil, b))
}

// wantSaved fails unless got holds exactly the entities of want except
// those listed in lost, each equal to the original.
func wantSaved(t *testing.T, want, got map[string]map[string]*odata.Entity, lost map[string]bool) {
	t.Helper()
	for table, es := range want {
		for k, e := range es {
			g := got[table][k]
			switch {
			case lost[table+" "+k] && g != nil:
				t.Errorf("%s %s was on a damaged page, yet it was saved", table, k)
			case !lost[table+" "+k] && g == nil:
				t.Errorf("%s %s was not saved", table, k)
			case g != nil && !sameEntity(e, g):
				t.Errorf("%s %s differs:\n%s\n%s", table, k, odata.AppendEntityJSON(nil, e), odata.AppendEntityJSON(nil, g))
			}
		}
		if extra := len(got[table]) - (len(es) - countPrefix(lost, table+" ")); extra != 0 {
			t.Errorf("%s: %d entities more than expected", table, extra)
		}
	}
}

func countPrefix(m map[string]bool, p string) int {
	n := 0
	for k := range m {
		if strings.HasPrefix(k, p) {
			n++
		}
	}
	return n
}

func savedCounts(r *repair.RecoverReport) string {
	var s []string
	for _, t := range r.Tables {
		s = append(s, fmt.Sprintf("%s %d/%d", t.Name, t.Saved, t.Unlinked))
	}
	return strings.Join(s, ", ")
}

func TestRecoverASoundFileCopiesEverything(t *testing.T) {
	path := fixture(t)
	rep, out := recoverTo(t, path)
	if !rep.Complete() || savedCounts(rep) != "Alpha 3000/0, Beta 350/0, Gamma 3/0" {
		t.Fatalf("%s; problems %v", savedCounts(rep), rep.Problems)
	}
	wantSaved(t, contents(t, path), contents(t, out), nil)
	// The new file's clock is past every Timestamp it holds.
	db, err := Open(out, nil)
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	w := mustWrite(t, db, "Gamma", backend.OpInsert, ent("new", "one"))
	for _, e := range dump(t, db, "Alpha") {
		if !w.Timestamp.After(e.Timestamp) {
			t.Fatalf("a new write's Timestamp %v is not after %v", w.Timestamp, e.Timestamp)
		}
	}
}

func TestRecoverSkipsDamagedLeavesAndSavesTheRest(t *testing.T) {
	path := fixture(t)
	want := contents(t, path)
	raw := openRaw(t, path)
	lost := map[string]bool{}
	var pages []uint64
	for _, d := range []struct {
		table string
		i     int
	}{{"Alpha", 10}, {"Alpha", 2500}, {"Beta", 200}} {
		e := fixtureEntity(d.table, d.i)
		leaf, keys := raw.leafOf(d.table, e.PartitionKey, e.RowKey)
		for _, k := range keys {
			lost[d.table+" "+k] = true
		}
		pages = append(pages, leaf)
	}
	for i, p := range pages {
		smash(t, path, p, int64(10+i))
	}
	rep, out := recoverTo(t, path)
	wantSaved(t, want, contents(t, out), lost)
	if rep.Complete() || len(rep.Problems) != 3 {
		t.Fatalf("want three skipped ranges, got %v", rep.Problems)
	}
	for i, p := range rep.Problems {
		if p.Page != int64(pages[i]) || !p.Lost || p.Keys == nil {
			t.Errorf("problem %d: %s; want page %d", i, p, pages[i])
		}
		for k := range lost {
			table, key, _ := strings.Cut(k, " ")
			if table == p.Table && raw.pageOfKey(table, key) == pages[i] && !inRange(p.Keys, key) {
				t.Errorf("%s does not cover %s", p, key)
			}
		}
	}
	wantCounts := fmt.Sprintf("Alpha %d/0, Beta %d/0, Gamma 3/0", 3000-countPrefix(lost, "Alpha "), 350-countPrefix(lost, "Beta "))
	if savedCounts(rep) != wantCounts {
		t.Fatalf("saved %s, want %s", savedCounts(rep), wantCounts)
	}
}

// pageOfKey finds the leaf holding key "pk/rk".
func (f *rawFile) pageOfKey(table, key string) uint64 {
	pk, rk, _ := strings.Cut(key, "/")
	id, _ := f.leafOf(table, pk, rk)
	return id
}

func TestRecoverFindsTheLeavesBelowADamagedBranch(t *testing.T) {
	path := fixture(t)
	want := contents(t, path)
	raw := openRaw(t, path)
	root := raw.tableRoot("Alpha")
	h, es := raw.elems(root)
	if h.Flags != boltfile.FlagBranch {
		t.Fatal("Alpha's root is not a branch")
	}
	branch := es[1].Child // a branch below the root, or a leaf in a shallower tree
	below := raw.keysBelow(branch)
	smash(t, path, branch, 20)
	rep, out := recoverTo(t, path)
	wantSaved(t, want, contents(t, out), nil) // every leaf is intact
	if rep.Complete() || len(rep.Problems) != 1 {
		t.Fatalf("problems %v", rep.Problems)
	}
	p := rep.Problems[0]
	if p.Table != "Alpha" || p.Page != int64(branch) || !strings.Contains(p.What, fmt.Sprintf("%d entities in this range were found on pages no longer linked to the table", len(below))) {
		t.Fatalf("problem: %s", p)
	}
	if rep.Tables[0].Unlinked != int64(len(below)) {
		t.Fatalf("unlinked %d, want %d", rep.Tables[0].Unlinked, len(below))
	}
}

// A file cut short: what the pages left hold is saved. In format 2 the
// entities of a table need its dictionary, which a cut may take with it
// (in this file, whose dictionaries were last written near its end, the
// cut at half does): then what the cut left of them is reported lost,
// page by page, and nothing wrong is saved.
func TestRecoverACutFile(t *testing.T) {
	for _, v := range []uint64{1, values.FormatVersion} {
		t.Run(fmt.Sprintf("format %d", v), func(t *testing.T) { recoverACutFile(t, v) })
	}
}

func recoverACutFile(t *testing.T, v uint64) {
	path := fixtureIn(t, v)
	want := contents(t, path)
	raw := openRaw(t, path)
	used := int64(raw.h.Meta().Pgid) * raw.h.PageSize
	for _, cut := range []int64{used / 2, used - raw.h.PageSize} {
		p := copyFile(t, path, "cut.db")
		truncate(t, p, cut)
		rep, out := recoverTo(t, p)
		got := contents(t, out)
		saved := 0
		for table, es := range got {
			for k, e := range es {
				w := want[table][k]
				if table == "LostAndFound" { // its table is unknown, and it may be a deleted one
					pk, rk, _ := strings.Cut(k, "/")
					for _, orig := range []string{"Alpha", "Beta", "Gamma"} {
						if strings.HasPrefix(rk, strings.ToLower(orig)) {
							var n int
							fmt.Sscanf(rk[len(orig)+1:], "%d", &n)
							if w = fixtureEntity(orig, n); w.PartitionKey != pk {
								w = nil
							} else {
								w.Timestamp = e.Timestamp
							}
						}
					}
				}
				if w == nil || !sameEntity(w, e) {
					t.Errorf("%s %s was saved but is not what the file held", table, k)
				}
				saved++
			}
		}
		if saved == 0 && v >= 2 && cut < used-raw.h.PageSize && !dictionaryLost(rep) {
			t.Fatalf("cut at %d: nothing saved, and no problem says a dictionary was lost: %v", cut, rep.Problems)
		}
		if rep.Complete() || saved == 0 && (v < 2 || cut == used-raw.h.PageSize) {
			t.Fatalf("cut at %d: saved %d (%s), problems %v", cut, saved, savedCounts(rep), rep.Problems)
		}
		t.Logf("cut at %d of %d: saved %s", cut, used, savedCounts(rep))
	}
}

// dictionaryLost reports whether a problem of rep says that entities
// were lost with their table's dictionary.
func dictionaryLost(rep *repair.RecoverReport) bool {
	for _, p := range rep.Problems {
		if strings.Contains(p.What, "name shapes no readable dictionary holds") {
			return true
		}
	}
	return false
}

func TestRecoverWritesOnlyANewFile(t *testing.T) {
	path := fixture(t)
	other := fixture(t)
	_, err := Recover(ctx, path, other, nil)
	if err == nil || !strings.Contains(err.Error(), other+" already exists") {
		t.Fatalf("recovering over an existing file: %v", err)
	}
	empty := filepath.Join(t.TempDir(), "empty.db")
	os.WriteFile(empty, nil, 0o644)
	_, err = Recover(ctx, empty, filepath.Join(t.TempDir(), "x.db"), nil)
	wantDamaged(t, err, "nothing in "+empty+" can be recovered")
}

// savedTotal is the entities Recover saved over every table.
func savedTotal(r *repair.RecoverReport) int64 {
	var n int64
	for _, t := range r.Tables {
		n += t.Saved
	}
	return n
}

// With the list of tables lost, the rows of an import killed while it
// staged are found on pages no longer linked; they were never committed,
// so Recover leaves them behind and says so, instead of putting them in
// the table (or LostAndFound).
func TestRecoverLeavesTheRowsOfAnUnfinishedImport(t *testing.T) {
	path := newFile(t)
	seen := killAfterCommits(t, "stage", path, 1000)
	db, err := Open(path, &Options{ReadOnly: true}) // opening to write would remove the staging
	if err != nil {
		t.Fatal(err)
	}
	left := stagingBuckets(t, db)
	db.Close()
	if len(left) != 1 {
		t.Fatalf("staging buckets after the kill: %v; want the one the killed load left", left)
	}
	smash(t, path, openRaw(t, path).h.Meta().Root, 31)
	rep, out := recoverTo(t, path)
	if n := savedTotal(rep); n != 0 {
		t.Fatalf("%d entities saved (%s); want none: the table was empty when the import was killed", n, savedCounts(rep))
	}
	if len(rep.Unfinished) != 1 {
		t.Fatalf("unfinished imports: %+v", rep.Unfinished)
	}
	u := rep.Unfinished[0]
	if u.Table != "slow" || u.Rows < seen || u.Rows%100 != 0 || len(u.Pages) == 0 {
		t.Fatalf("unfinished import %+v; want table slow, whole chunks of 100, at least the %d staged", u, seen)
	}
	if s := u.String(); !strings.Contains(s, "never committed") || !strings.Contains(s, "were not saved") {
		t.Fatalf("it says %q", s)
	}
	if tables := contents(t, out); len(tables["Slow"])+len(tables["slow"])+len(tables["LostAndFound"]) != 0 {
		t.Fatalf("the recovered file holds staged rows: %v", savedCounts(rep))
	}
}

// The pages of an import that finished staging are the table's: the
// staging bucket's page was freed when its tree moved into the table, so
// Recover saves the rows even when the list of tables is lost.
func TestRecoverSavesTheRowsOfAFinishedStagedImport(t *testing.T) {
	path := newFile(t)
	db, err := Open(path, &Options{loadChunk: 100})
	if err != nil {
		t.Fatal(err)
	}
	want := sortedEntities(5000)
	if res, err := db.Load(ctx, "Slow", backend.OpInsert, sliceSource(want), backend.LoadOptions{}); err != nil || res.Written != 5000 {
		t.Fatalf("load: %+v %v", res, err)
	}
	db.Close()
	smash(t, path, openRaw(t, path).h.Meta().Root, 32)
	rep, _ := recoverTo(t, path)
	if len(rep.Unfinished) != 0 {
		t.Fatalf("a finished import reported unfinished: %+v", rep.Unfinished)
	}
	if n := savedTotal(rep); n != 5000 {
		t.Fatalf("%d entities saved (%s); want all 5000", n, savedCounts(rep))
	}
}
