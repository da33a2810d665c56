package store

import (
	"errors"
	"fmt"
	"io"
	"math/rand"
	"reflect"
	"testing"

	"github.com/tstable/tstable/odata"
)

func sliceSource(es []*odata.Entity) EntitySource {
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
		db, err := Open(t.TempDir()+"/t.db", &Options{loadChunk: 1200})
		if err != nil {
			t.Fatal(err)
		}
		newTable(t, db, "Tab")
		res, err := db.Load(ctx, "Tab", OpInsert, sliceSource(src), LoadOptions{})
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

// A refusal found while writing a sorted chunk (a key already there, a
// key twice in the input) still stops the load exactly at the refused
// entity: everything before it in the source is stored, nothing after;
// with OnReject, the refused ones are reported in source order and the rest stored.
func TestLoadSortedChunkStopsAtTheRefusedEntity(t *testing.T) {
	var src []*odata.Entity
	for i := 0; i < 300; i++ {
		src = append(src, benchEntity((i*7919)%1000)) // distinct keys, out of order
	}
	dup := *src[10]
	src = append(src[:200:200], append([]*odata.Entity{&dup}, src[200:]...)...) // position 200 repeats position 10
	bad := ent("p", "bad/key")
	src = append(src[:250:250], append([]*odata.Entity{bad}, src[250:]...)...) // position 250 is invalid

	db, _ := openTemp(t)
	newTable(t, db, "Tab")
	mustWrite(t, db, "Tab", OpInsert, src[150]) // position 150 exists already
	res, err := db.Load(ctx, "Tab", OpInsert, sliceSource(src), LoadOptions{})
	wantCode(t, err, odata.CodeEntityAlreadyExists, 409)
	if res.Written != 150 || res.Rejected != 1 {
		t.Fatalf("written %d rejected %d", res.Written, res.Rejected)
	}
	want := map[string]bool{}
	for _, e := range src[:151] {
		want[e.PartitionKey+"|"+e.RowKey] = true
	}
	got := dump(t, db, "Tab")
	if len(got) != len(want) {
		t.Fatalf("stored %d, want %d", len(got), len(want))
	}
	for _, e := range got {
		if !want[e.PartitionKey+"|"+e.RowKey] {
			t.Fatalf("stored %s|%s, from after the refused entity", e.PartitionKey, e.RowKey)
		}
	}

	// Going on past refusals: they are reported in source order.
	db2, _ := openTemp(t)
	newTable(t, db2, "Tab")
	mustWrite(t, db2, "Tab", OpInsert, src[150])
	var refused []int64
	res, err = db2.Load(ctx, "Tab", OpInsert, sliceSource(src), LoadOptions{OnReject: func(n int64, e *odata.Entity, err error) error {
		refused = append(refused, n)
		return nil
	}})
	if err != nil || !reflect.DeepEqual(refused, []int64{150, 200, 250}) || res.Written != int64(len(src)-3) {
		t.Fatalf("err %v refused %v written %d", err, refused, res.Written)
	}
	// Stopping at the second refusal keeps everything before it.
	db3, _ := openTemp(t)
	newTable(t, db3, "Tab")
	mustWrite(t, db3, "Tab", OpInsert, src[150])
	stop := errors.New("stop")
	res, err = db3.Load(ctx, "Tab", OpInsert, sliceSource(src), LoadOptions{OnReject: func(n int64, e *odata.Entity, err error) error {
		if n == 200 {
			return stop
		}
		return nil
	}})
	if err != stop || res.Written != 199 || len(dump(t, db3, "Tab")) != 200 {
		t.Fatalf("err %v written %d stored %d", err, res.Written, len(dump(t, db3, "Tab")))
	}
}

// A long ascending run, then keys out of order: the run is committed as it
// came, the rest sorted; a refusal in the rest stops the load exactly there.
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
		opts := LoadOptions{}
		if onReject {
			opts.OnReject = func(n int64, e *odata.Entity, err error) error { refused = append(refused, n); return nil }
		}
		res, err := db.Load(ctx, "Tab", OpInsert, sliceSource(src), opts)
		stored := len(dump(t, db, "Tab"))
		if onReject {
			if err != nil || res.Written != 3600 || stored != 3600 || !reflect.DeepEqual(refused, []int64{3300}) {
				t.Fatalf("err %v written %d stored %d refused %v", err, res.Written, stored, refused)
			}
			continue
		}
		wantCode(t, err, odata.CodeEntityAlreadyExists, 409)
		if res.Written != 3300 || stored != 3300 {
			t.Fatalf("written %d stored %d, want 3300", res.Written, stored)
		}
	}
}
