package store

import (
	"bytes"
	"context"
	"errors"

	"github.com/tstable/tstable/odata"
)

// Batch performs an entity group transaction: 1 to 100 operations on one
// partition, each entity at most once, at most 4 MiB in all. Everything is
// checked first, then applied in one bbolt transaction; a refused operation
// is reported with its 0-based index and nothing is changed.
func (db *DB) Batch(ctx context.Context, table string, ops []Operation) ([]*odata.Entity, error) {
	prepared, err := PrepareBatch(ops)
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
func noneStored(b *gbucket, ops []Operation) (bool, error) {
	var lo, hi []byte
	for _, op := range ops {
		k := b.codec.keyOf(op.Entity.PartitionKey, op.Entity.RowKey)
		if lo == nil || bytes.Compare(k, lo) < 0 {
			lo = append(lo[:0], k...)
		}
		if hi == nil || bytes.Compare(k, hi) > 0 {
			hi = append(hi[:0], k...)
		}
	}
	return b.noneIn(lo, hi)
}

// PrepareBatch checks an entity group transaction as the service does
// before it runs any of it: 1 to 100 operations, every entity valid, one
// PartitionKey, each entity once, at most 4 MiB. A refused operation is
// reported with its index. It returns the operations ready to apply.
func PrepareBatch(ops []Operation) ([]Operation, error) {
	if len(ops) == 0 {
		return nil, odata.Errorf(odata.CodeInvalidInput, "a batch needs at least one operation")
	}
	if len(ops) > odata.MaxBatchOperations {
		return nil, odata.Errorf(odata.CodeInvalidInput, "a batch holds at most %d operations; this one has %d: split it", odata.MaxBatchOperations, len(ops))
	}
	prepared := make([]Operation, len(ops))
	seen := make(map[odata.Key]int, len(ops))
	size := 0
	for i, op := range ops {
		p, err := prepare(op)
		if err != nil {
			return nil, odata.AtIndex(err, i)
		}
		e := p.Entity
		if i > 0 && e.PartitionKey != prepared[0].Entity.PartitionKey {
			return nil, odata.AtIndex(odata.Errorf(odata.CodeCommandsInBatchActOnDifferentPartitions, "all operations of a batch must share one PartitionKey: operation 0 has %q, this one %q", prepared[0].Entity.PartitionKey, e.PartitionKey), i)
		}
		k := odata.Key{PartitionKey: e.PartitionKey, RowKey: e.RowKey}
		if j, dup := seen[k]; dup {
			return nil, odata.AtIndex(odata.Errorf(odata.CodeInvalidDuplicateRow, "entity (%q, %q) appears twice in the batch (operations %d and %d); each entity may appear once", e.PartitionKey, e.RowKey, j, i), i)
		}
		seen[k] = i
		size += odata.EntitySize(e)
		prepared[i] = p
	}
	if size > odata.MaxBatchBytes {
		return nil, odata.Errorf(odata.CodeRequestBodyTooLarge, "the batch holds %d bytes of entities; the limit is %d (4 MiB)", size, odata.MaxBatchBytes)
	}
	return prepared, nil
}
