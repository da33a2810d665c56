package backend

import (
	"slices"
	"strings"

	"github.com/tstable/tstable/odata"
)

// Prepare checks one operation as the service does before it runs it, and
// returns it ready to apply: its entity valid (for a delete, its keys),
// a supplied Timestamp dropped (the backend sets it), and, for every kind
// but insert, its properties in the order the service keeps them
// (PropertiesByName).
func Prepare(op Operation) (Operation, error) {
	if op.Entity == nil {
		return op, odata.Errorf(odata.CodeInvalidInput, "the %s operation has no entity", op.Kind)
	}
	if op.Kind == OpDelete {
		if err := odata.ValidateKey(odata.PartitionKey, op.Entity.PartitionKey); err != nil {
			return op, err
		}
		return op, odata.ValidateKey(odata.RowKey, op.Entity.RowKey)
	}
	if op.Kind < OpInsert || op.Kind > OpDelete {
		return op, odata.Errorf(odata.CodeInvalidInput, "unknown operation %d", op.Kind)
	}
	op.Entity = withoutTimestamp(op.Entity)
	if op.Kind != OpInsert {
		op.Entity = PropertiesByName(op.Entity)
	}
	return op, odata.ValidateEntity(op.Entity)
}

// PropertiesByName returns e with its properties in the order the service
// keeps them after any write but Insert Entity (Update, Merge, Insert Or
// Replace, Insert Or Merge): sorted by name, byte by byte ("Birthday"
// before "age"), as its answers show; Insert Entity keeps the order given.
// e is not modified; it is returned itself when already in order.
func PropertiesByName(e *odata.Entity) *odata.Entity {
	less := func(a, b odata.Property) int { return strings.Compare(a.Name, b.Name) }
	if slices.IsSortedFunc(e.Properties, less) {
		return e
	}
	c := e.Clone()
	slices.SortFunc(c.Properties, less)
	return c
}

// withoutTimestamp drops a user-supplied Timestamp property: the backend
// sets it.
func withoutTimestamp(e *odata.Entity) *odata.Entity {
	for _, p := range e.Properties {
		if p.Name == odata.Timestamp {
			c := e.Clone()
			c.Delete(odata.Timestamp)
			return c
		}
	}
	return e
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
		p, err := Prepare(op)
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
