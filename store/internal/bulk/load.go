package bulk

import (
	"bytes"
	"cmp"
	"context"
	"encoding/binary"
	"errors"
	"io"
	"slices"
	"time"

	"github.com/tstable/tstable/backend"
	"github.com/tstable/tstable/odata"
	"github.com/tstable/tstable/store/internal/boltfile"
	"github.com/tstable/tstable/store/internal/values"
)

// A load writes a chunk of entities per transaction: loadChunk of them,
// or what loadEvery lets it write, whichever comes first. Every commit
// syncs the file, so a chunk is large; it is short enough that a process
// waiting for the file gets it within about a second. Before it writes,
// a load reads its whole source into sorted runs of loadRun bytes (see
// runSet).
const (
	loadChunk = 50_000
	loadEvery = time.Second
	loadRun   = 64 << 20
)

// loader is one load.
type loader struct {
	e     Engine
	ctx   context.Context
	table string
	kind  backend.OpKind
	opts  backend.LoadOptions
	keep  bool // store each entity's own Timestamp (Recover)
	res   *backend.LoadResult
	size  int           // entities a chunk writes
	every time.Duration // how long a transaction runs before it ends
	runs  *runSet
	st    *stager        // staging the load (see staging.go); nil when it does not
	skip  map[int64]bool // source positions the check refused, to leave out
	l     values.Layout  // the file's, when the load began: its records' keys are in it
}

// Load is the store's Load (see its doc) on the engine e: it reads the
// whole source, checks it against the table and writes it in chunks, or
// stages it; set tunes it, and says whether each entity keeps its own
// Timestamp (Recover copies them) instead of the time of the write.
func Load(ctx context.Context, e Engine, table string, kind backend.OpKind, src backend.EntitySource, opts backend.LoadOptions, set Settings) (*backend.LoadResult, error) {
	switch kind {
	case backend.OpInsert, backend.OpReplace, backend.OpInsertOrReplace, backend.OpInsertOrMerge, backend.OpMerge:
	default:
		return nil, odata.Errorf(odata.CodeInvalidInput, "load cannot %s", kind)
	}
	res := &backend.LoadResult{}
	// A file another process holds (a DB opened Later) is not waited for
	// before the source is read: that process may be writing the source.
	// Then the load does not stage, and checks the table when it writes.
	empty := false
	if free, err := e.TakeBackNow(); err != nil {
		return res, err
	} else if free {
		if empty, err = e.EmptyForLoad(table); err != nil {
			return res, err
		}
	}
	l := &loader{e: e, ctx: ctx, table: table, kind: kind, opts: opts, keep: set.Keep, res: res,
		size: loadChunk, every: loadEvery, l: e.Layout()}
	run := loadRun
	if set.Chunk > 0 {
		l.size = set.Chunk
	}
	if set.Every > 0 {
		l.every = set.Every
	}
	if set.Run > 0 {
		run = set.Run
	}
	RemoveLeftTemps(e.Path(), e.ProcessAlive)
	l.runs = newRunSet(e.Path(), run, l.l)
	defer l.runs.close()
	if empty && !set.NoStaging && (kind == backend.OpInsert || kind == backend.OpInsertOrReplace || kind == backend.OpInsertOrMerge) {
		l.st = newStager(table)
		defer func() {
			if l.st != nil {
				l.dropStage() // a failed load; a bucket left here is removed by the next
			}
		}()
	}
	// Nothing is written while the source is read (but a staged batch):
	// the file is let go, so that a source that waits (a producer that
	// trickles, or is silent) never keeps other processes out.
	if err := e.Release(ctx); err != nil {
		return res, err
	}
	if err := l.read(src); err != nil {
		return res, err
	}
	if l.st != nil {
		if done, err := l.swapIn(); done || err != nil {
			return res, err
		}
	}
	if err := l.check(); err != nil {
		return res, err
	}
	if err := e.ReserveMap(ctx, l.runs.bytes); err != nil {
		return res, err
	}
	return res, l.write()
}

// reject tells OnReject of an entity refused at source position pos, and
// returns the error that stops the load, if it does.
func (l *loader) reject(pos int64, e *odata.Entity, err error) error {
	l.res.Rejected++
	if l.opts.OnReject == nil {
		return err
	}
	return l.opts.OnReject(pos, e, err)
}

// read reads the whole source into sorted runs, validating each entity.
// Nothing is written; while it reads, it steps aside for a process that
// waits for the file.
func (l *loader) read(src backend.EntitySource) error {
	began := time.Now()
	for pos := int64(0); ; pos++ {
		if pos&63 == 0 {
			if err := l.ctx.Err(); err != nil {
				return err
			}
			if time.Since(began) >= l.every {
				if l.st == nil { // a staged batch steps aside after its commit
					if err := l.e.StepAside(l.ctx); err != nil {
						return err
					}
				}
				began = time.Now()
			}
		}
		e, err := src()
		if errors.Is(err, io.EOF) {
			// An input cut short by the interrupt (a producer that the
			// same Ctrl-C ended) is not taken for the whole of it.
			if err := l.ctx.Err(); err != nil {
				return err
			}
			break
		}
		if err != nil {
			return err
		}
		p, err := backend.Prepare(backend.Operation{Kind: l.kind, Entity: e, IfMatch: "*"})
		if err != nil {
			if stop := l.reject(pos, e, err); stop != nil {
				return stop
			}
			if l.st != nil {
				l.st.skipped = append(l.st.skipped, pos)
			}
			continue
		}
		var ticks int64
		if l.keep && !e.Timestamp.IsZero() {
			ticks = odata.TicksOf(e.Timestamp)
		}
		if l.st != nil {
			staged, err := l.stage(p.Entity.PartitionKey, p.Entity.RowKey, ticks, p.Entity.Properties, pos)
			if err != nil {
				return err
			}
			if staged {
				continue
			}
			// Not in ascending order: on with sorted runs.
			if err := l.unstage(); err != nil {
				return err
			}
		}
		if err := l.runs.add(p.Entity.PartitionKey, p.Entity.RowKey, ticks, p.Entity.Properties, pos); err != nil {
			return err
		}
	}
	l.runs.finish()
	return nil
}

// loadReject is an entity the check refused.
type loadReject struct {
	pos      int64
	key, val []byte
	err      error
}

// checker is the check of a load's sorted entities against the table: it
// follows, key by key, what writing them would do, without writing.
type checker struct {
	l       *loader
	key     []byte // the key being checked
	exists  bool   // an entity with that key is there (in the table, or written before in the source)
	cur     []byte // for a merge: that entity, as stored
	rejects []loadReject
	first   *loadReject // with no OnReject: the refusal first in the source
}

// check runs the check over the merged runs, in read transactions that
// end after about a second each so that a waiting process gets in, and
// then tells OnReject of the refusals in source order. An error means the
// load stops before writing anything.
func (l *loader) check() error {
	if l.runs.n == 0 {
		return nil
	}
	m, err := l.runs.merge()
	if err != nil {
		return err
	}
	c := &checker{l: l}
	for done := false; !done; {
		if err := l.e.Do(false, true, func(o Call) error { // once: the pass takes records from the merger
			if err := l.sameFormat(); err != nil {
				return err
			}
			return o.View(func(t Tx) error {
				var err error
				done, err = c.pass(t, m)
				return err
			})
		}); err != nil {
			return err
		}
		if !done {
			if err := l.e.StepAside(l.ctx); err != nil {
				return err
			}
		}
	}
	if c.first != nil {
		l.res.Rejected++
		return c.first.err
	}
	slices.SortFunc(c.rejects, func(a, b loadReject) int { return cmp.Compare(a.pos, b.pos) })
	for _, r := range c.rejects {
		if stop := l.reject(r.pos, rejectedEntity(l.l, r.key, r.val), r.err); stop != nil {
			return stop
		}
		if l.skip == nil {
			l.skip = map[int64]bool{}
		}
		l.skip[r.pos] = true
	}
	return nil
}

// rejectedEntity is the entity of a refused record, whose key is in
// layout l, for OnReject.
func rejectedEntity(l values.Layout, key, val []byte) *odata.Entity {
	e, err := values.DecodeRecord(l, key, val)
	if err != nil { // not a value of ours; the keys still say which
		pk, rk := l.Keys(key)
		return &odata.Entity{PartitionKey: pk, RowKey: rk}
	}
	if ticks, _ := values.StoredTicks(val); ticks == 0 {
		e.Timestamp = time.Time{}
	}
	return e
}

// pass checks records in one read transaction: it returns done when the
// records are all checked, or false after about a second.
func (c *checker) pass(t Tx, m *merger) (done bool, err error) {
	b, err := t.Table(c.l.table)
	if err != nil {
		return false, err
	}
	lo, err := b.First()
	if err != nil {
		return false, err
	}
	hi, err := b.Last()
	if err != nil {
		return false, err
	}
	began := time.Now()
	for n := 0; ; n++ {
		if n&1023 == 1023 {
			if err := c.l.ctx.Err(); err != nil {
				return false, err
			}
			if time.Since(began) >= c.l.every {
				return false, nil
			}
		}
		r, err := m.next()
		if err != nil {
			return false, err
		}
		if r == nil {
			return true, nil
		}
		if !bytes.Equal(r.key, c.key) {
			c.key = append(c.key[:0], r.key...)
			c.exists, c.cur = false, c.cur[:0]
			// Only a key inside the table's range can be in it.
			if lo != nil && bytes.Compare(r.key, lo) >= 0 && bytes.Compare(r.key, hi) <= 0 {
				v, err := b.Get(r.key)
				if err != nil {
					return false, err
				}
				if v != nil {
					c.exists = true
					if c.l.kind == backend.OpMerge || c.l.kind == backend.OpInsertOrMerge {
						rec, err := b.Codec().Record(r.key, v)
						if err != nil {
							return false, err
						}
						c.cur = append(c.cur[:0], rec...)
					}
				}
			}
		}
		if err := c.decide(r); err != nil {
			if errors.Is(err, boltfile.ErrDamaged) {
				return false, err
			}
			c.refuse(r, err)
		}
	}
}

// decide follows what writing r would do to its key, or says why the
// store refuses it.
func (c *checker) decide(r *loadRec) error {
	kind := c.l.kind
	switch {
	case kind == backend.OpInsert && c.exists:
		return alreadyExists(c.l.l, r.key)
	case (kind == backend.OpReplace || kind == backend.OpMerge) && !c.exists:
		return notFoundKey(c.l.l, r.key)
	case c.exists && (kind == backend.OpMerge || kind == backend.OpInsertOrMerge):
		merged, err := values.MergeValues(c.l.l, r.key, c.cur, r.val, 0, nil)
		if err != nil {
			return err
		}
		c.cur = merged
	case kind == backend.OpInsertOrMerge:
		c.cur = append(c.cur[:0], r.val...)
	}
	c.exists = true
	return nil
}

// refuse records a refusal.
func (c *checker) refuse(r *loadRec, err error) {
	rj := loadReject{pos: r.pos, key: bytes.Clone(r.key), val: bytes.Clone(r.val), err: err}
	if c.l.opts.OnReject == nil {
		if c.first == nil || rj.pos < c.first.pos {
			c.first = &rj
		}
		return
	}
	c.rejects = append(c.rejects, rj)
}

// chunk is what one load transaction did.
type chunk struct {
	written, rejected int64
	done              bool // the records are all written
}

// write writes the checked records in key order, a chunk per transaction,
// stepping aside between chunks for a process that waits for the file.
func (l *loader) write() error {
	if l.runs.n == 0 {
		return nil
	}
	m, err := l.runs.merge()
	if err != nil {
		return err
	}
	for first := true; ; first = false {
		if !first {
			if err := l.e.StepAside(l.ctx); err != nil {
				return err
			}
		}
		var c chunk
		err := l.e.Do(true, true, func(o Call) error { // once: the chunk takes records from the merger
			if err := l.sameFormat(); err != nil {
				return err
			}
			var err error
			c, err = writeChunk(o, l, m)
			return err
		})
		l.res.Rejected += c.rejected
		l.res.Written += c.written
		if err != nil {
			return err
		}
		if l.opts.Progress != nil && (c.written > 0 || c.done) {
			l.opts.Progress(l.res.Written)
		}
		if c.done {
			return nil
		}
	}
}

// writeChunk writes and commits one chunk of the merged records. A chunk
// ends between two keys, never inside the records of one key. On an
// error nothing of the chunk is committed.
func writeChunk(o Call, l *loader, m *merger) (c chunk, err error) {
	mem := &arena{}
	w, err := beginChunk(o, l.table, l.kind, mem, l.keep)
	if err != nil {
		return c, err
	}
	defer w.t.Rollback() // after a commit, nothing to do; on an error or a panic it undoes the chunk and releases the writer's lock
	var first, prev []byte
	began := time.Now()
	count := 0
	for ; ; count++ {
		if count&1023 == 1023 {
			if err := l.ctx.Err(); err != nil {
				return c, err
			}
		}
		r, err := m.next()
		if err != nil {
			return c, err
		}
		if r == nil {
			c.done = true
			break
		}
		if (count >= l.size || (count&255 == 255 && time.Since(began) >= l.every)) && !bytes.Equal(r.key, prev) {
			m.unread()
			break
		}
		prev = append(prev[:0], r.key...)
		if first == nil {
			first = bytes.Clone(r.key)
		}
		if l.skip[r.pos] {
			continue
		}
		if err := w.put(r); err != nil {
			var ref *refusal
			if !errors.As(err, &ref) {
				return c, err
			}
			// The table changed since the check (another process wrote
			// it between two chunks).
			c.rejected++
			if l.opts.OnReject == nil {
				return c, ref.err
			}
			if stop := o.User(func() error { return l.opts.OnReject(r.pos, rejectedEntity(l.l, r.key, r.val), ref.err) }); stop != nil {
				return c, stop
			}
		}
	}
	if count == 0 {
		return c, nil
	}
	if err := w.finish(); err != nil {
		return c, err
	}
	if err := w.t.Commit(); err != nil {
		var ce *backend.CommitError
		if errors.As(err, &ce) {
			from := l.l.ODataKey(first)
			ce.FromKey = &from
		}
		return c, err
	}
	c.written = w.written
	return c, nil
}

// alreadyExists and notFoundKey are the refusals of a write, for a stored
// key of layout l (the store's own say the same).
func alreadyExists(l values.Layout, key []byte) error {
	pk, rk := l.Keys(key)
	return odata.Errorf(odata.CodeEntityAlreadyExists, "entity (%q, %q) already exists; use upsert or replace to change it", pk, rk)
}

func notFoundKey(l values.Layout, key []byte) error {
	pk, rk := l.Keys(key)
	return odata.Errorf(odata.CodeResourceNotFound, "entity (%q, %q) does not exist", pk, rk)
}

// refusal is an entity the store refuses while writing.
type refusal struct{ err error }

func (r *refusal) Error() string { return r.err.Error() }

// chunkWriter writes one chunk's entities in a write transaction.
type chunkWriter struct {
	t             Tx
	b             Bucket
	kind          backend.OpKind
	mem           *arena
	keep          bool
	ticks, latest int64
	last          []byte
	appending     bool
	written       int64
}

// beginChunk starts a chunk's write transaction.
func beginChunk(o Call, table string, kind backend.OpKind, mem *arena, keep bool) (_ *chunkWriter, err error) {
	t, err := o.Begin()
	if err != nil {
		return nil, err
	}
	handed := false
	defer func() {
		if !handed { // an error or a panic: release the writer's lock
			t.Rollback()
		}
	}()
	b, err := t.Table(table)
	if err != nil {
		return nil, err
	}
	ticks, err := t.NextTicks(0)
	if err != nil {
		return nil, err
	}
	w := &chunkWriter{t: t, b: b, kind: kind, mem: mem, keep: keep, ticks: ticks, latest: ticks, appending: true}
	if w.last, err = b.Last(); err != nil {
		return nil, err
	}
	handed = true
	return w, nil
}

// put writes one record. A refusal is a *refusal; damage is itself.
func (w *chunkWriter) put(r *loadRec) (err error) {
	t := w.ticks
	if w.keep {
		if own := int64(binary.BigEndian.Uint64(r.val[1:9])); own != 0 {
			t = own
			w.latest = max(w.latest, t)
		}
	}
	key := r.key
	if !r.kept {
		key = w.mem.copy(r.key)
	}
	if w.appending && w.last != nil && bytes.Compare(key, w.last) <= 0 {
		w.appending = false
	}
	w.last = key
	kind := w.kind
	var val []byte
	if w.appending && kind != backend.OpReplace && kind != backend.OpMerge {
		// Past every key in the table: nothing to find or merge, so the
		// entity is put as it is.
		if val, err = w.stamped(r, key, t); err != nil {
			return err
		}
	} else {
		cur, err := w.b.Get(key)
		if err != nil {
			return err
		}
		c := w.b.Codec()
		switch {
		case kind == backend.OpInsert && cur != nil:
			return &refusal{alreadyExists(c.L, key)}
		case (kind == backend.OpReplace || kind == backend.OpMerge) && cur == nil:
			return &refusal{notFoundKey(c.L, key)}
		case cur != nil && (kind == backend.OpMerge || kind == backend.OpInsertOrMerge):
			merged, err := c.Merge(w.mem.scratch[:0], key, cur, r.val, t)
			if err != nil {
				if errors.Is(err, boltfile.ErrDamaged) {
					return err
				}
				return &refusal{err}
			}
			w.mem.scratch = merged
			val = w.mem.copy(merged)
		default:
			if val, err = w.stamped(r, key, t); err != nil {
				return err
			}
		}
	}
	if err := w.b.Put(key, val); err != nil {
		if errors.Is(err, boltfile.ErrDamaged) {
			return err
		}
		return &refusal{err}
	}
	w.written++
	return nil
}

// stamped is r's value, stored at key, with Timestamp ticks, to be put.
// In format 1 it is the record itself: r's own when it is kept until the
// load ends (each record is written once), else a copy; in format 2 the
// record encoded anew, in the arena.
func (w *chunkWriter) stamped(r *loadRec, key []byte, ticks int64) ([]byte, error) {
	if w.b.Codec().Values2() {
		v, err := w.b.Codec().FromRecord(w.mem.scratch[:0], key, r.val, ticks)
		if err != nil {
			return nil, err
		}
		w.mem.scratch = v
		return w.mem.copy(v), nil
	}
	v := r.val
	if !r.kept {
		v = w.mem.copy(v)
	}
	values.StampRecord(v, ticks)
	return v, nil
}

// finish completes the chunk's writes, before its commit.
func (w *chunkWriter) finish() error {
	if w.appending {
		w.b.FillPages(1)
	}
	if w.latest > w.ticks {
		if _, err := w.t.NextTicks(w.latest); err != nil {
			return err
		}
	}
	return nil
}

// sameFormat fails the load when the file is not in the format the load
// began in: another process rewrote it (tstable compact) while the load
// let the file go, and the load's records are in the format it began
// with. Each of the load's calls asks it first, once the file is back.
func (l *loader) sameFormat() error {
	if now := l.e.Layout(); now != l.l {
		return odata.Errorf(odata.CodeServerBusy, "database %s was rewritten in file format %d by another process (tstable compact) while this load let it go; the load began in format %d and stops here: run it again", l.e.Path(), now, l.l)
	}
	return nil
}

// arena hands out the keys and values of one load transaction (or run)
// from large slabs: bbolt keeps every slice given to Put until the
// commit, so none is reused, and one allocation serves thousands of
// entities.
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

// copy is b in the arena.
func (a *arena) copy(b []byte) []byte {
	c := a.take(len(b))
	copy(c, b)
	return c
}

// key is the stored key of (pk, rk) in layout l, in the arena.
func (a *arena) key(l values.Layout, pk, rk string) []byte {
	k := a.take(len(pk) + 1 + len(rk))
	return l.AppendKey(k[:0], pk, rk)
}

// value is values.EncodeEntity in the arena: a load's record.
func (a *arena) value(ticks int64, props []odata.Property) []byte {
	a.scratch = values.EncodeEntity(a.scratch[:0], ticks, props)
	v := a.take(len(a.scratch))
	copy(v, a.scratch)
	return v
}
