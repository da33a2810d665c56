package store

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"math/rand"
	"os"
	"path/filepath"
	"reflect"
	"slices"
	"testing"

	bolt "go.etcd.io/bbolt"

	"github.com/tstable/tstable/backend"
	"github.com/tstable/tstable/odata"
	"github.com/tstable/tstable/store/internal/bulk"
	"github.com/tstable/tstable/store/internal/values"
)

// spillDB opens a database whose loads keep runs of 32 KiB in memory and
// commit chunks of 700 entities, so that a few thousand entities spill
// several runs and write several chunks.
func spillDB(t *testing.T) (*DB, string) {
	t.Helper()
	path := dbPath(t, "t.db")
	db, err := Open(path, &Options{loadRun: 32 << 10, loadChunk: 700, noStaging: true})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { db.Close() })
	newTable(t, db, "Tab")
	return db, path
}

// tempFiles lists the load's temporary files next to the database.
func tempFiles(t *testing.T, path string) []string {
	t.Helper()
	got, err := filepath.Glob(bulk.TempPattern(path))
	if err != nil {
		t.Fatal(err)
	}
	return got
}

// shuffled is benchEntity 0 to n-1 in a random order.
func shuffled(n int, seed int64) []*odata.Entity {
	es := make([]*odata.Entity, n)
	for i := range es {
		es[i] = benchEntity(i)
	}
	rand.New(rand.NewSource(seed)).Shuffle(n, func(i, j int) { es[i], es[j] = es[j], es[i] })
	return es
}

// watched is a source that records, after its last entity, whether the
// load's temporary file was there.
func watched(t *testing.T, path string, es []*odata.Entity, spilled *bool) backend.EntitySource {
	src := sliceSource(es)
	return func() (*odata.Entity, error) {
		e, err := src()
		if e == nil {
			*spilled = len(tempFiles(t, path)) == 1
		}
		return e, err
	}
}

// A random-order load that spills several runs stores what a sorted one
// does, entity for entity, and removes its temporary file.
func TestLoadSpilledRunsEqualSorted(t *testing.T) {
	const n = 5000
	sorted := shuffled(n, 0)
	for i := range sorted {
		sorted[i] = benchEntity(i)
	}
	var got [2][]string
	for i, src := range [][]*odata.Entity{sorted, shuffled(n, 1)} {
		db, path := spillDB(t)
		spilled := false
		res, err := db.Load(ctx, "Tab", backend.OpInsert, watched(t, path, src, &spilled), backend.LoadOptions{})
		if err != nil || res.Written != n {
			t.Fatal(res, err)
		}
		if !spilled {
			t.Fatal("the load kept every run in memory; want several spilled")
		}
		if left := tempFiles(t, path); len(left) != 0 {
			t.Fatalf("the temporary file is left: %v", left)
		}
		got[i] = keysAndProps(t, db, "Tab")
	}
	if len(got[0]) != n || !reflect.DeepEqual(got[0], got[1]) {
		t.Fatalf("sorted load holds %d entities, random %d, or they differ", len(got[0]), len(got[1]))
	}
}

// A bad row found after several runs were spilled stops the load before
// it writes anything, naming the row; going on past it writes the rest.
func TestLoadBadRowAfterSpilledRunsWritesNothing(t *testing.T) {
	const n = 5000
	src := shuffled(n, 2)
	src[4000] = ent("p", "bad/key")
	db, path := spillDB(t)
	mustWrite(t, db, "Tab", backend.OpInsert, ent("zz", "before"))
	before := keysAndProps(t, db, "Tab")

	var told []int64
	stop := errors.New("stop")
	res, err := db.Load(ctx, "Tab", backend.OpInsert, sliceSource(src), backend.LoadOptions{OnReject: func(n int64, e *odata.Entity, err error) error {
		told = append(told, n)
		return stop
	}})
	if err != stop || res.Written != 0 || res.Rejected != 1 || !reflect.DeepEqual(told, []int64{4000}) {
		t.Fatalf("err %v written %d rejected %d told %v", err, res.Written, res.Rejected, told)
	}
	if after := keysAndProps(t, db, "Tab"); !reflect.DeepEqual(after, before) {
		t.Fatalf("the table changed: %d entities, was %d", len(after), len(before))
	}
	if left := tempFiles(t, path); len(left) != 0 {
		t.Fatalf("the temporary file is left: %v", left)
	}
	_, err = db.Load(ctx, "Tab", backend.OpInsert, sliceSource(src), backend.LoadOptions{})
	wantCode(t, err, odata.CodeOutOfRangeInput, 400)

	told = nil
	res, err = db.Load(ctx, "Tab", backend.OpInsert, sliceSource(src), backend.LoadOptions{OnReject: func(n int64, e *odata.Entity, err error) error {
		told = append(told, n)
		return nil
	}})
	if err != nil || res.Written != n-1 || res.Rejected != 1 || !reflect.DeepEqual(told, []int64{4000}) {
		t.Fatalf("err %v written %d rejected %d told %v", err, res.Written, res.Rejected, told)
	}
	if got := len(dump(t, db, "Tab")); got != n {
		t.Fatalf("the table holds %d, want %d", got, n)
	}
	if left := tempFiles(t, path); len(left) != 0 {
		t.Fatalf("the temporary file is left: %v", left)
	}
}

// A key twice in the source, in different runs: an insert stops at the
// second, writing nothing; an upsert keeps the last.
func TestLoadDuplicateAcrossRuns(t *testing.T) {
	const n = 5000
	src := shuffled(n, 3)
	again := src[100].Clone()
	again.Set("Again", odata.Int32(1))
	src = append(src[:4500:4500], append([]*odata.Entity{again}, src[4500:]...)...) // position 4500 repeats 100

	db, _ := spillDB(t)
	res, err := db.Load(ctx, "Tab", backend.OpInsert, sliceSource(src), backend.LoadOptions{})
	e := wantCode(t, err, odata.CodeEntityAlreadyExists, 409)
	if res.Written != 0 || res.Rejected != 1 || len(dump(t, db, "Tab")) != 0 {
		t.Fatalf("written %d rejected %d stored %d (%s)", res.Written, res.Rejected, len(dump(t, db, "Tab")), e.Message)
	}
	var told []int64
	res, err = db.Load(ctx, "Tab", backend.OpInsert, sliceSource(src), backend.LoadOptions{OnReject: func(n int64, _ *odata.Entity, err error) error {
		told = append(told, n)
		return err
	}})
	if !odata.IsCode(err, odata.CodeEntityAlreadyExists) || !reflect.DeepEqual(told, []int64{4500}) || res.Written != 0 || len(dump(t, db, "Tab")) != 0 {
		t.Fatalf("err %v told %v written %d", err, told, res.Written)
	}

	for _, kind := range []backend.OpKind{backend.OpInsertOrReplace, backend.OpInsertOrMerge} {
		db, _ := spillDB(t)
		res, err := db.Load(ctx, "Tab", kind, sliceSource(src), backend.LoadOptions{})
		if err != nil || res.Written != n+1 {
			t.Fatalf("%s: %+v %v", kind, res, err)
		}
		got, err := db.Get(ctx, "Tab", again.PartitionKey, again.RowKey)
		if err != nil {
			t.Fatal(err)
		}
		if v, ok := got.Get("Again"); !ok || v.Int != 1 || len(got.Properties) != len(again.Properties) {
			t.Fatalf("%s: the stored entity is %+v, want the second", kind, got)
		}
		if len(dump(t, db, "Tab")) != n {
			t.Fatalf("%s: the table holds %d", kind, len(dump(t, db, "Tab")))
		}
	}
}

// An insert of a key the table holds already writes nothing, however far
// into the source it is.
func TestLoadInsertOfAKeyThereWritesNothing(t *testing.T) {
	const n = 5000
	src := shuffled(n, 4)
	db, _ := spillDB(t)
	mustWrite(t, db, "Tab", backend.OpInsert, src[3999])
	before := keysAndProps(t, db, "Tab")
	res, err := db.Load(ctx, "Tab", backend.OpInsert, sliceSource(src), backend.LoadOptions{})
	wantCode(t, err, odata.CodeEntityAlreadyExists, 409)
	if res.Written != 0 || !reflect.DeepEqual(keysAndProps(t, db, "Tab"), before) {
		t.Fatalf("written %d, the table holds %d", res.Written, len(dump(t, db, "Tab")))
	}
	// Replace needs every key there: one missing writes nothing.
	res, err = db.Load(ctx, "Tab", backend.OpReplace, sliceSource(src), backend.LoadOptions{})
	wantCode(t, err, odata.CodeResourceNotFound, 404)
	if res.Written != 0 || !reflect.DeepEqual(keysAndProps(t, db, "Tab"), before) {
		t.Fatalf("replace: written %d, the table holds %d", res.Written, len(dump(t, db, "Tab")))
	}
}

// A cancelled load writes nothing and removes its temporary file.
func TestLoadCancelledRemovesTheTemporaryFile(t *testing.T) {
	const n = 5000
	src := shuffled(n, 5)
	db, path := spillDB(t)
	cctx, cancel := context.WithCancel(ctx)
	defer cancel()
	next := sliceSource(src)
	i, spilled := 0, false
	res, err := db.Load(cctx, "Tab", backend.OpInsert, func() (*odata.Entity, error) {
		if i++; i == 4000 {
			spilled = len(tempFiles(t, path)) == 1
			cancel()
		}
		return next()
	}, backend.LoadOptions{})
	if !errors.Is(err, context.Canceled) || res.Written != 0 || !spilled {
		t.Fatalf("err %v written %d spilled %v", err, res.Written, spilled)
	}
	if left := tempFiles(t, path); len(left) != 0 {
		t.Fatalf("the temporary file is left: %v", left)
	}
	if got := len(dump(t, db, "Tab")); got != 0 {
		t.Fatalf("the table holds %d", got)
	}
	// A source that fails is the same.
	boom := errors.New("boom")
	next, i = sliceSource(src), 0
	_, err = db.Load(ctx, "Tab", backend.OpInsert, func() (*odata.Entity, error) {
		if i++; i == 4000 {
			return nil, boom
		}
		return next()
	}, backend.LoadOptions{})
	if !errors.Is(err, boom) || len(tempFiles(t, path)) != 0 || len(dump(t, db, "Tab")) != 0 {
		t.Fatalf("err %v, left %v, the table holds %d", err, tempFiles(t, path), len(dump(t, db, "Tab")))
	}
}

// Keys in random order leave a file about as small as sorted ones: the
// load writes the tree front to back either way.
func TestLoadRandomOrderFileIsCompact(t *testing.T) {
	if testing.Short() {
		t.Skip("loads 100,000 entities twice")
	}
	const n = 100_000
	small := func(i int) *odata.Entity {
		return ent(fmt.Sprintf("p%03d", i/200), fmt.Sprintf("%08d", i), prop("N", odata.Int32(int32(i))), prop("S", odata.String("some text")))
	}
	es := make([]*odata.Entity, n)
	for i := range es {
		es[i] = small(i)
	}
	var size [2]int64
	for k := range size {
		if k == 1 {
			rand.New(rand.NewSource(6)).Shuffle(n, func(i, j int) { es[i], es[j] = es[j], es[i] })
		}
		path := dbPath(t, "t.db")
		db, err := Open(path, nil)
		if err != nil {
			t.Fatal(err)
		}
		newTable(t, db, "Tab")
		if res, err := db.Load(ctx, "Tab", backend.OpInsertOrMerge, sliceSource(es), backend.LoadOptions{}); err != nil || res.Written != n {
			t.Fatal(res, err)
		}
		db.Close()
		size[k] = tablePages(t, path, "Tab")
	}
	if float64(size[1]) > 1.2*float64(size[0]) {
		t.Fatalf("random order: %d pages, sorted: %d (%.2f×)", size[1], size[0], float64(size[1])/float64(size[0]))
	}
	t.Logf("random order: %d pages, sorted: %d", size[1], size[0])
}

// tablePages counts the pages of a table's tree in the file at path.
func tablePages(t *testing.T, path, table string) int64 {
	t.Helper()
	b, err := bolt.Open(path, 0o644, &bolt.Options{ReadOnly: true})
	if err != nil {
		t.Fatal(err)
	}
	defer b.Close()
	var n int64
	if err := b.View(func(tx *bolt.Tx) error {
		s := tx.Bucket(tableBucketName(table)).Stats()
		n = int64(s.BranchPageN + s.BranchOverflowN + s.LeafPageN + s.LeafOverflowN)
		return nil
	}); err != nil {
		t.Fatal(err)
	}
	return n
}

// A commit that fails once writing has begun leaves the chunks committed
// before it: the source's entities up to the key CommitError names, in
// key order, and Written counts them.
func TestLoadSpilledCommitFailureKeepsAKeyPrefix(t *testing.T) {
	const n = 5000
	db, path, arm := failingAt(t, Options{loadRun: 32 << 10, loadChunk: 700}, 3)
	newTable(t, db, "Tab")
	arm()
	src := shuffled(n, 7)
	res, err := db.Load(ctx, "Tab", backend.OpInsert, sliceSource(src), backend.LoadOptions{})
	ce := wantCommitError(t, err, path)
	if res.Written != 1400 || ce.FromKey == nil || len(tempFiles(t, path)) != 0 {
		t.Fatalf("written %d, from %v, left %v; want 1400", res.Written, ce.FromKey, tempFiles(t, path))
	}
	got := dump(t, db, "Tab")
	want := shuffled(n, 0)
	for i := range want {
		want[i] = benchEntity(i)
	}
	slices.SortFunc(want, func(a, b *odata.Entity) int {
		return bytes.Compare(values.EntityKey(a.PartitionKey, a.RowKey), values.EntityKey(b.PartitionKey, b.RowKey))
	})
	if !reflect.DeepEqual(keysOf(got), keysOf(want[:1400])) || want[1400].PartitionKey != ce.FromKey.PartitionKey || want[1400].RowKey != ce.FromKey.RowKey {
		t.Fatalf("the table holds %d entities, not the first 1400 in key order before %v", len(got), ce.FromKey)
	}
}

// A load killed while it sorts through its temporary file leaves the file
// behind (nothing runs when a process is killed), named for the process;
// the next Open for writing removes it, as it removes the temporary files
// of older tstables, whose names say no process. Reading leaves them, and
// so does a write Open beside a process that is still running.
func TestKilledLoadsTempFileIsRemovedOnOpen(t *testing.T) {
	path := newFile(t)
	cmd, _, lines := helper(t, "spill", path)
	expect(t, lines, "spilled")
	left := tempFiles(t, path)
	if len(left) != 1 || bulk.TempOwner(path, left[0]) != cmd.Process.Pid {
		t.Fatalf("temporary files %v, want one named for process %d", left, cmd.Process.Pid)
	}
	if err := cmd.Process.Kill(); err != nil {
		t.Fatal(err)
	}
	cmd.Wait()
	dir, base := filepath.Split(path)
	older := filepath.Join(dir, "."+base+".import-123456.tmp")
	running := filepath.Join(dir, fmt.Sprintf(".%s.import-%d-42.tmp", base, os.Getppid()))
	ours := filepath.Join(dir, fmt.Sprintf(".%s.import-%d-42.tmp", base, os.Getpid()))
	for _, f := range []string{older, running, ours} {
		if err := os.WriteFile(f, []byte("runs"), 0o600); err != nil {
			t.Fatal(err)
		}
	}
	db, err := Open(path, &Options{ReadOnly: true})
	if err != nil {
		t.Fatal(err)
	}
	db.Close()
	if got := tempFiles(t, path); len(got) != 4 {
		t.Fatalf("after a read-only open: %v, want all four files", got)
	}
	db, err = Open(path, nil)
	if err != nil {
		t.Fatal(err)
	}
	db.Close()
	if got, want := tempFiles(t, path), []string{running, ours}; !reflect.DeepEqual(sortedStrings(got), sortedStrings(want)) {
		t.Fatalf("after a write open: %v, want only %v (their processes run)", got, want)
	}
}

func sortedStrings(s []string) []string { return slices.Sorted(slices.Values(s)) }
