package store

import (
	"context"
	"encoding/binary"

	"github.com/tstable/tstable/backend"
	"github.com/tstable/tstable/odata"
	"github.com/tstable/tstable/store/internal/values"
)

// checkETag applies an If-Match condition to the stored value cur, of a
// table whose codec is c. An empty condition is treated as "*" (any ETag),
// which is what the CLI sends by default; a weak ETag must carry the stored
// version's time, or the write is refused as UpdateConditionNotSatisfied;
// any other form is InvalidInput (odata.CheckETag).
func checkETag(c *values.Codec, cur []byte, ifMatch string, pk, rk string) error {
	if ifMatch == "" || ifMatch == "*" {
		return nil
	}
	if err := odata.CheckETag(ifMatch); err != nil {
		return err
	}
	ticks, err := c.Ticks(cur)
	if err != nil {
		return err
	}
	if !odata.ETagMatches(ifMatch, ticks) {
		etag := odata.ETagFor(odata.TimeOfTicks(ticks))
		return odata.Errorf(odata.CodeUpdateConditionNotSatisfied, "entity (%q, %q) has changed since it was read: its ETag is %s, not %s; read it again and retry", pk, rk, etag, ifMatch)
	}
	return nil
}

func notFound(pk, rk string) error {
	return odata.Errorf(odata.CodeResourceNotFound, "entity (%q, %q) does not exist", pk, rk)
}

// apply performs one prepared operation inside a write transaction, with
// ticks as the new Timestamp, and sets *out to the entity as stored.
// absent says the entity is known not to be stored (it is not looked up).
func apply(b *gbucket, op backend.Operation, ticks int64, absent bool, out *odata.Entity) error {
	e := op.Entity
	c := b.codec
	key := c.KeyOf(e.PartitionKey, e.RowKey)
	var cur []byte
	if !absent {
		var err error
		if cur, err = b.get(key); err != nil {
			return err
		}
	}
	props := e.Properties
	switch op.Kind {
	case backend.OpInsert:
		if cur != nil {
			return odata.Errorf(odata.CodeEntityAlreadyExists, "entity (%q, %q) already exists; use upsert or replace to change it", e.PartitionKey, e.RowKey)
		}
	case backend.OpReplace, backend.OpMerge, backend.OpDelete:
		if cur == nil {
			return notFound(e.PartitionKey, e.RowKey)
		}
		if err := checkETag(c, cur, op.IfMatch, e.PartitionKey, e.RowKey); err != nil {
			return err
		}
	}
	if op.Kind == backend.OpDelete {
		*out = odata.Entity{PartitionKey: e.PartitionKey, RowKey: e.RowKey}
		return b.del(key)
	}
	if cur != nil && (op.Kind == backend.OpMerge || op.Kind == backend.OpInsertOrMerge) {
		old, err := c.Decode(key, cur)
		if err != nil {
			return err
		}
		for _, p := range props {
			old.Set(p.Name, p.Value)
		}
		if err := odata.ValidateEntity(old); err != nil {
			return err
		}
		props = backend.PropertiesByName(old).Properties
	}
	val, err := c.Encode(make([]byte, 0, valueRoom(props)), ticks, props)
	if err != nil {
		return err
	}
	if err := b.put(key, val); err != nil {
		return err
	}
	*out = odata.Entity{PartitionKey: e.PartitionKey, RowKey: e.RowKey, Timestamp: odata.TimeOfTicks(ticks), Properties: props}
	return nil
}

// valueRoom is room enough for the stored value of an entity of props in
// either format (the engine keeps each value until its transaction
// commits, so each is made in one allocation of its own).
func valueRoom(props []odata.Property) int {
	n := 1 + 8 + binary.MaxVarintLen64
	for _, p := range props {
		n += len(p.Name) + len(p.Value.Str) + 16
	}
	return n
}

// Write performs one operation and returns the entity as stored.
func (db *DB) Write(ctx context.Context, table string, wop backend.Operation) (*odata.Entity, error) {
	wop, err := backend.Prepare(wop)
	if err != nil {
		return nil, err
	}
	out := &odata.Entity{}
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
			return apply(b, wop, ticks, false, out)
		})
	})
	if err != nil {
		return nil, err
	}
	return out, nil
}
