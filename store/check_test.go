package store

import (
	"bytes"
	"fmt"
	"os"
	"strings"
	"testing"

	bolt "go.etcd.io/bbolt"

	"github.com/tstable/tstable/odata"
	"github.com/tstable/tstable/store/internal/repair"
	"github.com/tstable/tstable/store/internal/values"
)

func mustCheck(t *testing.T, path string) *repair.CheckReport {
	t.Helper()
	rep, err := Check(ctx, path, nil)
	if err != nil {
		t.Fatal(err)
	}
	return rep
}

// inRange reports whether key "pk/rk" lies in r.
func inRange(r *repair.ProblemKeys, key string) bool {
	pk, rk, _ := strings.Cut(key, "/")
	k := values.EntityKey(pk, rk)
	if r.First != nil && bytes.Compare(k, values.EntityKey(r.First.PartitionKey, r.First.RowKey)) < 0 {
		return false
	}
	return r.Next == nil || bytes.Compare(k, values.EntityKey(r.Next.PartitionKey, r.Next.RowKey)) < 0
}

func TestCheckPassesASoundFile(t *testing.T) {
	path := fixture(t)
	before := readAll(t, path)
	var calls, last, total int64
	rep, err := Check(ctx, path, &ScanOptions{Progress: func(done, all int64) {
		if done < last || done > all {
			t.Errorf("progress %d of %d after %d", done, all, last)
		}
		calls, last, total = calls+1, done, all
	}})
	if err != nil {
		t.Fatal(err)
	}
	if !rep.OK() {
		t.Fatalf("problems in a sound file: %v", rep.Problems)
	}
	want := fmt.Sprint([]repair.TableReport{{Name: "Alpha", Entities: 3000}, {Name: "Beta", Entities: 350}, {Name: "Gamma", Entities: 3}})
	if got := fmt.Sprint(rep.Tables); got != want || rep.PageSize != os.Getpagesize() || rep.Pages < 100 {
		t.Fatalf("tables %s, page size %d, pages %d; want %s", got, rep.PageSize, rep.Pages, want)
	}
	if calls == 0 || last != total || total != rep.Pages {
		t.Fatalf("progress: %d calls, ended at %d of %d (the file has %d pages)", calls, last, total, rep.Pages)
	}
	if !bytes.Equal(before, readAll(t, path)) {
		t.Fatal("Check changed the file")
	}
}

func TestCheckNamesTheTableKeysAndPageOfADamagedLeaf(t *testing.T) {
	path := fixture(t)
	raw := openRaw(t, path)
	e := fixtureEntity("Alpha", 1500)
	leaf, keys := raw.leafOf("Alpha", e.PartitionKey, e.RowKey)
	smash(t, path, leaf, 3)
	before := readAll(t, path)
	rep := mustCheck(t, path)
	if len(rep.Problems) != 1 {
		t.Fatalf("want one problem, got %v", rep.Problems)
	}
	p := rep.Problems[0]
	if p.Table != "Alpha" || p.Page != int64(leaf) || !p.Lost || p.Keys == nil {
		t.Fatalf("problem %+v", p)
	}
	for _, k := range keys {
		if !inRange(p.Keys, k) {
			t.Errorf("the problem's range %s does not hold %s, which was on the page", p.Keys, k)
		}
	}
	if !strings.HasPrefix(p.String(), fmt.Sprintf("table Alpha, keys from (%q, ", e.PartitionKey)) || !strings.Contains(p.String(), fmt.Sprintf("page %d: the page holds something else", leaf)) {
		t.Fatalf("%s", p)
	}
	if rep.Tables[0].Entities != int64(3000-len(keys)) {
		t.Fatalf("Alpha: %d sound entities, want %d", rep.Tables[0].Entities, 3000-len(keys))
	}
	if !bytes.Equal(before, readAll(t, path)) {
		t.Fatal("Check changed the file")
	}
}

func TestCheckACutFile(t *testing.T) {
	path := fixture(t)
	size := int64(len(readAll(t, path)))
	truncate(t, path, size/2)
	rep := mustCheck(t, path)
	if rep.OK() || !strings.Contains(rep.Problems[0].What, "the file is cut short") {
		t.Fatalf("problems %v", rep.Problems)
	}
	for _, ps := range []int64{0, 100, 20000} {
		p := t.TempDir() + "/x.db"
		os.WriteFile(p, make([]byte, ps), 0o644)
		rep := mustCheck(t, p)
		if rep.OK() || !rep.Problems[0].Lost {
			t.Errorf("a file of %d zero bytes: %v", ps, rep.Problems)
		}
	}
}

// underTheEngine changes the file through the engine directly, making
// what tstable never makes: damage, on purpose.
func underTheEngine(t *testing.T, path string, fn func(tx *bolt.Tx) error) {
	t.Helper()
	damaging(path)
	b, err := bolt.Open(path, 0o644, nil)
	if err != nil {
		t.Fatal(err)
	}
	if err := b.Update(fn); err != nil {
		t.Fatal(err)
	}
	b.Close()
}

func TestCheckTheCatalogueAgainstTheTables(t *testing.T) {
	path := fixture(t)
	underTheEngine(t, path, func(tx *bolt.Tx) error {
		if _, err := tx.CreateBucket([]byte("t:orphan")); err != nil {
			return err
		}
		return tx.Bucket(values.MetaBucket).Bucket(values.CatalogueKey).Put([]byte("ghost"), []byte("Ghost"))
	})
	rep := mustCheck(t, path)
	var got []string
	for _, p := range rep.Problems {
		got = append(got, p.Table+": "+p.What)
	}
	want := []string{
		"orphan: the table is not in the catalogue, so its name as created is lost; it goes by its lower-case name",
		"Ghost: the catalogue lists the table, but the file holds no bucket for it: its entities are lost",
	}
	if fmt.Sprint(got) != fmt.Sprint(want) {
		t.Fatalf("got\n%s\nwant\n%s", strings.Join(got, "\n"), strings.Join(want, "\n"))
	}
}

func TestCheckEveryEntityAgainstTheRules(t *testing.T) {
	path := fixture(t)
	underTheEngine(t, path, func(tx *bolt.Tx) error {
		b := tx.Bucket(tableBucketName("Gamma"))
		bad := []odata.Property{{Name: "1x", Value: odata.Int32(1)}}
		for k, v := range map[string][]byte{
			"p00\x00badname":   inlineValue(1, bad),
			"p00\x00garbage":   {9, 9, 9},
			"p00\x00future":    inlineValue(1<<62, nil),
			"p00\x00bad#key":   inlineValue(1, nil),
			"nopartitionsplit": inlineValue(1, nil),
		} {
			if err := b.Put([]byte(k), v); err != nil {
				return err
			}
		}
		return nil
	})
	rep := mustCheck(t, path)
	got := map[string]string{}
	for _, p := range rep.Problems {
		if p.Table != "Gamma" || p.Keys == nil || p.Keys.First != p.Keys.Next {
			t.Errorf("problem %+v", p)
			continue
		}
		got[p.Keys.First.RowKey+p.Keys.First.PartitionKey] = p.What
	}
	for k, want := range map[string]string{
		"badnamep00":       "the stored entity breaks the service's rules: property name \"1x\"",
		"garbagep00":       "the stored entity cannot be decoded",
		"futurep00":        "its Timestamp is later than the file's clock",
		"bad#keyp00":       "the stored RowKey breaks the service's rules",
		"nopartitionsplit": "the stored key has no RowKey part",
	} {
		if !strings.HasPrefix(got[k], want) {
			t.Errorf("%s: got %q, want %q…", k, got[k], want)
		}
	}
	if rep.Tables[2].Name != "Gamma" || rep.Tables[2].Entities != 4 {
		t.Errorf("Gamma: %+v (the three sound ones and the one from the future)", rep.Tables[2])
	}
}

func TestCheckFindsPagesUsedTwiceOrAlsoFree(t *testing.T) {
	path := fixture(t)
	twicePage, orphan := leadTwice(t, path, "Alpha")
	rep := mustCheck(t, path)
	var twice, unreached bool
	for _, p := range rep.Problems {
		twice = twice || (p.Table == "Alpha" && p.Page == int64(twicePage) && strings.Contains(p.What, "reached a second time") && p.Keys != nil)
		if p.Table == "" && strings.Contains(p.What, "neither in use nor on the list of free pages") {
			// one page, or a run of them ("pages 360 to 376 are …")
			first, last := p.Page, p.Page
			fmt.Sscanf(p.What, "pages %d to %d", &first, &last)
			unreached = unreached || (first <= int64(orphan) && int64(orphan) <= last)
		}
	}
	if !twice || !unreached {
		t.Fatalf("problems %v", rep.Problems)
	}
}

func TestCheckWaitsForAWriter(t *testing.T) {
	path := newFile(t)
	_, _, lines := helper(t, "hold", path)
	expect(t, lines, "ready")
	var told string
	_, err := Check(ctx, path, &ScanOptions{Wait: 200_000_000, OnWait: func(h string) { told = h }})
	wantCode(t, err, odata.CodeDatabaseLocked, 409)
	if !strings.Contains(told, "(pid ") {
		t.Fatalf("OnWait told %q", told)
	}
}
