package store

import (
	"bytes"
	"context"
	"fmt"
	"os"

	"github.com/tstable/tstable/odata"
)

// upgradeTxBytes is about how much of a table one transaction of an
// upgrade copies.
const upgradeTxBytes = 32 << 20

// upgradeInto copies every table of src, a file of an older format, into
// dst, a new file of the current format, entity by entity: each keeps its
// keys, properties (names, types, values) and Timestamp (so its ETag);
// the tables keep their names as created, and dst's clock ends no earlier
// than src's. Only the order of the keys changes, to the current format's
// (see Order). Pages are filled whole, as Compact fills them. Staging
// buckets (of loads not finished) are not copied.
func (src *DB) upgradeInto(ctx context.Context, dst *DB) error {
	names, err := src.ListTables(ctx)
	if err != nil {
		return err
	}
	for _, name := range names {
		if err := dst.CreateTable(ctx, name); err != nil {
			return err
		}
		if err := src.copyTable(ctx, dst, name); err != nil {
			return err
		}
	}
	var clock int64
	if err := src.do(false, func(o *op) error {
		return o.view(func(t *gtx) (err error) {
			clock, err = t.clock()
			return err
		})
	}); err != nil {
		return err
	}
	return dst.do(true, func(o *op) error {
		return o.update(func(t *gtx) error {
			_, err := t.nextTicks(clock)
			return err
		})
	})
}

// copyTable copies one table's entities from src into dst's table of the
// same name, a transaction at a time.
func (src *DB) copyTable(ctx context.Context, dst *DB, name string) error {
	var after []byte
	for done := false; !done; {
		if err := ctx.Err(); err != nil {
			return err
		}
		var batch []*odata.Entity
		err := src.do(false, func(o *op) error {
			batch = batch[:0]
			return o.view(func(t *gtx) error {
				b, err := t.table(name)
				if err != nil {
					return err
				}
				size := 0
				var derr error
				err = b.scan(after, func(k, v []byte) bool {
					e, err := b.codec.Decode(k, v)
					if err != nil {
						derr = err
						return false
					}
					batch = append(batch, e)
					after = append(after[:0], k...)
					size += len(k) + len(v)
					return size < upgradeTxBytes
				})
				if err == nil {
					err = derr
				}
				done = size < upgradeTxBytes
				return err
			})
		})
		if err != nil {
			return err
		}
		if err := dst.putAll(name, batch); err != nil {
			return err
		}
	}
	return nil
}

// putAll writes entities, with their own Timestamps, into table in one
// transaction, filling the pages whole.
func (db *DB) putAll(table string, es []*odata.Entity) error {
	if len(es) == 0 {
		return nil
	}
	return db.do(true, func(o *op) error {
		return o.update(func(t *gtx) error {
			b, err := t.table(table)
			if err != nil {
				return err
			}
			b.fillPages(1)
			var val []byte
			for _, e := range es {
				if val, err = b.codec.Encode(val[:0], odata.TicksOf(e.Timestamp), e.Properties); err != nil {
					return err
				}
				if err := b.put(b.codec.L.Key(e.PartitionKey, e.RowKey), bytes.Clone(val)); err != nil {
					return err
				}
			}
			return nil
		})
	})
}

// upgrade writes the database src, of an older format, into a new file
// at tmp, in the current format.
func upgrade(ctx context.Context, src *DB, tmp string) error {
	os.Remove(tmp)
	dst, err := Open(tmp, &Options{Wait: -1})
	if err != nil {
		return err
	}
	if err := src.upgradeInto(ctx, dst); err != nil {
		dst.Close()
		return err
	}
	if err := dst.Close(); err != nil {
		return fmt.Errorf("cannot close the upgraded copy %s: %w", tmp, err)
	}
	return nil
}
