package store

import (
	"fmt"
	"strings"
	"testing"

	"github.com/tstable/tstable/backend"
	"github.com/tstable/tstable/odata"
	"github.com/tstable/tstable/store/internal/repair"
)

// A table of 150 shapes in a file of format 2 (which has no copy of the
// dictionaries in its header; format 3 copies every shape it numbers),
// three entities a shape, every one of its leaves no longer linked (its
// branch page lost) and pages of its dictionary lost: Recover saves every
// entity whose shape survives, with all its properties, from pages that
// hold some whose shape is lost too and from after the lost page of the
// dictionary, and loses as many as Check said beforehand, one problem
// each naming the lost page.
func TestRecoverKeepsTheEntitiesOfAPageWhoseShapesSurvive(t *testing.T) {
	path := dbPath(t, "wide.db")
	db, err := Open(path, &Options{format: 2})
	if err != nil {
		t.Fatal(err)
	}
	newTable(t, db, "Wide")
	for i := range 150 {
		name := fmt.Sprintf("Property_%03d_%s", i, strings.Repeat("x", 40))
		for j := range 3 {
			mustWrite(t, db, "Wide", backend.OpInsert, ent("p", fmt.Sprintf("r%03d-%d", i, j), prop(name, odata.Int32(int32(i))), prop("N", odata.Int64(int64(j)))))
		}
	}
	db.Close()
	want := contents(t, path)["Wide"]
	cs := costsOf(t, path)
	var only []repair.PageCost
	for _, c := range cs {
		if strings.HasPrefix(c.Holds, "the only copy of shapes") {
			only = append(only, c)
		}
	}
	branches := costFor(t, cs, "the branch")
	if len(only) < 2 || branches.Table != "Wide" {
		t.Fatalf("want two pages or more holding the only copy of shapes, and Wide's branch:\n%s", costLines(cs))
	}
	for _, lose := range [][]repair.PageCost{only[:1], only} {
		p := copyFile(t, path, "lost.db")
		lost := map[uint64]bool{} // the shapes lost
		var predicted int64
		for _, c := range append(lose, branches) {
			for _, id := range c.Pages {
				writeAt(t, p, make([]byte, 4096), int64(id)*4096)
			}
			var lo, hi uint64
			if _, err := fmt.Sscanf(c.Holds, "the only copy of shapes %d to %d", &lo, &hi); err == nil {
				for id := lo; id <= hi; id++ {
					lost[id] = true
				}
				predicted += c.Entities
			}
		}
		out := dbPath(t, "saved.db")
		rep, err := Recover(ctx, p, out, nil)
		if err != nil {
			t.Fatal(err)
		}
		got := contents(t, out)["Wide"]
		var missing, wrong int
		for k, e := range want {
			var i int
			fmt.Sscanf(k, "p/r%03d", &i)
			switch g := got[k]; {
			case lost[uint64(i+1)]:
				if g != nil {
					wrong++
				}
			case g == nil:
				missing++
			case !sameEntity(e, g):
				t.Errorf("%s saved as %v, want %v", k, g, e)
			}
		}
		if missing > 0 || wrong > 0 {
			t.Errorf("losing %d pages of the dictionary: %d entities whose shape survives were not saved, %d whose shape is lost were", len(lose), missing, wrong)
		}
		if n := int64(len(want) - len(got)); n != predicted {
			t.Errorf("losing %d pages of the dictionary: recover saved %d of %d entities, %d lost; check said %d", len(lose), len(got), len(want), n, predicted)
		}
		var named int64
		for _, pr := range rep.Problems {
			for _, c := range lose {
				if strings.Contains(pr.What, fmt.Sprintf("its property names were on page %d, which is lost", c.Pages[0])) && pr.Keys != nil {
					named++
				}
			}
		}
		if named != predicted {
			t.Errorf("losing %d pages of the dictionary: %d problems name the lost page, want one for each of %d entities:\n%v", len(lose), named, predicted, rep.Problems)
		}
	}
}
