package store

import (
	"errors"
	"fmt"
	"io"
	"math/rand"
	"reflect"
	"strings"
	"testing"

	"github.com/tstable/tstable/backend"
	"github.com/tstable/tstable/odata"
)

func sliceSource(es []*odata.Entity) backend.EntitySource {
	i := 0
	return func() (*odata.Entity, error) {
		if i == len(es) {
			return nil, io.EOF
		}
		i++
		return es[i-1], nil
	}
}

// keysAndProps is a table's entities without their Timestamps.
func keysAndProps(t *testing.T, db *DB, table string) []string {
	var out []string
	for _, e := range dump(t, db, table) {
		out = append(out, fmt.Sprintf("%s|%s|%v", e.PartitionKey, e.RowKey, e.Properties))
	}
	return out
}

// Keys in random order are stored as sorted ones are, across chunks.
func TestLoadRandomOrderEqualsSorted(t *testing.T) {
	const n = 5000
	sorted := make([]*odata.Entity, n)
	for i := range sorted {
		sorted[i] = benchEntity(i)
	}
	shuffled := append([]*odata.Entity(nil), sorted...)
	rand.New(rand.NewSource(1)).Shuffle(n, func(i, j int) { shuffled[i], shuffled[j] = shuffled[j], shuffled[i] })
	var got [2][]string
	for i, src := range [][]*odata.Entity{sorted, shuffled} {
		db, err := Open(dbPath(t, "t.db"), &Options{loadChunk: 1200})
		if err != nil {
			t.Fatal(err)
		}
		newTable(t, db, "Tab")
		res, err := db.Load(ctx, "Tab", backend.OpInsert, sliceSource(src), backend.LoadOptions{})
		if err != nil || res.Written != n {
			t.Fatal(res, err)
		}
		got[i] = keysAndProps(t, db, "Tab")
		db.Close()
	}
	if len(got[0]) != n || !reflect.DeepEqual(got[0], got[1]) {
		t.Fatalf("sorted load holds %d entities, random %d, or they differ", len(got[0]), len(got[1]))
	}
}

// A refusal stops the load before it writes anything: one found while
// reading (a bad key) at once, else the one the check finds first in the
// source (a key already there, a key twice in the input); with OnReject,
// the refused ones are reported and the rest stored.
func TestLoadRefusalWritesNothing(t *testing.T) {
	var src []*odata.Entity
	for i := 0; i < 300; i++ {
		src = append(src, benchEntity((i*7919)%1000)) // distinct keys, out of order
	}
	dup := *src[10]
	src = append(src[:200:200], append([]*odata.Entity{&dup}, src[200:]...)...) // position 200 repeats position 10
	bad := ent("p", "bad/key")
	withBad := append(src[:250:250], append([]*odata.Entity{bad}, src[250:]...)...) // position 250 is invalid

	open := func() *DB {
		db, err := Open(dbPath(t, "t.db"), &Options{loadChunk: 50, loadRun: 4096})
		if err != nil {
			t.Fatal(err)
		}
		t.Cleanup(func() { db.Close() })
		newTable(t, db, "Tab")
		mustWrite(t, db, "Tab", backend.OpInsert, src[150]) // position 150 exists already
		return db
	}
	// The bad key is found while reading.
	db := open()
	res, err := db.Load(ctx, "Tab", backend.OpInsert, sliceSource(withBad), backend.LoadOptions{})
	wantCode(t, err, odata.CodeOutOfRangeInput, 400)
	if res.Written != 0 || res.Rejected != 1 || len(dump(t, db, "Tab")) != 1 {
		t.Fatalf("written %d rejected %d stored %d", res.Written, res.Rejected, len(dump(t, db, "Tab")))
	}
	// Without it, the check finds the key already there (150) and the
	// repeated one (200): the first in the source stops the load.
	res, err = db.Load(ctx, "Tab", backend.OpInsert, sliceSource(src), backend.LoadOptions{})
	e := wantCode(t, err, odata.CodeEntityAlreadyExists, 409)
	if !strings.Contains(e.Message, fmt.Sprintf("(%q, %q)", src[150].PartitionKey, src[150].RowKey)) {
		t.Fatalf("message %q, want the keys of position 150", e.Message)
	}
	if res.Written != 0 || res.Rejected != 1 || len(dump(t, db, "Tab")) != 1 {
		t.Fatalf("written %d rejected %d stored %d", res.Written, res.Rejected, len(dump(t, db, "Tab")))
	}

	// Going on past refusals: those found while reading as they come,
	// then the check's in source order.
	db2 := open()
	var refused []int64
	res, err = db2.Load(ctx, "Tab", backend.OpInsert, sliceSource(withBad), backend.LoadOptions{OnReject: func(n int64, e *odata.Entity, err error) error {
		refused = append(refused, n)
		return nil
	}})
	if err != nil || !reflect.DeepEqual(refused, []int64{250, 150, 200}) || res.Written != int64(len(withBad)-3) || res.Rejected != 3 {
		t.Fatalf("err %v refused %v written %d", err, refused, res.Written)
	}
	if got := len(dump(t, db2, "Tab")); got != len(withBad)-2 {
		t.Fatalf("stored %d, want %d", got, len(withBad)-2)
	}
	// Stopping at the last refusal writes nothing.
	db3 := open()
	stop := errors.New("stop")
	res, err = db3.Load(ctx, "Tab", backend.OpInsert, sliceSource(withBad), backend.LoadOptions{OnReject: func(n int64, e *odata.Entity, err error) error {
		if n == 200 {
			return stop
		}
		return nil
	}})
	if err != stop || res.Written != 0 || len(dump(t, db3, "Tab")) != 1 {
		t.Fatalf("err %v written %d stored %d", err, res.Written, len(dump(t, db3, "Tab")))
	}
}

// A long ascending run, then keys out of order with a key repeated: the
// load stops before it writes, or with OnReject leaves out the repeat.
func TestLoadAscendingRunThenOutOfOrder(t *testing.T) {
	var src []*odata.Entity
	for i := 0; i < 3000; i++ {
		src = append(src, benchEntity(i))
	}
	for i := 0; i < 600; i++ {
		src = append(src, benchEntity(3000+(i*7919)%600))
	}
	dup := *src[3100]
	src = append(src[:3300:3300], append([]*odata.Entity{&dup}, src[3300:]...)...) // position 3300 repeats 3100
	for _, onReject := range []bool{false, true} {
		db, _ := openTemp(t)
		newTable(t, db, "Tab")
		var refused []int64
		opts := backend.LoadOptions{}
		if onReject {
			opts.OnReject = func(n int64, e *odata.Entity, err error) error { refused = append(refused, n); return nil }
		}
		res, err := db.Load(ctx, "Tab", backend.OpInsert, sliceSource(src), opts)
		stored := len(dump(t, db, "Tab"))
		if onReject {
			if err != nil || res.Written != 3600 || stored != 3600 || !reflect.DeepEqual(refused, []int64{3300}) {
				t.Fatalf("err %v written %d stored %d refused %v", err, res.Written, stored, refused)
			}
			continue
		}
		wantCode(t, err, odata.CodeEntityAlreadyExists, 409)
		if res.Written != 0 || stored != 0 {
			t.Fatalf("written %d stored %d, want 0", res.Written, stored)
		}
	}
}
