package store

import (
	"bytes"
	"errors"
	"fmt"
	"io"
	"reflect"
	"slices"
	"testing"

	"github.com/tstable/tstable/backend"
	"github.com/tstable/tstable/odata"
	"github.com/tstable/tstable/store/internal/values"
)

// stageDB opens a database with table Tab whose loads commit chunks of
// 700 entities; noStaging makes them take the sorted runs' way.
func stageDB(t *testing.T, noStaging bool) (*DB, string) {
	t.Helper()
	path := dbPath(t, "t.db")
	db, err := Open(path, &Options{loadRun: 32 << 10, loadChunk: 700, noStaging: noStaging})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { db.Close() })
	newTable(t, db, "Tab")
	return db, path
}

// stagingBuckets lists the file's staging buckets.
func stagingBuckets(t *testing.T, db *DB) []string {
	t.Helper()
	var names []string
	if err := db.do(false, func(o *op) error {
		return o.view(func(t *gtx) error {
			found, err := t.topBuckets([]byte(values.StagingPrefix))
			names = names[:0]
			for _, n := range found {
				names = append(names, string(n))
			}
			return err
		})
	}); err != nil {
		t.Fatal(err)
	}
	return names
}

func sortedEntities(n int) []*odata.Entity {
	es := shuffled(n, 0)
	for i := range es {
		es[i] = benchEntity(i)
	}
	slices.SortFunc(es, func(a, b *odata.Entity) int {
		return bytes.Compare(values.EntityKey(a.PartitionKey, a.RowKey), values.EntityKey(b.PartitionKey, b.RowKey))
	})
	return es
}

// A sorted load into an empty table goes through a staging bucket and
// stores what the sorted runs' way does, entity for entity.
func TestStagedLoadEqualsRuns(t *testing.T) {
	const n = 5000
	src := sortedEntities(n)
	var got [2][]string
	for i, noStaging := range []bool{false, true} {
		db, path := stageDB(t, noStaging)
		var progress []int64
		res, err := db.Load(ctx, "Tab", backend.OpInsert, sliceSource(src), backend.LoadOptions{Progress: func(n int64) {
			if len(progress) == 1 && !noStaging {
				if st := stagingBuckets(t, db); len(st) != 1 {
					t.Errorf("staging buckets while loading: %v", st)
				}
				if k := len(dump(t, db, "Tab")); k != 0 {
					t.Errorf("the table shows %d entities while staging", k)
				}
			}
			progress = append(progress, n)
		}})
		if err != nil || res.Written != n {
			t.Fatal(res, err)
		}
		if len(progress) < 5 {
			t.Fatalf("progress %v; want a call per chunk", progress)
		}
		if st := stagingBuckets(t, db); len(st) != 0 {
			t.Fatalf("staging buckets left: %v", st)
		}
		if left := tempFiles(t, path); len(left) != 0 {
			t.Fatalf("temporary files left: %v", left)
		}
		for _, e := range dump(t, db, "Tab") {
			if e.Timestamp.IsZero() {
				t.Fatalf("%s/%s has no Timestamp", e.PartitionKey, e.RowKey)
			}
		}
		got[i] = keysAndProps(t, db, "Tab")
		db.Close()
		rep, err := Check(ctx, path, nil)
		if err != nil || len(rep.Problems) != 0 || len(rep.Tables) != 1 || rep.Tables[0].Entities != n {
			t.Fatalf("check: %v %+v", err, rep)
		}
	}
	if !reflect.DeepEqual(got[0], got[1]) {
		t.Fatal("the staged load stored other entities than the sorted runs' way")
	}
}

// A bad row after several staged chunks leaves the table empty and no
// staging bucket; so does a duplicate key in an insert, and a failed
// commit.
func TestStagedLoadStopsWithNothingWritten(t *testing.T) {
	const n = 5000
	bad := sortedEntities(n)
	bad[4000] = ent(bad[4000].PartitionKey, bad[4000].RowKey+"/bad")
	dup := sortedEntities(n)
	dup[4000] = dup[3999]
	stop := errors.New("stop")
	for name, c := range map[string]struct {
		src  []*odata.Entity
		kind backend.OpKind
		want func(error) bool
	}{
		"bad row":   {bad, backend.OpInsertOrReplace, func(err error) bool { return err == stop }},
		"duplicate": {dup, backend.OpInsert, func(err error) bool { return err == stop }},
	} {
		t.Run(name, func(t *testing.T) {
			db, _ := stageDB(t, false)
			staged := int64(0)
			var told []int64
			res, err := db.Load(ctx, "Tab", c.kind, sliceSource(c.src), backend.LoadOptions{
				Progress: func(n int64) { staged = n },
				OnReject: func(pos int64, e *odata.Entity, err error) error { told = append(told, pos); return stop },
			})
			if !c.want(err) || res.Written != 0 || !reflect.DeepEqual(told, []int64{4000}) {
				t.Fatalf("err %v written %d told %v", err, res.Written, told)
			}
			if staged < 2100 {
				t.Fatalf("%d staged before the stop; want several chunks", staged)
			}
			if k := len(dump(t, db, "Tab")); k != 0 {
				t.Fatalf("the table holds %d entities", k)
			}
			if st := stagingBuckets(t, db); len(st) != 0 {
				t.Fatalf("staging buckets left: %v", st)
			}
			_, err = db.Load(ctx, "Tab", c.kind, sliceSource(c.src), backend.LoadOptions{})
			if name == "duplicate" {
				wantCode(t, err, odata.CodeEntityAlreadyExists, 409)
			} else if err == nil {
				t.Fatal("a bad row went through")
			}
			if k := len(dump(t, db, "Tab")); k != 0 {
				t.Fatalf("the table holds %d entities", k)
			}
		})
	}
	t.Run("commit", func(t *testing.T) {
		db, path, arm := failingAt(t, Options{loadChunk: 100}, 4) // the table, then two staged chunks
		arm()
		newTable(t, db, "Tab")
		src := sortedEntities(1000)
		res, err := db.Load(ctx, "Tab", backend.OpInsert, sliceSource(src), backend.LoadOptions{})
		ce := wantCommitError(t, err, path)
		if res.Written != 0 || ce.FromKey == nil || *ce.FromKey != (odata.Key{PartitionKey: src[0].PartitionKey, RowKey: src[0].RowKey}) {
			t.Fatalf("written %d, from %v", res.Written, ce.FromKey)
		}
		if k := len(dump(t, db, "Tab")); k != 0 {
			t.Fatalf("the table holds %d entities", k)
		}
		if st := stagingBuckets(t, db); len(st) != 0 {
			t.Fatalf("staging buckets left: %v", st)
		}
	})
}

// A source that turns out of order after staged chunks (with refused rows
// before, told on) loads what the sorted runs' way does.
func TestStagedLoadOutOfOrderFallsBack(t *testing.T) {
	const n = 5000
	src := sortedEntities(n)
	tail := src[3000:]
	slices.Reverse(tail)
	src[100] = ent("p", "bad/key")
	src[2500] = ent("p", "bad/key2")
	src = append(src, sortedEntities(n)[10]) // a key twice: the upsert keeps the last
	src[len(src)-1] = ent(src[len(src)-1].PartitionKey, src[len(src)-1].RowKey, prop("last", odata.String("yes")))
	var got [2][]string
	for i, noStaging := range []bool{false, true} {
		db, path := stageDB(t, noStaging)
		var told []int64
		res, err := db.Load(ctx, "Tab", backend.OpInsertOrReplace, sliceSource(src), backend.LoadOptions{
			OnReject: func(pos int64, e *odata.Entity, err error) error { told = append(told, pos); return nil },
		})
		if err != nil || res.Written != int64(len(src)-2) || !reflect.DeepEqual(told, []int64{100, 2500}) {
			t.Fatal(res, err, told)
		}
		if st := stagingBuckets(t, db); len(st) != 0 {
			t.Fatalf("staging buckets left: %v", st)
		}
		if left := tempFiles(t, path); len(left) != 0 {
			t.Fatalf("temporary files left: %v", left)
		}
		got[i] = keysAndProps(t, db, "Tab")
		if len(got[i]) != n-2 {
			t.Fatalf("the table holds %d, want %d", len(got[i]), n-2)
		}
	}
	if !reflect.DeepEqual(got[0], got[1]) {
		t.Fatal("the fallen-back load stored other entities than the sorted runs' way")
	}
}

// A table written while a load stages (here: before the swap) takes the
// staged entities the ordinary way.
func TestStagedLoadTableFilledMeanwhile(t *testing.T) {
	db, _ := stageDB(t, false)
	src := sortedEntities(3000)
	i := 0
	res, err := db.Load(ctx, "Tab", backend.OpInsert, func() (*odata.Entity, error) {
		if i == 2000 {
			mustWrite(t, db, "Tab", backend.OpInsert, ent("zzz", "meanwhile"))
		}
		if i == len(src) {
			return nil, io.EOF
		}
		i++
		return src[i-1], nil
	}, backend.LoadOptions{})
	if err != nil || res.Written != 3000 {
		t.Fatal(res, err)
	}
	if k := len(dump(t, db, "Tab")); k != 3001 {
		t.Fatalf("the table holds %d", k)
	}
	if st := stagingBuckets(t, db); len(st) != 0 {
		t.Fatalf("staging buckets left: %v", st)
	}
}

// A staging bucket left by a load that was killed is no table, counts as
// pages in use, and goes at the next open for writing (or load).
func TestLeftStagingBucketIsRemoved(t *testing.T) {
	path := dbPath(t, "t.db")
	db, err := Open(path, nil)
	if err != nil {
		t.Fatal(err)
	}
	newTable(t, db, "Tab")
	left := []byte(values.StagingPrefix + "999999999:0123")
	if err := db.do(true, func(o *op) error {
		return o.update(func(t *gtx) error {
			p, err := t.createTop(left)
			if err != nil {
				return err
			}
			b, err := p.createBucket(tableBucketName("Tab"))
			if err != nil {
				return err
			}
			for i := 0; i < 2000; i++ {
				if err := b.put(values.EntityKey("p", fmt.Sprintf("%05d", i)), values.EncodeEntity(nil, 1, nil)); err != nil {
					return err
				}
			}
			return nil
		})
	}); err != nil {
		t.Fatal(err)
	}
	db.Close()

	rep, err := Check(ctx, path, nil)
	if err != nil || len(rep.Problems) != 0 || len(rep.Tables) != 1 || rep.Tables[0].Name != "Tab" || rep.Tables[0].Entities != 0 {
		t.Fatalf("check: %v %+v", err, rep)
	}
	ro, err := Open(path, &Options{ReadOnly: true})
	if err != nil {
		t.Fatal(err)
	}
	if names, err := ro.ListTables(ctx); err != nil || !reflect.DeepEqual(names, []string{"Tab"}) {
		t.Fatal(names, err)
	}
	if st := stagingBuckets(t, ro); len(st) != 1 {
		t.Fatalf("a reader removed the staging bucket: %v", st)
	}
	ro.Close()

	db, err = Open(path, nil)
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	if st := stagingBuckets(t, db); len(st) != 0 {
		t.Fatalf("staging buckets left after an open for writing: %v", st)
	}
	if k := len(dump(t, db, "Tab")); k != 0 {
		t.Fatalf("the table holds %d", k)
	}
	db.Close()
	rep, err = Check(ctx, path, nil)
	if err != nil || len(rep.Problems) != 0 {
		t.Fatalf("check: %v %+v", err, rep)
	}
}

// A load killed while it stages leaves the table as it was (empty), and
// its staging bucket goes at the next open for writing.
func TestKilledStagedLoadLeavesTheTableEmpty(t *testing.T) {
	path := newFile(t)
	seen := killAfterCommits(t, "stage", path, 1000)
	rep, err := Check(ctx, path, nil)
	if err != nil || len(rep.Problems) != 0 || len(rep.Tables) != 1 {
		t.Fatalf("check after the kill: %v %+v", err, rep)
	}
	if k := rep.Tables[0].Entities; k != 0 && k != 20000 {
		t.Fatalf("the table holds %d entities; want none or all", k)
	}
	db, err := Open(path, nil)
	if err != nil {
		t.Fatalf("the file does not open after the kill: %v", err)
	}
	defer db.Close()
	if st := stagingBuckets(t, db); len(st) != 0 {
		t.Fatalf("staging buckets left: %v", st)
	}
	got := dump(t, db, "Slow")
	if len(got) != 0 && len(got) != 20000 {
		t.Fatalf("the table holds %d entities (%d staged when killed); want none or all", len(got), seen)
	}
	t.Logf("%d entities staged before the kill, %d in the table", seen, len(got))
}
