// Package storetest is the contract every tstable backend keeps: one
// suite of behaviour a user sees (tables, writes with ETags, reads, ordered
// paged queries, typed filters, atomic batches, bulk load), run against the
// local bbolt store and against Azurite, with the same assertions.
package storetest

import (
	"context"
	"errors"
	"fmt"
	"io"
	"math"
	"sort"
	"strings"
	"testing"
	"time"

	"github.com/tstable/tstable/backend"
	"github.com/tstable/tstable/odata"
)

// Run runs the contract against the backend open returns. Each subtest
// uses its own table, named with prefix.
func Run(t *testing.T, prefix string, open func(t *testing.T) backend.Backend) {
	c := &contract{prefix: prefix, open: open}
	for _, s := range []struct {
		name string
		test func(t *testing.T)
	}{
		{"Tables", c.tables},
		{"EveryTypeRoundTrips", c.everyTypeRoundTrips},
		{"ETagsAndUpdates", c.etagsAndUpdates},
		{"OrderedPagedQueries", c.orderedPagedQueries},
		{"BatchIsAtomic", c.batchIsAtomic},
		{"Load", c.load},
	} {
		t.Run(s.name, s.test)
	}
}

// contract is the suite over one backend.
type contract struct {
	prefix string
	open   func(t *testing.T) backend.Backend
}

var ctx = context.Background()

// table creates a fresh table of b for one subtest, deleted when it ends.
func (c *contract) table(t *testing.T, b backend.Backend, name string) string {
	n := c.prefix + name
	b.DeleteTable(ctx, n)
	if err := b.CreateTable(ctx, n); err != nil {
		t.Fatalf("create %s: %v", n, err)
	}
	t.Cleanup(func() { b.DeleteTable(ctx, n) })
	return n
}

// tables checks tables: create (twice), list, delete a missing one, a bad name.
func (c *contract) tables(t *testing.T) {
	b := c.open(t)
	n := c.table(t, b, "Tables")
	wantCode(t, b.CreateTable(ctx, n), odata.CodeTableAlreadyExists)
	names, err := b.ListTables(ctx)
	if err != nil || !contains(names, n) {
		t.Fatalf("ListTables = %v, %v; want %s in it", names, err, n)
	}
	// The service answers 404 ResourceNotFound to deleting a missing
	// table (Azurite says TableNotFound); both are a 404.
	if err := b.DeleteTable(ctx, c.prefix+"Missing"); !odata.IsCode(err, odata.CodeResourceNotFound) && !odata.IsCode(err, odata.CodeTableNotFound) {
		t.Errorf("deleting a missing table: %v, want a 404", err)
	}
	wantCode(t, b.CreateTable(ctx, "bad-name"), odata.CodeInvalidResourceName)
}

// everyTypeRoundTrips checks every Edm type reads back as written, with the write's Timestamp.
func (c *contract) everyTypeRoundTrips(t *testing.T) {
	b := c.open(t)
	n := c.table(t, b, "Types")
	e := everyType("p", "r")
	if _, err := b.Write(ctx, n, backend.Operation{Kind: backend.OpInsert, Entity: e}); err != nil {
		t.Fatal(err)
	}
	got, err := b.Get(ctx, n, "p", "r")
	if err != nil {
		t.Fatal(err)
	}
	for _, p := range e.Properties {
		v, ok := got.Get(p.Name)
		if !ok || !sameValue(v, p.Value) {
			t.Errorf("%s: got %+v (present %v), want %+v", p.Name, v, ok, p.Value)
		}
	}
	if got.Timestamp.IsZero() || time.Since(got.Timestamp) > time.Hour {
		t.Errorf("Timestamp %v: want the time of the write", got.Timestamp)
	}
	_, err = b.Write(ctx, n, backend.Operation{Kind: backend.OpInsert, Entity: e})
	wantCode(t, err, odata.CodeEntityAlreadyExists)
}

// etagsAndUpdates checks merge, replace, upsert and delete under ETag conditions.
func (c *contract) etagsAndUpdates(t *testing.T) {
	b := c.open(t)
	n := c.table(t, b, "ETags")
	first, err := b.Write(ctx, n, backend.Operation{Kind: backend.OpInsert, Entity: ent("p", "r", "A", odata.Int32(1), "B", odata.String("b"))})
	if err != nil {
		t.Fatal(err)
	}
	stale := first.ETag()
	time.Sleep(2 * time.Millisecond)
	if _, err := b.Write(ctx, n, backend.Operation{Kind: backend.OpMerge, Entity: ent("p", "r", "A", odata.Int32(2)), IfMatch: stale}); err != nil {
		t.Fatalf("merge with the current ETag: %v", err)
	}
	_, err = b.Write(ctx, n, backend.Operation{Kind: backend.OpReplace, Entity: ent("p", "r", "C", odata.Bool(true)), IfMatch: stale})
	wantCode(t, err, odata.CodeUpdateConditionNotSatisfied)
	got, _ := b.Get(ctx, n, "p", "r")
	if v, _ := got.Get("A"); v.Int != 2 {
		t.Errorf("merge: A = %+v, want 2", v)
	}
	if _, ok := got.Get("B"); !ok {
		t.Error("merge dropped B")
	}
	if _, err := b.Write(ctx, n, backend.Operation{Kind: backend.OpReplace, Entity: ent("p", "r", "C", odata.Bool(true)), IfMatch: "*"}); err != nil {
		t.Fatal(err)
	}
	got, _ = b.Get(ctx, n, "p", "r")
	if _, ok := got.Get("A"); ok || len(got.Properties) != 1 {
		t.Errorf("replace kept old properties: %+v", got.Properties)
	}
	_, err = b.Write(ctx, n, backend.Operation{Kind: backend.OpReplace, Entity: ent("p", "missing"), IfMatch: "*"})
	wantCode(t, err, odata.CodeResourceNotFound)
	_, err = b.Write(ctx, n, backend.Operation{Kind: backend.OpDelete, Entity: ent("p", "missing"), IfMatch: "*"})
	wantCode(t, err, odata.CodeResourceNotFound)
	if _, err := b.Write(ctx, n, backend.Operation{Kind: backend.OpInsertOrMerge, Entity: ent("p", "new", "X", odata.Int32(1))}); err != nil {
		t.Fatal(err)
	}
	if _, err := b.Write(ctx, n, backend.Operation{Kind: backend.OpDelete, Entity: ent("p", "new"), IfMatch: "*"}); err != nil {
		t.Fatal(err)
	}
	_, err = b.Get(ctx, n, "p", "new")
	wantCode(t, err, odata.CodeResourceNotFound)
}

// orderedPagedQueries checks key order, pages that follow one another, typed filters, $select and $top.
func (c *contract) orderedPagedQueries(t *testing.T) {
	b := c.open(t)
	n := c.table(t, b, "Pages")
	keys := []string{"b/2", "a/10", "c/1", "a/9", "b/1", "a/1"}
	for i, k := range keys {
		pk, rk, _ := strings.Cut(k, "/")
		if _, err := b.Write(ctx, n, backend.Operation{Kind: backend.OpInsert, Entity: ent(pk, rk, "Age", odata.Int32(int32(20+i*5)))}); err != nil {
			t.Fatal(err)
		}
	}
	all := queryKeys(t, b, n, backend.QueryRequest{})
	if want := "a/1 a/10 a/9 b/1 b/2 c/1"; all != want {
		t.Fatalf("order %q, want %q (PartitionKey then RowKey, ordinal)", all, want)
	}
	var pages []string
	var start *odata.Key
	for i := 0; i < 10; i++ {
		var got []string
		res, err := b.Query(ctx, n, backend.QueryRequest{PageSize: 2, Start: start}, func(e *odata.Entity) error {
			got = append(got, e.PartitionKey+"/"+e.RowKey)
			return nil
		})
		if err != nil {
			t.Fatal(err)
		}
		if len(got) > 2 {
			t.Fatalf("a page of 2 held %d", len(got))
		}
		pages = append(pages, got...)
		if res.Next == nil {
			break
		}
		start = res.Next
	}
	if strings.Join(pages, " ") != all {
		t.Errorf("pages %q, want %q", pages, all)
	}
	flt, _ := odata.ParseFilter("PartitionKey eq 'a' and Age ge 30")
	if got := queryKeys(t, b, n, backend.QueryRequest{Query: odata.Query{Filter: flt}}); got != "a/1 a/9" {
		t.Errorf("typed filter: %q", got)
	}
	flt, _ = odata.ParseFilter("RowKey ge '10' and RowKey lt '9'")
	if got := queryKeys(t, b, n, backend.QueryRequest{Query: odata.Query{Filter: flt}}); got != "a/10 b/2" {
		t.Errorf("RowKey range across partitions: %q", got)
	}
	var sel *odata.Entity
	b.Query(ctx, n, backend.QueryRequest{Query: odata.Query{Select: []string{"Age"}, Top: 1}}, func(e *odata.Entity) error { sel = e; return nil })
	if sel == nil || sel.PartitionKey != "a" || len(sel.Properties) != 1 {
		t.Errorf("select Age top 1: %+v", sel)
	}
}

// batchIsAtomic checks a batch is all or nothing, on one partition.
func (c *contract) batchIsAtomic(t *testing.T) {
	b := c.open(t)
	n := c.table(t, b, "Batch")
	if _, err := b.Write(ctx, n, backend.Operation{Kind: backend.OpInsert, Entity: ent("p", "2")}); err != nil {
		t.Fatal(err)
	}
	ops := []backend.Operation{
		{Kind: backend.OpInsert, Entity: ent("p", "1")},
		{Kind: backend.OpInsert, Entity: ent("p", "2")}, // exists
		{Kind: backend.OpInsert, Entity: ent("p", "3")},
	}
	_, err := b.Batch(ctx, n, ops)
	var se *odata.Error
	if !errors.As(err, &se) || se.Code != odata.CodeEntityAlreadyExists || se.Index != 1 {
		t.Fatalf("batch error %v, want EntityAlreadyExists at operation 1", err)
	}
	if got := queryKeys(t, b, n, backend.QueryRequest{}); got != "p/2" {
		t.Errorf("after a failed batch the table holds %q, want only p/2", got)
	}
	_, err = b.Batch(ctx, n, []backend.Operation{{Kind: backend.OpInsert, Entity: ent("p", "5")}, {Kind: backend.OpInsert, Entity: ent("q", "5")}})
	if !errors.As(err, &se) || se.Code != odata.CodeCommandsInBatchActOnDifferentPartitions || se.Index != 1 {
		t.Errorf("two partitions: %v", err)
	}
	ops[1] = backend.Operation{Kind: backend.OpDelete, Entity: ent("p", "2"), IfMatch: "*"}
	if _, err := b.Batch(ctx, n, ops); err != nil {
		t.Fatal(err)
	}
	if got := queryKeys(t, b, n, backend.QueryRequest{}); got != "p/1 p/3" {
		t.Errorf("after the batch: %q", got)
	}
}

// load checks a bulk load writes every entity.
func (c *contract) load(t *testing.T) {
	b := c.open(t)
	n := c.table(t, b, "Load")
	const total = 450
	i := 0
	res, err := b.Load(ctx, n, backend.OpInsertOrReplace, func() (*odata.Entity, error) {
		if i == total {
			return nil, io.EOF
		}
		i++
		return ent(fmt.Sprintf("p%d", (i-1)/200), fmt.Sprintf("%04d", i-1), "N", odata.Int32(int32(i))), nil
	}, backend.LoadOptions{})
	if err != nil || res.Written != total {
		t.Fatalf("Load: %+v, %v", res, err)
	}
	if got := strings.Count(queryKeys(t, b, n, backend.QueryRequest{}), " ") + 1; got != total {
		t.Errorf("%d entities after loading %d", got, total)
	}
}

func queryKeys(t *testing.T, b backend.Backend, table string, req backend.QueryRequest) string {
	t.Helper()
	var keys []string
	if _, err := b.Query(context.Background(), table, req, func(e *odata.Entity) error {
		keys = append(keys, e.PartitionKey+"/"+e.RowKey)
		return nil
	}); err != nil {
		t.Fatal(err)
	}
	return strings.Join(keys, " ")
}

func ent(pk, rk string, kv ...any) *odata.Entity {
	e := &odata.Entity{PartitionKey: pk, RowKey: rk}
	for i := 0; i+1 < len(kv); i += 2 {
		e.Set(kv[i].(string), kv[i+1].(odata.Value))
	}
	return e
}

func everyType(pk, rk string) *odata.Entity {
	when := time.Date(2014, 8, 22, 0, 50, 32, 123456700, time.UTC)
	guid, _ := odata.ParseValueText("Id", odata.EdmGuid, "6f9619ff-8b86-d011-b42d-00cf4fc964ff")
	bin, _ := odata.ParseValueText("Badge", odata.EdmBinary, "AAEC/w==")
	return ent(pk, rk,
		"Name", odata.String("Zoë 'quoted'"),
		"Age", odata.Int32(-42),
		"Big", odata.Int64(math.MaxInt64),
		"Rating", odata.Double(3.0),
		"Nan", odata.Double(math.NaN()),
		"Inf", odata.Double(math.Inf(-1)),
		"Active", odata.Bool(true),
		"Hired", odata.DateTime(when),
		"Id", guid,
		"Badge", bin,
	)
}

func sameValue(a, b odata.Value) bool {
	if a.Type != b.Type {
		return false
	}
	if a.Type == odata.EdmDouble && math.IsNaN(a.Float) {
		return math.IsNaN(b.Float)
	}
	return a == b
}

func wantCode(t *testing.T, err error, code odata.Code) {
	t.Helper()
	if !odata.IsCode(err, code) {
		t.Errorf("error %v, want %s", err, code)
	}
}

func contains(list []string, s string) bool {
	i := sort.SearchStrings(list, s)
	return i < len(list) && list[i] == s
}
