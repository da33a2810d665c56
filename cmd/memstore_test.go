package cmd

import (
	"context"
	"errors"
	"io"
	"os"
	"slices"
	"strings"
	"sync"
	"time"

	"github.com/tstable/tstable/odata"
	"github.com/tstable/tstable/store"
)

// memBackend is an in-memory store.Backend with the service's semantics
// for what the command tests exercise: the golden tests run against it
// while the bbolt store is built (useMemStore), so they check the
// commands' own behaviour — parsing, rendering, errors, exit statuses —
// against a backend whose answers are known.
type memBackend struct {
	db *memDB
}

type memDB struct {
	mu     sync.Mutex
	tables map[string]*memTable // by lower-case name
	last   time.Time
}

type memTable struct {
	name string
	rows map[odata.Key]*odata.Entity
}

var (
	memMu  sync.Mutex
	memDBs = map[string]*memDB{}
)

// useMemStore makes the commands open in-memory databases, one per path,
// kept for the life of the test binary.
func useMemStore() {
	openBackend = func(path string, readOnly bool) (store.Backend, error) {
		memMu.Lock()
		defer memMu.Unlock()
		if !readOnly { // the file exists once written, as with the real store
			if err := os.WriteFile(path, nil, 0o644); err != nil {
				return nil, err
			}
		}
		db := memDBs[path]
		if db == nil {
			db = &memDB{tables: map[string]*memTable{}}
			memDBs[path] = db
		}
		return &memBackend{db: db}, nil
	}
}

func (b *memBackend) Describe() string { return "memory" }
func (b *memBackend) Close() error     { return nil }

func (b *memBackend) CreateTable(ctx context.Context, name string) error {
	b.db.mu.Lock()
	defer b.db.mu.Unlock()
	if len(name) < 3 || len(name) > 63 || !isAlnum(name) || name[0] >= '0' && name[0] <= '9' {
		return odata.Errorf(odata.CodeInvalidResourceName, "table name %q is invalid: use 3 to 63 letters and digits, starting with a letter", name)
	}
	k := strings.ToLower(name)
	if _, ok := b.db.tables[k]; ok {
		return odata.Errorf(odata.CodeTableAlreadyExists, "table %q already exists", name)
	}
	b.db.tables[k] = &memTable{name: name, rows: map[odata.Key]*odata.Entity{}}
	return nil
}

func isAlnum(s string) bool {
	for _, r := range s {
		if !(r >= 'a' && r <= 'z' || r >= 'A' && r <= 'Z' || r >= '0' && r <= '9') {
			return false
		}
	}
	return true
}

func (b *memBackend) DeleteTable(ctx context.Context, name string) error {
	b.db.mu.Lock()
	defer b.db.mu.Unlock()
	if _, err := b.table(name); err != nil {
		return err
	}
	delete(b.db.tables, strings.ToLower(name))
	return nil
}

func (b *memBackend) ListTables(ctx context.Context) ([]string, error) {
	b.db.mu.Lock()
	defer b.db.mu.Unlock()
	var names []string
	for _, t := range b.db.tables {
		names = append(names, t.name)
	}
	slices.Sort(names)
	return names, nil
}

func (b *memBackend) table(name string) (*memTable, error) {
	t := b.db.tables[strings.ToLower(name)]
	if t == nil {
		return nil, odata.Errorf(odata.CodeTableNotFound, "table %q does not exist", name)
	}
	return t, nil
}

func (b *memBackend) now() time.Time {
	t := time.Now().UTC().Truncate(100 * time.Nanosecond)
	if !t.After(b.db.last) {
		t = b.db.last.Add(100 * time.Nanosecond)
	}
	b.db.last = t
	return t
}

// apply performs op on rows (which it may modify) and returns the result.
func (b *memBackend) apply(rows map[odata.Key]*odata.Entity, op store.Operation) (*odata.Entity, error) {
	e := op.Entity
	k := odata.Key{PartitionKey: e.PartitionKey, RowKey: e.RowKey}
	old := rows[k]
	cond := func() error {
		if old == nil {
			return odata.Errorf(odata.CodeResourceNotFound, "entity (%s, %s) does not exist", e.PartitionKey, e.RowKey)
		}
		if op.IfMatch != "*" && op.IfMatch != old.ETag() {
			return odata.Errorf(odata.CodeUpdateConditionNotSatisfied, "entity (%s, %s) has ETag %s, not %s", e.PartitionKey, e.RowKey, old.ETag(), op.IfMatch)
		}
		return nil
	}
	var next *odata.Entity
	switch op.Kind {
	case store.OpInsert:
		if old != nil {
			return nil, odata.Errorf(odata.CodeEntityAlreadyExists, "entity (%s, %s) already exists", e.PartitionKey, e.RowKey)
		}
		next = e.Clone()
	case store.OpReplace:
		if err := cond(); err != nil {
			return nil, err
		}
		next = e.Clone()
	case store.OpMerge:
		if err := cond(); err != nil {
			return nil, err
		}
		next = old.Clone()
		for _, p := range e.Properties {
			next.Set(p.Name, p.Value)
		}
	case store.OpInsertOrReplace:
		next = e.Clone()
	case store.OpInsertOrMerge:
		if old == nil {
			next = e.Clone()
		} else {
			next = old.Clone()
			for _, p := range e.Properties {
				next.Set(p.Name, p.Value)
			}
		}
	case store.OpDelete:
		if err := cond(); err != nil {
			return nil, err
		}
		delete(rows, k)
		return &odata.Entity{PartitionKey: k.PartitionKey, RowKey: k.RowKey}, nil
	}
	next.Timestamp = b.now()
	rows[k] = next
	return next.Clone(), nil
}

func (b *memBackend) Write(ctx context.Context, table string, op store.Operation) (*odata.Entity, error) {
	b.db.mu.Lock()
	defer b.db.mu.Unlock()
	t, err := b.table(table)
	if err != nil {
		return nil, err
	}
	return b.apply(t.rows, op)
}

func (b *memBackend) Batch(ctx context.Context, table string, ops []store.Operation) ([]*odata.Entity, error) {
	b.db.mu.Lock()
	defer b.db.mu.Unlock()
	t, err := b.table(table)
	if err != nil {
		return nil, err
	}
	if len(ops) > 100 {
		return nil, odata.Errorf(odata.CodeInvalidInput, "a batch holds at most 100 operations; this one has %d", len(ops))
	}
	rows := make(map[odata.Key]*odata.Entity, len(t.rows))
	for k, v := range t.rows {
		rows[k] = v
	}
	var out []*odata.Entity
	seen := map[odata.Key]bool{}
	for i, op := range ops {
		k := odata.Key{PartitionKey: op.Entity.PartitionKey, RowKey: op.Entity.RowKey}
		if k.PartitionKey != ops[0].Entity.PartitionKey {
			return nil, odata.AtIndex(odata.Errorf(odata.CodeCommandsInBatchActOnDifferentPartitions, "PartitionKey %q differs from the batch's %q", k.PartitionKey, ops[0].Entity.PartitionKey), i)
		}
		if seen[k] {
			return nil, odata.AtIndex(odata.Errorf(odata.CodeInvalidDuplicateRow, "entity (%s, %s) appears twice in the batch", k.PartitionKey, k.RowKey), i)
		}
		seen[k] = true
		e, err := b.apply(rows, op)
		if err != nil {
			return nil, odata.AtIndex(err, i)
		}
		out = append(out, e)
	}
	t.rows = rows
	return out, nil
}

func (b *memBackend) Get(ctx context.Context, table, pk, rk string) (*odata.Entity, error) {
	b.db.mu.Lock()
	defer b.db.mu.Unlock()
	t, err := b.table(table)
	if err != nil {
		return nil, err
	}
	e := t.rows[odata.Key{PartitionKey: pk, RowKey: rk}]
	if e == nil {
		return nil, odata.Errorf(odata.CodeResourceNotFound, "entity (%s, %s) does not exist in %s", pk, rk, table)
	}
	return e.Clone(), nil
}

func (b *memBackend) Query(ctx context.Context, table string, req store.QueryRequest, fn func(*odata.Entity) error) (*store.QueryResult, error) {
	b.db.mu.Lock()
	t, err := b.table(table)
	if err != nil {
		b.db.mu.Unlock()
		return nil, err
	}
	keys := make([]odata.Key, 0, len(t.rows))
	for k := range t.rows {
		keys = append(keys, k)
	}
	rows := t.rows
	b.db.mu.Unlock()
	slices.SortFunc(keys, odata.CompareKeys)
	plan := odata.PlanQuery(req.Query.Filter)
	res := &store.QueryResult{Plan: plan, Requests: 1}
	inRanges := func(k odata.Key) bool {
		for _, r := range plan.Ranges {
			if r.Contains(k) {
				return true
			}
		}
		return false
	}
	for _, k := range keys {
		if req.Start != nil && odata.CompareKeys(k, *req.Start) < 0 || !inRanges(k) {
			continue
		}
		if req.PageSize > 0 && res.Returned == int64(req.PageSize) {
			next := k
			res.Next = &next
			break
		}
		res.Scanned++
		e := rows[k]
		if !req.Query.Filter.Match(e) {
			continue
		}
		res.Returned++
		if err := fn(odata.Project(e.Clone(), req.Query.Select)); err != nil {
			return res, err
		}
	}
	return res, nil
}

func (b *memBackend) Load(ctx context.Context, table string, kind store.OpKind, src store.EntitySource, opts store.LoadOptions) (*store.LoadResult, error) {
	res := &store.LoadResult{}
	for n := int64(0); ; n++ {
		e, err := src()
		if errors.Is(err, io.EOF) {
			return res, nil
		}
		if err != nil {
			return res, err
		}
		ifMatch := ""
		if kind == store.OpReplace {
			ifMatch = "*"
		}
		if _, err := b.Write(ctx, table, store.Operation{Kind: kind, Entity: e, IfMatch: ifMatch}); err != nil {
			if odata.IsCode(err, odata.CodeTableNotFound) || opts.OnReject == nil {
				return res, err
			}
			res.Rejected++
			if rerr := opts.OnReject(n, e, err); rerr != nil {
				return res, rerr
			}
			continue
		}
		res.Written++
	}
}
