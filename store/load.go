package store

import (
	"bytes"
	"context"
	"errors"
	"io"

	"github.com/tstable/tstable/odata"
	bolt "go.etcd.io/bbolt"
)

// loadChunk is how many entities one load transaction commits. Every commit
// syncs the file, so a chunk is large; it is small enough that a chunk's
// values stay a few megabytes in memory.
const loadChunk = 50_000

// Load writes entities from src with one kind of operation, in large
// transactions. An entity the store refuses goes to opts.OnReject; when that
// (or the source) stops the load, every entity before the stopping one has
// been committed and none after it. When the keys arrive in ascending order
// after the table's last key, pages are filled further (bulk append).
func (db *DB) Load(ctx context.Context, table string, kind OpKind, src EntitySource, opts LoadOptions) (*LoadResult, error) {
	switch kind {
	case OpInsert, OpReplace, OpInsertOrReplace, OpInsertOrMerge, OpMerge:
	default:
		return nil, odata.Errorf(odata.CodeInvalidInput, "load cannot %s", kind)
	}
	res := &LoadResult{}
	var n int64 // position in the source
	done := false
	for !done {
		var stop error
		err := db.bolt.Update(func(tx *bolt.Tx) error {
			b, err := tableBucket(tx, table)
			if err != nil {
				return err
			}
			ticks, err := nextTicks(tx)
			if err != nil {
				return err
			}
			last, _ := b.Cursor().Last()
			mem := &arena{}
			appending := true
			for count := 0; count < loadChunk; count++ {
				e, err := src()
				if errors.Is(err, io.EOF) {
					done = true
					break
				}
				if err != nil {
					stop, done = err, true
					break
				}
				if count&1023 == 0 {
					if err := ctx.Err(); err != nil {
						stop, done = err, true
						break
					}
				}
				op, err := prepare(Operation{Kind: kind, Entity: e, IfMatch: "*"})
				if err == nil {
					key := mem.key(op.Entity.PartitionKey, op.Entity.RowKey)
					if appending && last != nil && bytes.Compare(key, last) <= 0 {
						appending = false
					}
					last = key
					if appending && kind != OpReplace && kind != OpMerge {
						// Past every key in the table: nothing to find or
						// merge, so the entity is put as it is.
						err = b.Put(key, mem.value(ticks, op.Entity.Properties))
					} else {
						_, err = apply(b, op, ticks)
					}
				}
				if err != nil {
					res.Rejected++
					if opts.OnReject == nil {
						stop = err
					} else {
						stop = opts.OnReject(n, e, err)
					}
					if stop != nil {
						done = true
						break
					}
				} else {
					res.Written++
				}
				n++
			}
			if appending {
				b.FillPercent = 0.95
			}
			return nil
		})
		if err != nil {
			return res, err
		}
		if opts.Progress != nil {
			opts.Progress(res.Written)
		}
		if stop != nil {
			return res, stop
		}
	}
	return res, nil
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
