package store

import (
	"context"

	"github.com/tstable/tstable/backend"
	"github.com/tstable/tstable/odata"
	"github.com/tstable/tstable/store/internal/values"
)

// delivery is how a query hands its matches to its caller: as decoded
// entities (Query) or as JSON lines written straight from the stored bytes
// (QueryJSONL). Exactly one of entity and lines is set.
type delivery struct {
	sel    []string
	entity func(*odata.Entity) error
	lines  func(lines []byte, n int) error
	c      *values.Codec // the table's, set by the scan before it reads
}

// batch is matches read but not yet handed to the caller.
type batch struct {
	ents  []*odata.Entity
	lines []byte
	n     int
}

// lineBatchBytes is about how much JSON a batch of lines gathers before
// it is handed over.
const lineBatchBytes = 64 << 10

// add adds the match stored at k and v (valid inside the transaction),
// with r's buffers.
func (d *delivery) add(b *batch, k, v []byte, r *values.RawRecord) error {
	if d.lines != nil {
		if b.lines == nil {
			b.lines = make([]byte, 0, lineBatchBytes+8<<10)
		}
		var err error
		if b.lines, err = d.c.AppendLine(b.lines, k, v, d.sel, r); err != nil {
			return err
		}
		b.n++
		return nil
	}
	e, err := d.c.Decode(k, v)
	if err != nil {
		return err
	}
	b.ents = append(b.ents, odata.Project(e, d.sel))
	b.n++
	return nil
}

// full says whether b is worth handing over: entities one by one in the
// serial scan (each reaches the caller as soon as it is read) and
// scanBatch at a time from the parallel scan's workers; lines by the
// buffer.
func (d *delivery) full(b *batch, parallel bool) bool {
	if d.lines != nil {
		return len(b.lines) >= lineBatchBytes || (parallel && b.n >= scanBatch)
	}
	return !parallel || b.n >= scanBatch
}

// deliver hands b's matches to the caller, in order, stopping at the
// first error of the callback, and empties b.
func (d *delivery) deliver(b *batch) error {
	n := b.n
	b.n = 0
	if d.lines != nil {
		lines := b.lines
		b.lines = b.lines[:0]
		if n == 0 {
			return nil
		}
		return d.lines(lines, n)
	}
	ents := b.ents
	b.ents = b.ents[:0]
	for _, e := range ents {
		if err := d.entity(e); err != nil {
			return err
		}
	}
	return nil
}

// QueryJSONL is Query with the matches delivered as the service's JSON,
// one entity a line: each line is what odata.AppendEntityJSON writes for
// the projected entity Query would deliver, then '\n'. fn gets the lines
// of n entities at a time, in order; the bytes are valid only during the
// call. Nothing is decoded into entities, and the parallel scan also
// serves an unfiltered stream (export), since its workers do the writing.
func (db *DB) QueryJSONL(ctx context.Context, table string, req backend.QueryRequest, fn func(lines []byte, n int) error) (*backend.QueryResult, error) {
	return db.query(ctx, table, req, &delivery{sel: req.Query.Select, lines: fn})
}

var _ backend.JSONLQuerier = (*DB)(nil)
