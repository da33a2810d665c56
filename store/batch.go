package store

import (
	"bytes"
	"context"
	"errors"

	"github.com/tstable/tstable/backend"
	"github.com/tstable/tstable/odata"
)

// Batch performs an entity group transaction: 1 to 100 operations on one
// partition, each entity at most once, at most 4 MiB in all. Everything is
// checked first, then applied in one bbolt transaction; a refused operation
// is reported with its 0-based index and nothing is changed.
func (db *DB) Batch(ctx context.Context, table string, ops []backend.Operation) ([]*odata.Entity, error) {
	prepared, err := backend.PrepareBatch(ops)
	if err != nil {
		return nil, err
	}
	stored := make([]odata.Entity, len(prepared))
	err = db.do(true, func(o *op) error {
		return o.shared(func(t *gtx) error {
			b, err := t.table(table)
			if err != nil {
				return err
			}
			ticks, err := t.nextTicks(0)
			if err != nil {
				return err
			}
			absent, err := noneStored(b, prepared)
			if err != nil {
				return err
			}
			for i, p := range prepared {
				if err := apply(b, p, ticks, absent, &stored[i]); err != nil {
					if errors.Is(err, ErrDamaged) {
						return err
					}
					return odata.AtIndex(err, i)
				}
			}
			return nil
		})
	})
	if err != nil {
		return nil, err
	}
	out := make([]*odata.Entity, len(stored))
	for i := range stored {
		out[i] = &stored[i]
	}
	return out, nil
}

// noneStored reports whether the table holds none of the batch's keys,
// found with one lookup of the stretch from the least of them to the
// greatest: then no operation needs a lookup of its own (a batch's keys
// are distinct, so each is as the batch found it when its operation runs).
func noneStored(b *gbucket, ops []backend.Operation) (bool, error) {
	var lo, hi []byte
	for _, op := range ops {
		k := b.codec.KeyOf(op.Entity.PartitionKey, op.Entity.RowKey)
		if lo == nil || bytes.Compare(k, lo) < 0 {
			lo = append(lo[:0], k...)
		}
		if hi == nil || bytes.Compare(k, hi) > 0 {
			hi = append(hi[:0], k...)
		}
	}
	return b.noneIn(lo, hi)
}
