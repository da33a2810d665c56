package remote

import (
	"context"
	"errors"
	"io"
	"sync"

	"github.com/Azure/azure-sdk-for-go/sdk/data/aztables"
	"github.com/tstable/tstable/backend"
	"github.com/tstable/tstable/odata"
)

// Batch implements backend.Backend: one entity group transaction. It is
// checked first as the local store checks it (so Azurite's looser checks
// do not matter), then sent as one $batch request.
func (b *Backend) Batch(ctx context.Context, table string, ops []backend.Operation) ([]*odata.Entity, error) {
	prepared, err := backend.PrepareBatch(ops)
	if err != nil {
		return nil, err
	}
	if err := b.submit(ctx, table, prepared); err != nil {
		return nil, err
	}
	out := make([]*odata.Entity, len(prepared))
	for i, op := range prepared {
		if op.Kind == backend.OpDelete {
			out[i] = &odata.Entity{PartitionKey: op.Entity.PartitionKey, RowKey: op.Entity.RowKey}
			continue
		}
		if out[i], err = b.Get(ctx, table, op.Entity.PartitionKey, op.Entity.RowKey); err != nil {
			return nil, err
		}
	}
	return out, nil
}

// actionOf is the SDK's transaction type for an operation kind.
func actionOf(kind backend.OpKind) (aztables.TransactionType, bool) {
	switch kind {
	case backend.OpInsert:
		return aztables.TransactionTypeAdd, true
	case backend.OpReplace:
		return aztables.TransactionTypeUpdateReplace, true
	case backend.OpMerge:
		return aztables.TransactionTypeUpdateMerge, true
	case backend.OpInsertOrReplace:
		return aztables.TransactionTypeInsertReplace, true
	case backend.OpInsertOrMerge:
		return aztables.TransactionTypeInsertMerge, true
	case backend.OpDelete:
		return aztables.TransactionTypeDelete, true
	}
	return "", false
}

// submit sends prepared operations as one transaction.
func (b *Backend) submit(ctx context.Context, table string, ops []backend.Operation) error {
	actions := make([]aztables.TransactionAction, len(ops))
	for i, op := range ops {
		action, _ := actionOf(op.Kind)
		a := aztables.TransactionAction{ActionType: action, Entity: encodeEntity(op.Entity)}
		if op.Kind == backend.OpReplace || op.Kind == backend.OpMerge || op.Kind == backend.OpDelete {
			etag := etagOf(op.IfMatch)
			a.IfMatch = &etag
		}
		actions[i] = a
	}
	_, err := b.svc.NewClient(table).SubmitTransaction(ctx, actions, nil)
	if err == nil {
		return nil
	}
	var key *odata.Key
	mapped := mapError(err, table, nil)
	var se *odata.Error
	if errors.As(mapped, &se) && se.Index >= 0 && se.Index < len(ops) {
		e := ops[se.Index].Entity
		key = &odata.Key{PartitionKey: e.PartitionKey, RowKey: e.RowKey}
		return odata.AtIndex(mapError(err, table, key), se.Index)
	}
	return mapped
}

// Load implements backend.Backend: entities are grouped into transactions
// of up to 100 operations on one partition (a run of consecutive entities
// with the same PartitionKey), and up to Config.Parallel transactions are
// in flight at once; the SDK's retry policy retries 429 and 503 with
// backoff. Transactions run in parallel, so when Load stops on an error,
// the transactions already sent may have committed entities that come
// after the failing one in the source; Written counts what committed.
func (b *Backend) Load(ctx context.Context, table string, kind backend.OpKind, src backend.EntitySource, opts backend.LoadOptions) (*backend.LoadResult, error) {
	if _, ok := actionOf(kind); !ok || kind == backend.OpDelete {
		return nil, odata.Errorf(odata.CodeInvalidInput, "load cannot %s", kind)
	}
	ctx, cancel := context.WithCancel(ctx)
	defer cancel()
	res := &backend.LoadResult{}
	var (
		mu       sync.Mutex
		firstErr error
		wg       sync.WaitGroup
		slots    = make(chan struct{}, b.parallel)
	)
	fail := func(err error) {
		mu.Lock()
		if firstErr == nil {
			firstErr = err
			cancel()
		}
		mu.Unlock()
	}
	send := func(group []backend.Operation) {
		slots <- struct{}{}
		wg.Add(1)
		go func() {
			defer wg.Done()
			defer func() { <-slots }()
			if err := b.submit(ctx, table, group); err != nil {
				fail(err)
				return
			}
			mu.Lock()
			res.Written += int64(len(group))
			w := res.Written
			mu.Unlock()
			if opts.Progress != nil {
				opts.Progress(w)
			}
		}()
	}
	var group []backend.Operation
	groupSize := 0
	var n int64
	for {
		if ctx.Err() != nil {
			break
		}
		e, err := src()
		if errors.Is(err, io.EOF) {
			break
		}
		if err != nil {
			fail(err)
			break
		}
		op := backend.Operation{Kind: kind, Entity: e, IfMatch: "*"}
		if verr := odata.ValidateEntity(withoutTimestamp(e)); verr != nil {
			res.Rejected++
			var stop error = verr
			if opts.OnReject != nil {
				stop = opts.OnReject(n, e, verr)
			}
			if stop != nil {
				fail(stop)
				break
			}
			n++
			continue
		}
		n++
		size := odata.EntitySize(e)
		if len(group) > 0 && (len(group) == odata.MaxBatchOperations || groupSize+size > odata.MaxBatchBytes ||
			group[0].Entity.PartitionKey != e.PartitionKey || hasRow(group, e.RowKey)) {
			send(group)
			group, groupSize = nil, 0
		}
		group = append(group, op)
		groupSize += size
	}
	if len(group) > 0 && ctx.Err() == nil {
		send(group)
	}
	wg.Wait()
	if firstErr != nil {
		return res, firstErr
	}
	if err := ctx.Err(); err != nil {
		return res, err
	}
	return res, nil
}

func hasRow(group []backend.Operation, rk string) bool {
	for _, op := range group {
		if op.Entity.RowKey == rk {
			return true
		}
	}
	return false
}
