package store

import (
	"errors"
	"fmt"
	"io"
	"math"
	"reflect"
	"testing"
	"time"

	"github.com/tstable/tstable/backend"
	"github.com/tstable/tstable/odata"
)

func TestReopenKeepsEveryType(t *testing.T) {
	db, path := openTemp(t)
	newTable(t, db, "Types")
	g, _ := odata.Guid("{0F8FAD5B-D9CB-469F-A165-70867728950E}")
	props := []odata.Property{
		prop("S", odata.String("héllo 😀")), prop("Empty", odata.String("")),
		prop("I32min", odata.Int32(math.MinInt32)), prop("I32max", odata.Int32(math.MaxInt32)),
		prop("I64min", odata.Int64(math.MinInt64)), prop("I64max", odata.Int64(math.MaxInt64)),
		prop("D", odata.Double(-0.1)), prop("NaN", odata.Double(math.NaN())),
		prop("Inf", odata.Double(math.Inf(1))), prop("NegInf", odata.Double(math.Inf(-1))),
		prop("T", odata.Bool(true)), prop("F", odata.Bool(false)),
		prop("Min", odata.DateTimeTicks(odata.MinDateTimeTicks)), prop("Max", odata.DateTimeTicks(odata.MaxDateTimeTicks)),
		prop("Now", odata.DateTime(time.Date(2014, 8, 22, 0, 50, 32, 123456700, time.UTC))),
		prop("G", g), prop("Bin", odata.Binary([]byte{0, 1, 0, 255})), prop("NoBytes", odata.Binary(nil)),
	}
	written := mustWrite(t, db, "Types", backend.OpInsert, ent("p", "r", props...))
	db.Close()
	db2, err := Open(path, &Options{ReadOnly: true})
	if err != nil {
		t.Fatal(err)
	}
	defer db2.Close()
	got, err := db2.Get(ctx, "Types", "p", "r")
	if err != nil {
		t.Fatal(err)
	}
	if len(got.Properties) != len(props) || !got.Timestamp.Equal(written.Timestamp) {
		t.Fatalf("got %d properties, timestamp %v", len(got.Properties), got.Timestamp)
	}
	for i, p := range props {
		if got.Properties[i].Name != p.Name || !got.Properties[i].Value.Equal(p.Value) {
			t.Errorf("%s: got %+v, want %+v", p.Name, got.Properties[i].Value, p.Value)
		}
	}
	if _, err := db2.Write(ctx, "Types", backend.Operation{Kind: backend.OpInsert, Entity: ent("p", "x")}); err == nil {
		t.Fatal("a read-only database accepted a write")
	}
}

func TestReadOnlyOpenOfMissingFile(t *testing.T) {
	_, err := Open(t.TempDir()+"/none.db", &Options{ReadOnly: true})
	wantCode(t, err, odata.CodeResourceNotFound, 404)
}

func TestSecondOpenIsLocked(t *testing.T) {
	_, path := openTemp(t)
	start := time.Now()
	_, err := Open(path, &Options{Wait: 100 * time.Millisecond})
	e := wantCode(t, err, odata.CodeDatabaseLocked, 409)
	if time.Since(start) > 5*time.Second {
		t.Fatal("waited too long for the lock")
	}
	if e.Message == "" {
		t.Fatal("no message")
	}
}

func source(es []*odata.Entity) backend.EntitySource {
	i := 0
	return func() (*odata.Entity, error) {
		if i == len(es) {
			return nil, io.EOF
		}
		i++
		return es[i-1], nil
	}
}

// A refused entity stops the load before it writes anything.
func TestLoadStopsAtRejectWritingNothing(t *testing.T) {
	db, _ := openTemp(t)
	newTable(t, db, "Tbl")
	var es []*odata.Entity
	for i := 0; i < 10; i++ {
		es = append(es, ent("p", fmt.Sprintf("%02d", i), prop("N", odata.Int32(int32(i)))))
	}
	es[6] = ent("p", "bad/key")
	res, err := db.Load(ctx, "Tbl", backend.OpInsert, source(es), backend.LoadOptions{})
	if odata.CodeOf(err) != odata.CodeOutOfRangeInput || res.Written != 0 || res.Rejected != 1 {
		t.Fatalf("load: %+v %v", res, err)
	}
	if got := keysOf(dump(t, db, "Tbl")); len(got) != 0 {
		t.Fatalf("committed %v", got)
	}
}

func TestLoadContinuesWhenAsked(t *testing.T) {
	db, _ := openTemp(t)
	newTable(t, db, "Tbl")
	mustWrite(t, db, "Tbl", backend.OpInsert, ent("p", "03"))
	var es []*odata.Entity
	for i := 0; i < 6; i++ {
		es = append(es, ent("p", fmt.Sprintf("%02d", i)))
	}
	var rejected []int64
	res, err := db.Load(ctx, "Tbl", backend.OpInsert, source(es), backend.LoadOptions{OnReject: func(n int64, e *odata.Entity, err error) error {
		rejected = append(rejected, n)
		return nil
	}})
	if err != nil || res.Written != 5 || !reflect.DeepEqual(rejected, []int64{3}) {
		t.Fatalf("%+v %v %v", res, err, rejected)
	}
	boom := errors.New("source broke")
	n := 0
	_, err = db.Load(ctx, "Tbl", backend.OpInsertOrReplace, func() (*odata.Entity, error) {
		n++
		if n > 2 {
			return nil, boom
		}
		return ent("q", fmt.Sprint(n)), nil
	}, backend.LoadOptions{})
	if !errors.Is(err, boom) || len(dump(t, db, "Tbl")) != 6 { // the source's error: nothing of that load is written
		t.Fatalf("source error: %v, the table holds %d", err, len(dump(t, db, "Tbl")))
	}
}

func TestLoadMergesAndReplaces(t *testing.T) {
	db, _ := openTemp(t)
	newTable(t, db, "Tbl")
	mustWrite(t, db, "Tbl", backend.OpInsert, ent("p", "1", prop("A", odata.Int32(1))))
	if _, err := db.Load(ctx, "Tbl", backend.OpInsertOrMerge, source([]*odata.Entity{ent("p", "1", prop("B", odata.Int32(2)))}), backend.LoadOptions{}); err != nil {
		t.Fatal(err)
	}
	got, _ := db.Get(ctx, "Tbl", "p", "1")
	if len(got.Properties) != 2 {
		t.Fatalf("merge load: %+v", got)
	}
	_, err := db.Load(ctx, "Tbl", backend.OpReplace, source([]*odata.Entity{ent("p", "2")}), backend.LoadOptions{})
	wantCode(t, err, odata.CodeResourceNotFound, 404)
}
