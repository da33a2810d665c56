package store

import (
	"context"
	"runtime"
	"strconv"

	"github.com/tstable/tstable/backend"
	"github.com/tstable/tstable/odata"
	"github.com/tstable/tstable/store/internal/bulk"
	"github.com/tstable/tstable/store/internal/values"
)

// A load into the store: package bulk reads, sorts, checks and writes it
// (or stages it), through the store as a bulk.Engine (loadEngine, below);
// what a load needs of the engine itself is here.

// Load writes entities from src with one kind of operation. It reads the
// whole source first, validating and encoding each entity and sorting
// them by key (in memory, or through a temporary file next to the
// database, ".NAME.import-PID-*.tmp", when they do not fit in memory; the
// file is removed however Load returns, and one a killed process left is
// removed by the next Open for writing or Load). It then checks the sorted entities
// against the table without writing (an insert of a key the table or the
// source already holds, a replace or merge of a key that is not there, a
// merge that makes an entity too large), and only then writes them, in
// key order, in large transactions (chunks). Entities with one key keep
// their source order.
//
// What is committed when a load stops early:
//
//   - An entity the store refuses goes to opts.OnReject (nil stops at the
//     first). When that stops the load, nothing of this load is written:
//     not for a bad entity found while reading (the source's own error, a
//     cancelled ctx, a failure of the temporary file), nor for one the
//     check finds (a key twice in the source for an insert is refused at
//     its second position). A refusal found while reading stops the load
//     at once; of those the check finds, the one first in the source
//     does. OnReject hears of the entities refused while reading as they
//     come, then of those the check refuses, in source order.
//   - Once writing has begun, chunks are committed one by one in key
//     order. When a commit fails (a full disk, an I/O error), Load returns
//     a *backend.CommitError whose FromKey is the first key not stored: the file
//     holds every entity of the source with a smaller key (but the refused
//     ones) and none from it on, and the result's Written counts them.
//     The same holds for a cancelled ctx, for DatabaseLocked when Load
//     steps aside and the process it let in keeps the file too long, and for a refusal that
//     appears only while writing (another process wrote the key between
//     the check and the write): the chunk being written is rolled back,
//     and Written is what the earlier chunks committed.
//
// Into a table empty when Load starts, an insert, insert-or-replace or
// insert-or-merge whose source comes in ascending key order is staged
// instead (see package bulk, staging.go): written while it is read,
// chunk by chunk, into a staging bucket that is not a table, and put in
// the table's place in one transaction once the whole source is read. Such a load is all or
// nothing: however it stops (a refusal, the source's error, a cancelled
// ctx, a failed commit, with FromKey its first key and Written 0, or the
// process killed), the table stays empty; Progress counts the entities
// staged. A key not after the one before it (or the table found written
// at the end) has the staged entities read back, and the load goes on as
// above. A load is not staged when another process holds the file as it
// begins (a DB opened with Options.Later) or at its first staged batch:
// that process may be the one writing the source, which waits for the
// load to read on, so the load reads its whole source first. Open for writing and Load remove staging buckets left by
// processes that are gone.
//
// The check keeps the entities it refuses (with OnReject) in memory until
// it has told OnReject of them. A load also removes the temporary files
// that loads killed before they could remove their own left behind
// (those whose process is gone).
//
// When the keys are all after the table's last key, pages are filled
// whole (bulk append, as Compact fills them), so a load in any key order
// leaves the tree as compact as a sorted one.
//
// Load does not keep the file to itself: while it reads its source it lets
// go of the file altogether (taking it back to commit a staged batch, and
// to check and write), and while it checks, and between two chunks, when
// another process waits for the file, it closes it, lets that process in,
// and opens it again (waiting, as Open does, up to Options.Wait). That process sees the chunks committed so far: the
// entities of the source up to some key. When that process keeps the file
// longer than the wait, Load returns DatabaseLocked with the count committed, and the
// DB stays closed.
func (db *DB) Load(ctx context.Context, table string, kind backend.OpKind, src backend.EntitySource, opts backend.LoadOptions) (*backend.LoadResult, error) {
	db.loaded.Store(true) // see trimTail
	return db.load(ctx, table, kind, src, opts, false)
}

// load is Load; keep stores each entity's own Timestamp (recover copies
// them) instead of the time of the write.
func (db *DB) load(ctx context.Context, table string, kind backend.OpKind, src backend.EntitySource, opts backend.LoadOptions, keep bool) (*backend.LoadResult, error) {
	return bulk.Load(ctx, loadEngine{db}, table, kind, src, opts, bulk.Settings{Keep: keep,
		Chunk: db.opts.loadChunk, Every: db.opts.loadEvery, Run: db.opts.loadRun, NoStaging: db.opts.noStaging})
}

// emptyForLoad removes the staging buckets killed loads left and reports
// whether table is empty (a load into it may be staged).
func (db *DB) emptyForLoad(table string) (empty bool, err error) {
	if err := db.removeLeftStaging(); err != nil {
		return false, err
	}
	err = db.do(true, func(o *op) error {
		return o.view(func(t *gtx) error {
			b, err := t.table(table)
			if err != nil {
				return err
			}
			k, err := b.first()
			empty = k == nil
			return err
		})
	})
	return empty, err
}

// reserveFrom is the least a load writes for reserveMap to act: bbolt's
// allocation step. Below it, bbolt grows the file to the size it maps.
const reserveFrom = 16 << 20

// reserveMap has the engine map room for a load of n bytes before it
// writes (reopening the file, as stepAside does), so that it does not
// remap the file each time the file outgrows the map: a remap copies
// every key and value of the open transaction out of the map. It maps
// address space, not memory, and the file still grows only as written.
// Not where addresses are 32 bits, nor on Windows, where the file would
// grow to the size mapped.
func (db *DB) reserveMap(ctx context.Context, n int64) error {
	if n < reserveFrom || strconv.IntSize < 64 || runtime.GOOS == "windows" {
		return nil
	}
	db.mu.Lock()
	defer db.mu.Unlock()
	if db.bolt == nil {
		return odata.Errorf(odata.CodeInternalError, "database %s is closed", db.path)
	}
	st, err := db.file.Stat()
	if db.damaged.Load() != nil || err != nil {
		return nil
	}
	want := int(min(st.Size()+2*n, 1<<30))
	if want <= db.mapAtLeast {
		return nil
	}
	db.mapAtLeast = want
	if err := db.closeEngine(); err != nil {
		return err
	}
	return db.open(ctx)
}

// loadEngine is a DB as a load's engine.
type loadEngine struct{ db *DB }

func (e loadEngine) Path() string { return e.db.path }

func (e loadEngine) Layout() values.Layout { return e.db.fileLayout() }

func (e loadEngine) TakeBackNow() (bool, error) { return e.db.takeBackNow() }

func (e loadEngine) Release(ctx context.Context) error { return e.db.release(ctx) }

func (e loadEngine) StepAside(ctx context.Context) error { return e.db.stepAside(ctx) }

func (e loadEngine) ReserveMap(ctx context.Context, n int64) error { return e.db.reserveMap(ctx, n) }

func (e loadEngine) EmptyForLoad(table string) (bool, error) { return e.db.emptyForLoad(table) }

func (e loadEngine) ProcessAlive(pid int) bool { return ProcessAlive(pid) }

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

func (t loadTx) Commit() error { return t.t.commit(-1) }

func (t loadTx) Rollback() { t.t.rollback() }

func (t loadTx) DropStaging(parent []byte) error { return t.t.deleteStaging(parent) }

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

func (b loadBucket) Codec() *values.Codec { return b.b.codec }

func (b loadBucket) First() ([]byte, error) { return b.b.first() }

func (b loadBucket) Last() ([]byte, error) { return b.b.last() }

func (b loadBucket) Get(key []byte) ([]byte, error) { return b.b.get(key) }

func (b loadBucket) Put(key, v []byte) error { return b.b.put(key, v) }

func (b loadBucket) Scan(after []byte, fn func(k, v []byte) bool) error { return b.b.scan(after, fn) }

func (b loadBucket) FillPages(f float64) { b.b.fillPages(f) }
