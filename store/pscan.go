package store

import (
	"bytes"
	"context"
	"runtime"
	"runtime/debug"
	"sync"

	"github.com/tstable/tstable/backend"
	"github.com/tstable/tstable/odata"
	"github.com/tstable/tstable/store/internal/boltfile"
	"github.com/tstable/tstable/store/internal/values"
)

// A streaming filtered query (no page, no $top: query --all, lint, stats),
// and any streaming query delivered as JSON lines (export -o jsonl), reads
// every key in its ranges, so its work can be shared between cores: the key
// space from the first key to the last is cut at byte-wise midpoints into
// chunks, workers scan, filter and decode (or write as JSON) the chunks
// (all in one read transaction, which pins the snapshot), and the caller's
// goroutine delivers the matches chunk by chunk, in key order, exactly as
// the serial scan would.
// Scanned counts every key of every chunk, which is every key of the ranges.
const (
	scanChunkDepth = 3   // 2^3 chunks, taken in order by the workers
	scanBatch      = 256 // entities handed to the caller at once
	scanBuffered   = 4   // batches a chunk may run ahead of the caller
)

// parallelScanWorkers is how many goroutines scan; below 2 the serial scan runs.
var parallelScanWorkers = func() int { return min(runtime.GOMAXPROCS(0), 4) }

type scanOut struct {
	batch
	scanned int64
	err     error
	// next, when set, is the key the chunk reads next, which it has not
	// read yet: the caller may step aside after this batch and go on from
	// there (see readturn.go). A chunk sends one every stepKeys keys.
	next []byte
}

// stepKeys is how many keys a chunk reads between two points to step
// aside at.
const stepKeys = 1 << 13

// queryParallel runs a streaming query on several cores, inside o's guard:
// every worker is guarded as the caller is (a fault or an engine panic on a
// damaged page is DatabaseDamaged), and fn runs outside it. ok is false when
// it did not run (one core, too few keys to split, the table missing or
// small enough to live inside its parent) and the serial scan must answer.
func (o *op) queryParallel(ctx context.Context, table string, req backend.QueryRequest, plan *odata.Plan, d *delivery, turn *turn) (res *backend.QueryResult, resume *odata.Key, ok bool, err error) {
	workers := parallelScanWorkers()
	if workers < 2 {
		return nil, nil, false, nil
	}
	// One read transaction pins the snapshot for every worker: they read
	// the leaves themselves (see boltfile.LeafCursor), and share the bucket only
	// to read it. A goroutine must never hold one read transaction while
	// it begins another: a writer that needs to map more of the file waits
	// for every reader to end, and a reader that begins meanwhile waits
	// for that writer, so the two would wait for each other for ever.
	t, err := o.begin(false)
	if err != nil {
		return nil, nil, false, err
	}
	defer t.rollback()
	b, err := t.table(table)
	if err != nil {
		return nil, nil, false, nil // the serial scan reports it
	}
	if err := sameOrder(b, req.Query.Filter); err != nil {
		return nil, nil, true, err
	}
	if b.root == 0 {
		return nil, nil, false, nil // an inline bucket: one small leaf, nothing to share
	}
	// The guard checks the ranges' trees once for the snapshot.
	if _, err := b.scanner(plan.Ranges, req.Start, true); err != nil {
		return nil, nil, true, err
	}
	splits, err := scanSplits(b, plan.Ranges, req.Start)
	if err != nil || len(splits) == 0 {
		return nil, nil, err != nil, err
	}
	// The workers share the table's dictionary: it is read whole first.
	if err := b.codec.ReadyForAll(); err != nil {
		return nil, nil, true, err
	}
	d.c = b.codec
	var from []byte
	if req.Start != nil {
		from = b.codec.L.Key(req.Start.PartitionKey, req.Start.RowKey)
	}
	chunks := len(splits) + 1
	outs := make([]chan scanOut, chunks)
	for i := range outs {
		outs[i] = make(chan scanOut, scanBuffered)
	}
	next := make(chan int, chunks)
	for i := 0; i < chunks; i++ {
		next <- i
	}
	close(next)
	stop := make(chan struct{})
	var wg sync.WaitGroup
	defer func() {
		close(stop)
		wg.Wait()
	}()
	filter := req.Query.Filter
	// Line buffers the caller has written go back to the workers.
	free := make(chan []byte, chunks*scanBuffered)
	runChunk := func(room *boltfile.LeafRoom, j int) bool {
		var lo, hi []byte
		if j > 0 {
			lo = splits[j-1]
		}
		if j < len(splits) {
			hi = splits[j]
		}
		return scanChunk(ctx, b, t.ck, room, plan.Ranges, from, lo, hi, filter, d, outs[j], free, stop)
	}
	for w := 0; w < workers; w++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			debug.SetPanicOnFault(true)
			room := &boltfile.LeafRoom{}
			for j := range next {
				if !runChunk(room, j) {
					return
				}
			}
		}()
	}
	res = &backend.QueryResult{}
	goOn, err := o.collect(ctx, res, outs, splits, free, d, turn)
	if err != nil {
		return nil, nil, true, err
	}
	if goOn != nil {
		resume = firstKeyFrom(b, goOn)
	}
	return res, resume, true, nil
}

// firstKeyFrom is the first key of b at or after k (nil: none), to go on
// from: every key before k has been read.
func firstKeyFrom(b *gbucket, k []byte) *odata.Key {
	first, _ := b.b.Cursor().Seek(k)
	if first == nil {
		return nil
	}
	at := b.codec.L.ODataKey(first)
	return &at
}

// collect delivers the chunks' batches in key order, through the caller's
// code (see op.user), counting them into res, and gives their line
// buffers back to free. When the read's turn is over (see readturn.go),
// it stops at a batch that says where its chunk goes on, or between two
// chunks, and returns the key to go on from, with every key before it
// read and delivered (the chunk's own key, or the split before the chunk
// not read: from is then the first key at or after it). It stops before a
// batch once ctx is done: the workers run ahead of a slow caller (a
// terminal), and what they have read already is not delivered after an
// interrupt.
func (o *op) collect(ctx context.Context, res *backend.QueryResult, outs []chan scanOut, splits [][]byte, free chan<- []byte, d *delivery, turn *turn) (from []byte, err error) {
	for i, ch := range outs {
		if i > 0 && turn.over() {
			return splits[i-1], nil
		}
		for out := range ch {
			if err := ctx.Err(); err != nil {
				return nil, err
			}
			res.Returned += int64(out.n)
			if out.n > 0 {
				if err := o.user(func() error { return d.deliver(&out.batch) }); err != nil {
					return nil, err
				}
			}
			if out.lines != nil {
				select {
				case free <- out.lines:
				default:
				}
			}
			res.Scanned += out.scanned
			if out.err != nil {
				return nil, out.err
			}
			if out.next != nil && turn.over() {
				return out.next, nil
			}
		}
	}
	return nil, nil
}

// scanChunk scans the keys k of the ranges with k ≥ from, lo ≤ k and
// k < hi (a nil bound is open), sending the matches, made ready for
// delivery by d, in batches to out, which it closes (taking line buffers
// from free when it has them). It returns false when stop closed first. A panic while reading (a damaged page) is the chunk's
// last word, after the matches found before it, as in the serial scan.
// With c, the leaves are read with pread (see boltfile.LeafCursor), not
// through the memory map, into room's buffers, and a damaged page is the
// chunk's last word as a *boltfile.PageError.
func scanChunk(ctx context.Context, b *gbucket, c *boltfile.Checker, room *boltfile.LeafRoom, ranges []odata.KeyRange, from, lo, hi []byte, filter *odata.Filter, d *delivery, out chan<- scanOut, free <-chan []byte, stop <-chan struct{}) (cont bool) {
	send := func(o scanOut) bool {
		select {
		case out <- o:
			return true
		case <-stop:
			return false
		}
	}
	var o scanOut
	defer func() {
		if r := recover(); r != nil {
			o.err = boltfile.PanicFinding(r)
			if cont = send(o); cont {
				close(out)
			}
		}
	}()
	s := newScanner(b.b, b.codec.L, ranges, nil)
	s.from = from
	if lo != nil && (s.from == nil || bytes.Compare(lo, s.from) > 0) {
		s.from = lo
	}
	if c != nil {
		s.readLeaves(c, hi, room)
	}
	lc, _ := s.c.(*boltfile.LeafCursor) // compares a leaf's last key with hi, not each key
	rec := &values.RawRecord{C: b.codec}
	sieve := values.NewTextSieve(b.codec, filter)
	// keys counts every key this chunk read: o.scanned starts again at
	// each batch sent, which may be fewer than 4096 keys.
	var keys int
	fresh := func() scanOut {
		o := scanOut{}
		if d.lines != nil {
			select {
			case o.lines = <-free:
			default:
			}
		} else {
			o.ents = make([]*odata.Entity, 0, scanBatch)
		}
		return o
	}
	for s.next() {
		if hi != nil && (lc == nil || !lc.BelowHi()) && bytes.Compare(s.k, hi) >= 0 {
			break
		}
		if keys++; keys&4095 == 0 {
			if err := ctx.Err(); err != nil {
				o.err = err
				break
			}
			if keys&(stepKeys-1) == 0 {
				o.next = bytes.Clone(s.k)
				if !send(o) {
					return false
				}
				o = fresh()
			}
		}
		o.scanned++
		rec.Key, rec.Val = s.k, s.v
		if filter != nil && (sieve.Rejects(s.v) || !filter.Match(rec)) {
			continue
		}
		if err := d.add(&o.batch, s.k, s.v, rec); err != nil {
			o.scanned-- // as the serial scan, which fails on this key
			o.err = err
			break
		}
		if d.full(&o.batch, true) {
			if !send(o) {
				return false
			}
			o = fresh()
		}
	}
	if err := s.err(); err != nil && o.err == nil {
		o.err = err
	}
	if !send(o) {
		return false
	}
	close(out)
	return true
}

// scanSplits returns up to 2^scanChunkDepth-1 increasing keys that cut the
// stretch from the first key the ranges hold (at or after start) to their
// last possible key, or nil when the stretch is too short to cut. The
// ways to the ranges' keys are checked already.
func scanSplits(b *gbucket, ranges []odata.KeyRange, start *odata.Key) ([][]byte, error) {
	s := newScanner(b.b, b.codec.L, ranges, start)
	if !s.next() {
		return nil, nil
	}
	first := bytes.Clone(s.k)
	var last []byte
	if len(ranges) > 0 {
		if end := spanOf(ranges[len(ranges)-1], b.codec.L).end; end != nil {
			last = end
		}
	}
	if last == nil {
		k, err := b.last()
		if err != nil {
			return nil, err
		}
		last = bytes.Clone(k)
	}
	return splitBetween(first, last, scanChunkDepth), nil
}

func splitBetween(a, b []byte, depth int) [][]byte {
	if depth == 0 {
		return nil
	}
	m := midKey(a, b)
	if m == nil {
		return nil
	}
	out := splitBetween(a, m, depth-1)
	out = append(out, m)
	return append(out, splitBetween(m, b, depth-1)...)
}

// midKey returns a key strictly between a and b in byte order, half way
// between them read as base-256 fractions, or nil when there is none worth
// cutting at.
func midKey(a, b []byte) []byte {
	n := max(len(a), len(b)) + 1
	sum := make([]int, n)
	carry := 0
	for i := n - 1; i >= 0; i-- {
		x := carry
		if i < len(a) {
			x += int(a[i])
		}
		if i < len(b) {
			x += int(b[i])
		}
		sum[i], carry = x&0xff, x>>8
	}
	m := make([]byte, n)
	rem := carry
	for i := 0; i < n; i++ {
		x := rem<<8 | sum[i]
		m[i], rem = byte(x>>1), x&1
	}
	m = bytes.TrimRight(m, "\x00")
	if bytes.Compare(m, a) <= 0 || bytes.Compare(m, b) >= 0 {
		return nil
	}
	return m
}
