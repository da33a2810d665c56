package store

import (
	"fmt"
	"strings"
	"testing"

	"github.com/tstable/tstable/backend"
	"github.com/tstable/tstable/store/internal/repair"

	"github.com/tstable/tstable/odata"
)

// costsOf is what Check says losing each page would cost, one a line.
func costsOf(t *testing.T, path string) []repair.PageCost {
	t.Helper()
	rep, err := Check(ctx, path, nil)
	if err != nil {
		t.Fatal(err)
	}
	if !rep.OK() {
		t.Fatalf("the file is not sound: %v", rep.Problems)
	}
	return rep.Costs
}

// costFor is the cost whose Holds starts with holds, or fails.
func costFor(t *testing.T, cs []repair.PageCost, holds string) repair.PageCost {
	t.Helper()
	for _, c := range cs {
		if strings.HasPrefix(c.Holds, holds) {
			return c
		}
	}
	t.Fatalf("no cost for %q in:\n%s", holds, costLines(cs))
	return repair.PageCost{}
}

func costLines(cs []repair.PageCost) string {
	var b strings.Builder
	for _, c := range cs {
		fmt.Fprintln(&b, c)
	}
	return b.String()
}

// Check says, of a sound file, which pages others need and what their
// loss would cost: the list of tables and the file's records nothing
// (the header's copy holds the names), a branch nothing but the place of
// entities another table's dictionary reads too, and any other page its
// own entities only.
func TestCheckSaysWhatEachPageCosts(t *testing.T) {
	path := manyCommitFile(t)
	cs := costsOf(t, path)
	list := costFor(t, cs, "the list of tables")
	if list.Entities != 0 || !strings.Contains(list.Costs, "no entity, and no table's name") {
		t.Errorf("the list of tables: %s", list)
	}
	for _, c := range cs {
		if !strings.HasPrefix(c.Holds, "the branch") {
			continue
		}
		shared := strings.Contains(c.Costs, "LostAndFound")
		if shared != (c.Table != "Logs") { // People's and Orders' shapes have the same types
			t.Errorf("%s", c)
		}
	}
	leaf := cs[len(cs)-1]
	if len(leaf.Pages) != 0 || leaf.Entities < 10 || !strings.Contains(leaf.Costs, "its own entities only, at most") {
		t.Errorf("the last cost is not any other page's: %s", leaf)
	}
	// The costs said are the costs met: losing Logs's branches costs no entity.
	logs := costFor(t, cs, "the branch of table Logs")
	p := copyFile(t, path, "branchless.db")
	for _, id := range logs.Pages {
		writeAt(t, p, make([]byte, 4096), int64(id)*4096)
	}
	out := dbPath(t, "saved.db")
	if _, err := Recover(ctx, p, out, nil); err != nil {
		t.Fatal(err)
	}
	if got, want := len(contents(t, out)["Logs"]), len(contents(t, path)["Logs"]); got != want {
		t.Errorf("Logs's branch lost: %d of %d entities saved in Logs", got, want)
	}
}

// A table whose dictionary outgrows the header's spare room (written
// before dictionaries were bound by the copy: see gtx.spareHolds) has its
// last shapes on the pages of the bucket alone: Check names each such
// page and the entities whose names its loss costs, as many as recover
// then saves without their names.
func TestCheckNamesTheOnlyCopyOfADictionaryPastTheSpareRoom(t *testing.T) {
	path := dbPath(t, "wide.db")
	db, err := Open(path, &Options{copyUnbound: true})
	if err != nil {
		t.Fatal(err)
	}
	newTable(t, db, "Wide")
	for i := range 120 { // 120 shapes of ~60 bytes each: more than a page of 4096 bytes holds
		name := fmt.Sprintf("Property_%03d_%s", i, strings.Repeat("x", 40))
		for j := range 2 {
			mustWrite(t, db, "Wide", backend.OpInsert, ent("p", fmt.Sprintf("r%03d-%d", i, j), prop(name, odata.Int32(int32(i)))))
		}
	}
	db.Close()
	cs := costsOf(t, path)
	var only []repair.PageCost
	var named int64
	for _, c := range cs {
		if strings.HasPrefix(c.Holds, "the only copy of shapes") {
			only = append(only, c)
			named += c.Entities
			if c.Table != "Wide" || !strings.Contains(c.Holds, "past the header's spare room") || c.Costs != fmt.Sprintf("the names of %d entities", c.Entities) {
				t.Errorf("%s", c)
			}
		}
	}
	if len(only) == 0 || named == 0 || named%2 != 0 {
		t.Fatalf("no page named as the only copy of shapes (or an odd count of entities, two a shape):\n%s", costLines(cs))
	}
	// Losing that page costs those entities' names, and no more.
	p := copyFile(t, path, "lost.db")
	ps := int64(4096)
	for _, c := range only {
		writeAt(t, p, make([]byte, ps), int64(c.Pages[0])*ps)
	}
	out := dbPath(t, "saved.db")
	if _, err := Recover(ctx, p, out, nil); err != nil {
		t.Fatal(err)
	}
	got := contents(t, out)
	if n := int64(240) - int64(len(got["Wide"])); n != named {
		t.Errorf("recover saved %d of 240 entities in Wide: %d lost their names, check said %d", len(got["Wide"]), n, named)
	}
}
