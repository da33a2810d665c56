package store

import (
	"fmt"
	"math/rand/v2"
	"os"
	"strings"
	"testing"

	"github.com/tstable/tstable/backend"
	"github.com/tstable/tstable/odata"
)

// manyShapesFile writes a file of one table whose entities have 150
// shapes (each a different set of properties), in many commits.
func manyShapesFile(t *testing.T) string {
	t.Helper()
	path := dbPath(t, "shapes.db")
	db, err := Open(path, nil)
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	newTable(t, db, "Things")
	for c := range 30 {
		var batch []*odata.Entity
		for i := range 100 {
			n := c*100 + i
			e := ent(fmt.Sprintf("p%02d", n%17), fmt.Sprintf("r%05d", n))
			s := n % 150
			for j := range 1 + s%6 {
				e.Properties = append(e.Properties, prop(fmt.Sprintf("P%d_%d", s, j), odata.String(strings.Repeat("v", 5+n%30))))
			}
			batch = append(batch, e)
		}
		if _, err := db.Load(ctx, "Things", backend.OpInsertOrReplace, sliceSource(batch), backend.LoadOptions{}); err != nil {
			t.Fatal(err)
		}
	}
	return path
}

// A probe of random damage, run with TSTABLE_LONG_TEST=1: three shapes of
// file (many small commits in three tables; one table loaded whole; 150
// shapes in one table), each damaged 30 times at random (a page zeroed,
// the file cut, or 64 bytes overwritten), and recovered; it counts the
// entities whose leaf pages the damage left intact (mapped by boltfile
// from the undamaged file) and how many of those Recover saved, with every
// property, in their own table or in LostAndFound.
func TestRandomDamageProbe(t *testing.T) {
	if os.Getenv("TSTABLE_LONG_TEST") == "" {
		t.Skip("a probe of 90 damaged files: TSTABLE_LONG_TEST=1")
	}
	shapes := map[string]func(*testing.T) string{
		"many commits, three tables": manyCommitFile,
		"one table loaded whole": func(t *testing.T) string {
			db, path := benchTable(t, 20_000)
			db.Close()
			return path
		},
		"150 shapes": manyShapesFile,
	}
	var files, intactAll, savedAll, inLostAll int
	for name, build := range shapes {
		path := build(t)
		want := contents(t, path)
		located, pages, ps := pagesOfEntities(t, path)
		names := map[string]string{}
		for n := range want {
			names[strings.ToLower(n)] = n
		}
		rng := rand.New(rand.NewPCG(7, uint64(len(name))))
		var intact, saved, inLost int
		for try := range 30 {
			p := copyFile(t, path, "damaged.db")
			var hit func(onPage) bool
			switch try % 3 {
			case 0:
				id := rng.Uint64N(pages)
				writeAt(t, p, make([]byte, ps), int64(id)*ps)
				hit = func(e onPage) bool { return id >= e.first && id <= e.last }
			case 1:
				cut := rng.Int64N(int64(pages) * ps)
				truncate(t, p, cut)
				hit = func(e onPage) bool { return int64(e.last+1)*ps > cut }
			default:
				at := rng.Int64N(int64(pages)*ps - 64)
				junk := make([]byte, 64)
				for i := range junk {
					junk[i] = byte(rng.UintN(256))
				}
				writeAt(t, p, junk, at)
				hit = func(e onPage) bool { return at < int64(e.last+1)*ps && at+64 > int64(e.first)*ps }
			}
			out := dbPath(t, "saved.db")
			if _, err := Recover(ctx, p, out, nil); err != nil {
				t.Errorf("%s, damage %d: %v", name, try, err)
				continue
			}
			got := contents(t, out)
			before := intact - saved
			for _, e := range located {
				if hit(e) {
					continue
				}
				intact++
				table := names[e.table]
				if g := got[table][e.key]; g != nil && sameEntity(want[table][e.key], g) {
					saved++
				} else if g := got["LostAndFound"][e.key]; g != nil && sameEntity(want[table][e.key], g) {
					saved++
					inLost++
				}
			}
			if lost := intact - saved - before; lost > 0 {
				t.Logf("%s, damage %d (%s): %d entities on intact pages not saved", name, try, []string{"a page zeroed", "the file cut", "64 bytes overwritten"}[try%3], lost)
			}
			os.Remove(p)
			os.Remove(out)
			files++
		}
		t.Logf("%s: 30 damaged files, %d entities on intact pages, %d saved (%d of them in LostAndFound)", name, intact, saved, inLost)
		if saved != intact {
			t.Errorf("%s: %d entities on intact pages were not saved", name, intact-saved)
		}
		intactAll, savedAll, inLostAll = intactAll+intact, savedAll+saved, inLostAll+inLost
	}
	t.Logf("in all: %d damaged files, %d entities on intact pages, %d saved (%d in LostAndFound)", files, intactAll, savedAll, inLostAll)
}
