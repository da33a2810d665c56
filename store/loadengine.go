package store

import (
	"context"

	"github.com/tstable/tstable/store/internal/bulk"
	"github.com/tstable/tstable/store/internal/values"
)

// The store as package bulk sees it: a load's calls, transactions and
// buckets are the store's own, guarded, under names bulk can call.

// loadEngine is a DB as a load's engine.
type loadEngine struct{ db *DB }

func (e loadEngine) Path() string                                  { return e.db.path }
func (e loadEngine) Layout() values.Layout                         { return e.db.fileLayout() }
func (e loadEngine) TakeBackNow() (bool, error)                    { return e.db.takeBackNow() }
func (e loadEngine) Release(ctx context.Context) error             { return e.db.release(ctx) }
func (e loadEngine) StepAside(ctx context.Context) error           { return e.db.stepAside(ctx) }
func (e loadEngine) ReserveMap(ctx context.Context, n int64) error { return e.db.reserveMap(ctx, n) }
func (e loadEngine) EmptyForLoad(table string) (bool, error)       { return e.db.emptyForLoad(table) }
func (e loadEngine) ProcessAlive(pid int) bool                     { return ProcessAlive(pid) }

// Do runs fn as one call of the DB (see DB.do).
func (e loadEngine) Do(write, once bool, fn func(c bulk.Call) error) error {
	return e.db.do(write, func(o *op) error {
		o.once = once
		return fn(loadCall{o})
	})
}

// loadCall is one call of the DB, for a load.
type loadCall struct{ o *op }

func (c loadCall) View(fn func(t bulk.Tx) error) error {
	return c.o.view(func(t *gtx) error { return fn(loadTx{t}) })
}

func (c loadCall) Update(fn func(t bulk.Tx) error) error {
	return c.o.update(func(t *gtx) error { return fn(loadTx{t}) })
}

func (c loadCall) Begin() (bulk.Tx, error) {
	t, err := c.o.begin(true)
	if err != nil {
		return nil, err
	}
	return loadTx{t}, nil
}

func (c loadCall) User(fn func() error) error { return c.o.user(fn) }

// loadTx is a transaction, for a load.
type loadTx struct{ t *gtx }

func (t loadTx) NextTicks(atLeast int64) (int64, error) { return t.t.nextTicks(atLeast) }
func (t loadTx) Commit() error                          { return t.t.commit(-1) }
func (t loadTx) Rollback()                              { t.t.rollback() }
func (t loadTx) DropStaging(parent []byte) error        { return t.t.deleteStaging(parent) }

// Table is the table's bucket, or TableNotFound.
func (t loadTx) Table(name string) (bulk.Bucket, error) {
	b, err := t.t.table(name)
	if err != nil {
		return nil, err
	}
	return loadBucket{b}, nil
}

// CreateStaging makes a load's staging bucket parent, with the staged
// table's bucket child in it (see package bulk, staging.go).
func (t loadTx) CreateStaging(parent, child []byte) (bulk.Bucket, error) {
	p, err := t.t.createTop(parent)
	if err != nil {
		return nil, err
	}
	if err := p.put(values.StagingMarker, child); err != nil {
		return nil, err
	}
	b, err := p.createBucket(child)
	if err != nil {
		return nil, err
	}
	if t.t.layout().Mapped() {
		if err := newIncarnation(t.t, b); err != nil {
			return nil, err
		}
	}
	t.t.holdsEntities(b)
	return loadBucket{b}, nil
}

// Staged is the staged table's bucket child of the staging bucket
// parent, nil when there is none.
func (t loadTx) Staged(parent, child []byte) (bulk.Bucket, error) {
	p, err := t.t.top(parent)
	if err != nil || p == nil {
		return nil, err
	}
	b, err := p.bucket(child)
	if err != nil || b == nil {
		return nil, err
	}
	t.t.holdsEntities(b)
	return loadBucket{b}, nil
}

// SwapIn puts the staged table's bucket child of parent in place of the
// table's, and removes parent.
func (t loadTx) SwapIn(parent, child []byte) error {
	p, err := t.t.top(parent)
	if err != nil {
		return err
	}
	if err := t.t.deleteTable(child); err != nil {
		return err
	}
	if err := t.t.moveTop(child, p); err != nil {
		return err
	}
	return t.t.deleteTop(parent)
}

// loadBucket is a table's bucket, for a load.
type loadBucket struct{ b *gbucket }

func (b loadBucket) Codec() *values.Codec                               { return b.b.codec }
func (b loadBucket) First() ([]byte, error)                             { return b.b.first() }
func (b loadBucket) Last() ([]byte, error)                              { return b.b.last() }
func (b loadBucket) Get(key []byte) ([]byte, error)                     { return b.b.get(key) }
func (b loadBucket) Put(key, v []byte) error                            { return b.b.put(key, v) }
func (b loadBucket) Scan(after []byte, fn func(k, v []byte) bool) error { return b.b.scan(after, fn) }
func (b loadBucket) FillPages(f float64)                                { b.b.fillPages(f) }
