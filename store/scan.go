package store

import (
	"bytes"
	"context"

	bolt "go.etcd.io/bbolt"

	"github.com/tstable/tstable/backend"
	"github.com/tstable/tstable/odata"
	"github.com/tstable/tstable/store/internal/boltfile"
	"github.com/tstable/tstable/store/internal/values"
)

// span is an odata.KeyRange translated to stored keys: start is where to seek,
// skip tells whether a key equal to start is excluded, and a key at or past
// end (or past it, when endIncl) leaves the range. A nil end is the table's end.
type span struct {
	start   []byte
	skip    bool
	end     []byte
	endIncl bool
}

// spanOf translates an odata.KeyRange into stored keys of layout l. A
// whole-partition bound uses the fact that every key of partition P lies
// in [P 0x00, P 0x01).
func spanOf(r odata.KeyRange, l values.Layout) span {
	var s span
	if b := r.Lower; b != nil {
		switch {
		case !b.HasRowKey && b.Inclusive:
			s.start = l.PartitionStart(b.PartitionKey)
		case !b.HasRowKey:
			s.start = l.PartitionEnd(b.PartitionKey)
		default:
			s.start, s.skip = l.Key(b.PartitionKey, b.RowKey), !b.Inclusive
		}
	}
	if b := r.Upper; b != nil {
		switch {
		case !b.HasRowKey && b.Inclusive:
			s.end = l.PartitionEnd(b.PartitionKey)
		case !b.HasRowKey:
			s.end = l.PartitionStart(b.PartitionKey)
		default:
			s.end, s.endIncl = l.Key(b.PartitionKey, b.RowKey), b.Inclusive
		}
	}
	return s
}

// past reports whether k lies beyond the span's end.
func (s *span) past(k []byte) bool {
	if s.end == nil {
		return false
	}
	c := bytes.Compare(k, s.end)
	return c > 0 || (c == 0 && !s.endIncl)
}

// point reports whether the span is one key, which a lookup finds
// without the cursor's step to the next page (the engine's Seek steps
// there when the key is not on the page it lands on and sorts after all
// of that page's keys).
func (s *span) point() bool {
	return s.start != nil && !s.skip && s.endIncl && bytes.Equal(s.start, s.end)
}

// scanner walks the stored keys of a list of ranges in order, starting at a
// continuation key, without ever reading outside them.
type scanner struct {
	c      keyCursor
	b      *bolt.Bucket
	spans  []span
	from   []byte // the continuation key, or nil
	i      int    // current span
	k, v   []byte // current position
	primed bool
}

// keyCursor is what a scanner moves over the keys with: the engine's
// cursor, or a boltfile.LeafCursor.
type keyCursor interface {
	First() ([]byte, []byte)
	Seek([]byte) ([]byte, []byte)
	Next() ([]byte, []byte)
}

// newScanner scans b, whose keys are in layout l.
func newScanner(b *bolt.Bucket, l values.Layout, ranges []odata.KeyRange, from *odata.Key) *scanner {
	s := &scanner{c: b.Cursor(), b: b}
	for _, r := range ranges {
		s.spans = append(s.spans, spanOf(r, l))
	}
	if from != nil {
		s.from = l.Key(from.PartitionKey, from.RowKey)
	}
	return s
}

// seekSpan positions the cursor at the first key of span i at or after the
// continuation key, returning false when the span holds none.
func (s *scanner) seekSpan() bool {
	sp := s.spans[s.i]
	start, skip := sp.start, sp.skip
	if s.from != nil && (start == nil || bytes.Compare(s.from, start) >= 0) {
		start, skip = s.from, false
	}
	if start == nil {
		s.k, s.v = s.c.First()
	} else if !skip && sp.point() && bytes.Equal(start, sp.end) {
		s.k, s.v = nil, s.b.Get(start)
		if s.v != nil {
			s.k = start
		}
	} else {
		s.k, s.v = s.c.Seek(start)
		if skip && s.k != nil && bytes.Equal(s.k, start) {
			s.k, s.v = s.c.Next()
		}
	}
	return s.k != nil && !sp.past(s.k)
}

// readLeaves makes s read the leaves itself, with pread (see
// boltfile.LeafCursor), in c's snapshot, when b has a tree of its own (not
// an inline one); hi is where the caller stops (nil: no end), which the
// reads ahead do not pass; room is the buffers to use (nil: its own).
func (s *scanner) readLeaves(c *boltfile.Checker, hi []byte, room *boltfile.LeafRoom) {
	if root := uint64(s.b.RootPage()); root != 0 {
		s.c = boltfile.NewLeafCursor(c, root, hi, room)
	}
}

// err is the damage that ended the scan early, when its cursor reads the
// pages itself; nil otherwise.
func (s *scanner) err() error {
	if c, ok := s.c.(*boltfile.LeafCursor); ok {
		return c.Err()
	}
	return nil
}

// next advances to the next key in the ranges, returning false at the end.
// The key and value are valid until the transaction ends.
func (s *scanner) next() bool {
	if s.primed {
		if sp := &s.spans[s.i]; !sp.point() { // a point span's one key was its all
			s.k, s.v = s.c.Next()
			if s.k != nil && !sp.past(s.k) {
				return true
			}
		}
		s.i++
	}
	s.primed = true
	for ; s.i < len(s.spans); s.i++ {
		if s.seekSpan() {
			return true
		}
	}
	return false
}

// Get reads one entity.
func (db *DB) Get(ctx context.Context, table, pk, rk string) (*odata.Entity, error) {
	var out *odata.Entity
	err := db.do(false, func(o *op) error {
		return o.view(func(t *gtx) error {
			b, err := t.table(table)
			if err != nil {
				return err
			}
			key := b.codec.L.Key(pk, rk)
			v, err := b.get(key)
			if err != nil {
				return err
			}
			if v == nil {
				return notFound(pk, rk)
			}
			out, err = b.codec.Decode(key, v)
			return err
		})
	})
	if err != nil {
		return nil, err
	}
	return out, nil
}

// Query reads the ranges the planner derives from the filter (and nothing
// else), in key order from req.Start, evaluates the filter on each entity
// without decoding it, and delivers the matches, decoded and projected, to
// fn. Every key read counts as scanned. When the page limit (PageSize, and
// Query.Top) is reached and another key lies in the ranges, Next is set to it.
// A panic in fn is fn's own: it goes on to the caller untouched.
func (db *DB) Query(ctx context.Context, table string, req backend.QueryRequest, fn func(*odata.Entity) error) (*backend.QueryResult, error) {
	return db.query(ctx, table, req, &delivery{sel: req.Query.Select, entity: fn})
}

// query answers Query and QueryJSONL, delivering the matches as d says.
func (db *DB) query(ctx context.Context, table string, req backend.QueryRequest, d *delivery) (*backend.QueryResult, error) {
	if req.PageSize < 0 || req.PageSize > 1000 {
		return nil, odata.Errorf(odata.CodeInvalidInput, "page size %d is out of range: use 1 to 1000", req.PageSize)
	}
	limit := req.PageSize
	if t := req.Query.Top; t > 0 && (limit == 0 || t < limit) {
		limit = t
	}
	// The filter compares text in the order of the file's keys, so that
	// what it matches agrees with the ranges the plan reads.
	req.Query.Filter = req.Query.Filter.In(db.fileLayout().Order())
	plan := odata.PlanQuery(req.Query.Filter)
	// Several cores pay when a filter throws most keys away, or when the
	// workers write the matches' JSON; when every key is decoded into an
	// entity and delivered (export), the caller's goroutine is the
	// bottleneck and handing entities across costs more than it saves. A
	// point query reads one key: there is nothing to share.
	parallel := limit == 0 && (req.Query.Filter != nil || d.lines != nil) && plan.Class != odata.ClassPoint
	res := &backend.QueryResult{Plan: plan, Requests: 1}
	for {
		left := limit
		if limit > 0 {
			left -= int(res.Returned)
		}
		part, resume, err := db.queryOnce(ctx, table, req, plan, left, parallel, d)
		if err != nil {
			return nil, err
		}
		res.Scanned += part.Scanned
		res.Returned += part.Returned
		res.Next = part.Next
		if resume == nil {
			return res, nil
		}
		if err := db.stepAside(ctx); err != nil {
			return nil, err
		}
		req.Start = resume
	}
}

// queryOnce reads a query in one read transaction, on several cores when
// parallel and it can, up to limit matches (0: no limit), and returns the
// key to go on from when it stopped to step aside (see readturn.go).
func (db *DB) queryOnce(ctx context.Context, table string, req backend.QueryRequest, plan *odata.Plan, limit int, parallel bool, d *delivery) (res *backend.QueryResult, resume *odata.Key, err error) {
	if parallel {
		var ran bool
		err = db.do(false, func(o *op) (err error) {
			res, resume, ran, err = o.queryParallel(ctx, table, req, plan, d, db.readTurnOf())
			return err
		})
		if err != nil || ran {
			return res, resume, err
		}
	}
	err = db.do(false, func(o *op) error {
		res = &backend.QueryResult{}
		return o.view(func(t *gtx) (err error) {
			resume, err = o.scanSerial(ctx, t, table, req, plan, limit, d, res, db.readTurnOf())
			return err
		})
	})
	return res, resume, err
}

// scanSerial answers a query on the caller's goroutine, in t, delivering
// each match as it reads it (or, for lines, a buffer at a time), up to
// limit matches (0: no limit). When its turn is over (see readturn.go), it
// stops before a key it has not read and returns that key, to go on from
// after stepping aside.
func (o *op) scanSerial(ctx context.Context, t *gtx, table string, req backend.QueryRequest, plan *odata.Plan, limit int, d *delivery, res *backend.QueryResult, turn *turn) (resume *odata.Key, err error) {
	b, err := t.table(table)
	if err != nil {
		return nil, err
	}
	if err := sameOrder(b, req.Query.Filter); err != nil {
		return nil, err
	}
	s, err := b.scanner(plan.Ranges, req.Start, false)
	if err != nil {
		return nil, err
	}
	if plan.Class != odata.ClassPoint && o.db.opts.ReadOnly {
		// A command that reads (stats, lint, a query's page) reads with
		// pread into buffers of the scan's own, as the parallel scan
		// does, rather than through the map: a scan of the whole file
		// does not make the process's memory as large as the file. A
		// writer's process (serve above all) keeps the map, whose pages
		// its many short reads find mapped already.
		s.readLeaves(t.ck, nil, nil)
	}
	d.c = b.codec
	var out batch
	deliver := func() error {
		if out.n == 0 {
			return nil
		}
		return o.user(func() error { return d.deliver(&out) })
	}
	// Whatever ends the scan, the matches read before it reach the
	// caller first, as they would have one by one; a panic while reading
	// (a damaged page) too, but not one of the caller's own.
	defer func() {
		if r := recover(); r != nil {
			if !o.inUser {
				deliver()
			}
			panic(r)
		}
	}()
	finish := func(err error) error {
		if derr := deliver(); derr != nil {
			return derr
		}
		return err
	}
	filter := req.Query.Filter
	rec := &values.RawRecord{C: b.codec}
	sieve := values.NewTextSieve(b.codec, filter)
	hook := o.db.opts.finding
	for s.next() {
		if hook != nil {
			if err := hook("scan"); err != nil {
				return nil, finish(err)
			}
		}
		if limit > 0 && res.Returned == int64(limit) {
			next := b.codec.L.ODataKey(s.k)
			res.Next = &next
			return nil, finish(nil)
		}
		if res.Scanned&4095 == 4095 {
			if err := ctx.Err(); err != nil {
				return nil, finish(err)
			}
			if turn.over() {
				at := b.codec.L.ODataKey(s.k)
				return &at, finish(nil)
			}
		}
		res.Scanned++
		rec.Key, rec.Val = s.k, s.v
		if filter != nil && (sieve.Rejects(s.v) || !filter.Match(rec)) {
			continue
		}
		if err := d.add(&out, s.k, s.v, rec); err != nil {
			return nil, finish(err)
		}
		res.Returned++
		if d.full(&out, false) {
			if err := deliver(); err != nil {
				return nil, err
			}
		}
	}
	return nil, finish(s.err())
}

// sameOrder fails a query whose filter and plan were made, outside its
// transaction, for another order of keys than its table's in the
// transaction: another process upgraded the file while this one had let
// it go (a load does), between the two. The query would read the wrong
// ranges; run again, it reads the right ones.
func sameOrder(b *gbucket, f *odata.Filter) error {
	if f == nil || f.Order() == b.codec.L.Order() {
		return nil
	}
	return odata.Errorf(odata.CodeServerBusy, "the database's file format changed while this query began (another process rewrote it with tstable compact): run the query again")
}

// scanner returns a scanner of the ranges from the key from (nil: their
// start), the ways to each range's keys checked first. With pointStep
// false, a range of one key is checked without the page after it, which
// a lookup of that key does not step to (see span.point); the parallel
// scan's ranges step on.
func (b *gbucket) scanner(ranges []odata.KeyRange, from *odata.Key, pointStep bool) (*scanner, error) {
	s := newScanner(b.b, b.t.layout(), ranges, from)
	for _, sp := range s.spans {
		lo := sp.start
		if s.from != nil && (lo == nil || bytes.Compare(s.from, lo) > 0) {
			lo = s.from
		}
		next := pointStep || !sp.point() || !bytes.Equal(lo, sp.end)
		if err := b.guard(lo, sp.end, next); err != nil {
			return nil, err
		}
	}
	return s, nil
}
