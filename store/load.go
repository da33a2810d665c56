package store

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"slices"
	"time"

	bolt "go.etcd.io/bbolt"

	"github.com/tstable/tstable/odata"
)

// A load commits a chunk of entities per transaction: loadChunk of them,
// or what loadEvery lets it write, whichever comes first. Every commit
// syncs the file, so a chunk is large; it is small enough that a chunk's
// values stay a few megabytes in memory, and short enough that a process
// waiting for the file gets it within about a second.
const (
	loadChunk = 50_000
	loadEvery = time.Second
)

// Load writes entities from src with one kind of operation, in large
// transactions (chunks). An entity the store refuses goes to
// opts.OnReject; when that (or the source) stops the load, every entity
// before the stopping one has been committed and none after it. When the
// keys arrive in ascending order after the table's last key, pages are
// filled further (bulk append).
//
// Counts are of what was committed: when a commit fails (a full disk, an
// I/O error), Load returns a *CommitError, and the result's Written is
// exactly what the file holds from this load; the failed chunk, from
// CommitError.From on, is not stored.
//
// Load does not keep the file to itself: between two chunks, when another
// process waits for the file, it closes it, lets that process in, and
// opens it again (waiting, as Open does, up to Options.Wait). That process
// sees the chunks committed so far: a prefix of the source. When the file
// cannot be had back in time, Load returns DatabaseLocked with the count
// committed, and the DB stays closed.
func (db *DB) Load(ctx context.Context, table string, kind OpKind, src EntitySource, opts LoadOptions) (*LoadResult, error) {
	return db.load(ctx, table, kind, src, opts, false)
}

// chunk is what one load transaction did.
type chunk struct {
	written, rejected, read int64
	done                    bool  // the source is exhausted
	stop                    error // the load stops after this chunk's commit
}

// load is Load; keep stores each entity's own Timestamp (recover copies
// them) instead of the time of the write.
func (db *DB) load(ctx context.Context, table string, kind OpKind, src EntitySource, opts LoadOptions, keep bool) (*LoadResult, error) {
	switch kind {
	case OpInsert, OpReplace, OpInsertOrReplace, OpInsertOrMerge, OpMerge:
	default:
		return nil, odata.Errorf(odata.CodeInvalidInput, "load cannot %s", kind)
	}
	res := &LoadResult{}
	var n int64 // position in the source of the chunk's first entity
	for first := true; ; first = false {
		if !first {
			if err := db.stepAside(ctx); err != nil {
				return res, err
			}
		}
		var c chunk
		err := db.do(true, func(o *op) error {
			var err error
			c, err = o.loadChunk(ctx, table, kind, src, opts, keep, n)
			return err
		})
		res.Rejected += c.rejected
		res.Written += c.written // on an error, what a chunk committed before it
		if err != nil {
			return res, err
		}
		n += c.read
		if opts.Progress != nil {
			opts.Progress(res.Written)
		}
		if c.stop != nil {
			return res, c.stop
		}
		if c.done {
			return res, nil
		}
	}
}

// afterAll is a stored key after every key a table can hold: 0xFF never
// occurs in UTF-8.
var afterAll = []byte{0xFF}

// loadItem is one entity a chunk read: its position in the source, the
// operation prepared from it, and why it was refused, if it was.
type loadItem struct {
	pos     int64
	e       *odata.Entity
	op      Operation
	key     []byte
	err     error
	decided bool // refused in an ascending run, and OnReject told at once
}

// loadChunk writes and commits one chunk, from source position n.
//
// It reads the chunk's entities first and writes them in key order (a
// stable sort: entities with one key keep their order), so that a
// transaction visits each page of the tree once and keys arriving in any
// order are written as sorted ones are. Entities of different keys do not
// affect each other, so the entities refused are the same in either order;
// OnReject hears of them in source order, after the writes. When a refusal
// stops the load, the chunk is written again in source order up to the
// stopping entity, so that what is committed is exactly every entity
// before it, as with an unsorted load.
func (o *op) loadChunk(ctx context.Context, table string, kind OpKind, src EntitySource, opts LoadOptions, keep bool, n int64) (c chunk, err error) {
	size, every := loadChunk, loadEvery
	if o.db.opts.loadChunk > 0 {
		size = o.db.opts.loadChunk
	}
	if o.db.opts.loadEvery > 0 {
		every = o.db.opts.loadEvery
	}
	mem := &arena{}
	w, err := o.beginChunk(table, mem, keep)
	if err != nil {
		return c, err
	}
	defer func() {
		if w != nil {
			w.tx.Rollback() // after a commit, nothing to do; on a panic it releases the writer's lock
		}
	}()
	// Keys ascending from the chunk's start are written as they come, and
	// a refusal among them is decided at once, as in source order. From the
	// first key out of order on, entities wait in pending, to be sorted and
	// written after the last one is read; a long ascending run before it
	// is committed first, so that only entities of the sorted part (and a
	// short run) are kept in memory for writing again (see below).
	const keepRun = 1024
	var items, pending []*loadItem
	var prev []byte
	var committed int64 // written and committed by this chunk's first commit
	from := n           // source position of what the transaction holds
	defer func() {
		if err != nil {
			c.written = committed // what the file holds from this chunk
		}
	}()
	began := time.Now()
	for count := 0; count < size; count++ {
		if count&255 == 255 && time.Since(began) >= every {
			break
		}
		o.leave()
		e, err := src()
		o.enter()
		if errors.Is(err, io.EOF) {
			c.done = true
			break
		}
		if err != nil {
			c.stop, c.done = err, true
			break
		}
		if count&1023 == 0 {
			if err := ctx.Err(); err != nil {
				c.stop, c.done = err, true
				break
			}
		}
		c.read++
		it := &loadItem{pos: n + c.read - 1, e: e}
		it.op, it.err = prepare(Operation{Kind: kind, Entity: e, IfMatch: "*"})
		if it.err == nil {
			it.key = mem.key(it.op.Entity.PartitionKey, it.op.Entity.RowKey)
		}
		if pending == nil {
			if it.err == nil && prev != nil && bytes.Compare(it.key, prev) <= 0 {
				// The first key out of order.
				if count >= keepRun {
					if err := w.finish(); err != nil {
						return c, err
					}
					if err := o.commit(w.tx, from); err != nil {
						return c, err
					}
					committed, from, items = w.written, it.pos, nil
					w = nil
					if w, err = o.beginChunk(table, mem, keep); err != nil {
						return c, err
					}
				}
				items = append(items, it)
				pending = append(pending, it)
				continue
			}
			if count < keepRun {
				items = append(items, it)
			}
			if it.err == nil {
				if err := w.write(it); err != nil {
					return c, err
				}
			}
			if it.err == nil {
				prev = it.key
				continue
			}
			it.decided = true
			c.rejected++
			if opts.OnReject == nil {
				c.stop = it.err
			} else {
				c.stop = o.user(func() error { return opts.OnReject(it.pos, it.e, it.err) })
			}
			if c.stop != nil {
				c.done = true
				break
			}
			continue
		}
		items = append(items, it)
		if it.err == nil {
			pending = append(pending, it)
		} else if opts.OnReject == nil {
			break // the load stops here: nothing after it is read
		}
	}
	slices.SortStableFunc(pending, func(a, b *loadItem) int { return bytes.Compare(a.key, b.key) })
	for _, it := range pending {
		if err := w.write(it); err != nil {
			return c, err
		}
	}
	if err := w.finish(); err != nil {
		return c, err
	}
	// The refusals of the sorted part, in source order: OnReject decides
	// whether each stops.
	var stopAt int64 = -1
	var stopErr error
	for _, it := range items {
		if it.err == nil || it.decided {
			continue
		}
		c.rejected++
		if opts.OnReject == nil {
			stopErr = it.err
		} else {
			stopErr = o.user(func() error { return opts.OnReject(it.pos, it.e, it.err) })
		}
		if stopErr != nil {
			stopAt = it.pos
			break
		}
	}
	if stopAt >= 0 {
		// A refusal stops the load: commit exactly the entities before
		// it, in source order, as an unsorted load would have. What the
		// transaction holds is all in items.
		w.tx.Rollback()
		w = nil
		if w, err = o.beginChunk(table, mem, keep); err != nil {
			return c, err
		}
		for _, it := range items {
			if it.pos >= stopAt {
				break
			}
			if it.err == nil {
				if err := w.write(it); err != nil {
					return c, err
				}
			}
		}
		if err := w.finish(); err != nil {
			return c, err
		}
		c.stop, c.done = stopErr, true
	}
	if err := o.commit(w.tx, from); err != nil {
		return c, err
	}
	c.written = committed + w.written
	return c, nil
}

// chunkWriter writes one chunk's entities in a write transaction.
type chunkWriter struct {
	o                  *op
	tx                 *bolt.Tx
	b                  *bolt.Bucket
	mem                *arena
	keep               bool
	ticks, latest      int64
	root               uint64
	guardFrom, guardTo []byte // keys whose way down is checked
	guarded            bool
	last               []byte
	appending          bool
	written            int64
}

// beginChunk starts a chunk's write transaction.
func (o *op) beginChunk(table string, mem *arena, keep bool) (_ *chunkWriter, err error) {
	tx, err := o.db.bolt.Begin(true)
	if err != nil {
		return nil, o.db.engineError(err)
	}
	handed := false
	defer func() {
		if !handed { // an error or a panic: release the writer's lock
			tx.Rollback()
		}
	}()
	b, err := o.table(tx, table)
	if err != nil {
		return nil, err
	}
	ticks, err := o.nextTicks(tx, 0)
	if err != nil {
		return nil, err
	}
	if err := o.guardKeys(tx, b, afterAll, afterAll, false); err != nil {
		return nil, err
	}
	w := &chunkWriter{o: o, tx: tx, b: b, mem: mem, keep: keep, ticks: ticks, latest: ticks, appending: true}
	w.root = uint64(b.RootPage())
	w.guarded = w.root == 0
	w.last, _ = b.Cursor().Last()
	handed = true
	return w, nil
}

// write writes one entity. A refusal sets it.err and is no error; damage is.
func (w *chunkWriter) write(it *loadItem) (err error) {
	p := it.op
	t := w.ticks
	if w.keep && !it.e.Timestamp.IsZero() {
		t = odata.TicksOf(it.e.Timestamp)
		w.latest = max(w.latest, t)
	}
	key := it.key
	if !w.guarded || bytes.Compare(key, w.guardFrom) < 0 || (w.guardTo != nil && bytes.Compare(key, w.guardTo) >= 0) {
		if w.guardFrom, w.guardTo, err = w.o.db.guard.check(w.tx, w.root, key, key, false); err != nil {
			return err
		}
		w.guarded = true
	}
	if w.appending && w.last != nil && bytes.Compare(key, w.last) <= 0 {
		w.appending = false
	}
	w.last = key
	var werr error
	if w.appending && p.Kind != OpReplace && p.Kind != OpMerge {
		// Past every key in the table: nothing to find or
		// merge, so the entity is put as it is.
		werr = w.b.Put(key, w.mem.value(t, p.Entity.Properties))
	} else {
		_, werr = apply(w.b, p, t)
	}
	if werr != nil {
		if _, damage := damageIn(werr); damage {
			return werr
		}
		it.err = werr
		return nil
	}
	w.written++
	return nil
}

// finish completes the chunk's writes, before its commit.
func (w *chunkWriter) finish() error {
	if w.appending {
		w.b.FillPercent = 0.95
	}
	if w.latest > w.ticks {
		if _, err := w.o.nextTicks(w.tx, w.latest); err != nil {
			return err
		}
	}
	return nil
}

// stepAside lets another process in between two chunks of a long load:
// when one waits for the file, the DB closes it, gives the waiter up to
// two seconds to take it, and opens it again, waiting as Open does.
func (db *DB) stepAside(ctx context.Context) error {
	db.mu.Lock()
	defer db.mu.Unlock()
	if db.bolt == nil {
		return fmt.Errorf("database %s is closed", db.path)
	}
	if db.broken.Load() != nil || !othersWaiting(db.file) {
		return nil
	}
	if err := db.closeEngine(); err != nil {
		return err
	}
	if probe, err := os.Open(db.path); err == nil {
		for end := time.Now().Add(2 * time.Second); othersWaiting(probe) && time.Now().Before(end); {
			time.Sleep(2 * time.Millisecond)
		}
		probe.Close()
	}
	return db.open(ctx)
}

// arena hands out the keys and values of one load transaction from large
// slabs: bbolt keeps every slice given to Put until the commit, so none is
// reused, and one allocation serves thousands of entities.
type arena struct {
	slab    []byte
	scratch []byte
}

const arenaSlab = 1 << 20

func (a *arena) take(n int) []byte {
	if cap(a.slab)-len(a.slab) < n {
		a.slab = make([]byte, 0, max(n, arenaSlab))
	}
	start := len(a.slab)
	a.slab = a.slab[:start+n]
	return a.slab[start : start+n : start+n]
}

// key is entityKey in the arena.
func (a *arena) key(pk, rk string) []byte {
	k := a.take(len(pk) + 1 + len(rk))
	n := copy(k, pk)
	k[n] = 0
	copy(k[n+1:], rk)
	return k
}

// value is encodeEntity in the arena.
func (a *arena) value(ticks int64, props []odata.Property) []byte {
	a.scratch = encodeEntity(a.scratch[:0], ticks, props)
	v := a.take(len(a.scratch))
	copy(v, a.scratch)
	return v
}
