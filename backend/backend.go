package backend

import (
	"context"

	"github.com/tstable/tstable/odata"
)

// OpKind is a write operation of the service.
type OpKind int

// The write operations. Replace is the service's "Update Entity".
const (
	OpInsert          OpKind = iota + 1 // fails with EntityAlreadyExists when the entity exists
	OpReplace                           // needs If-Match (ETag or "*"); ResourceNotFound when missing
	OpMerge                             // as OpReplace, but keeps properties not given
	OpInsertOrReplace                   // upsert, replacing the whole entity
	OpInsertOrMerge                     // upsert, merging properties
	OpDelete                            // needs If-Match; only the entity's keys are used
)

// String returns the operation's name as the CLI spells it.
func (k OpKind) String() string {
	switch k {
	case OpInsert:
		return "insert"
	case OpReplace:
		return "replace"
	case OpMerge:
		return "merge"
	case OpInsertOrReplace:
		return "insert-or-replace"
	case OpInsertOrMerge:
		return "insert-or-merge"
	case OpDelete:
		return "delete"
	}
	return ""
}

// Operation is one write: what to do, to which entity, under which ETag
// condition ("" for none, "*" for any, or an ETag from an earlier read).
type Operation struct {
	Kind    OpKind
	Entity  *odata.Entity
	IfMatch string
}

// QueryRequest is one call to Backend.Query.
type QueryRequest struct {
	Query odata.Query
	// PageSize caps the entities delivered by this call (1 to 1000, and never
	// more than Query.Top when that is set). 0 means no page: stream every
	// match to the end of the table (export, stats, --all).
	PageSize int
	// Start resumes at this key (inclusive), as decoded from a continuation.
	Start *odata.Key
}

// QueryResult says what a Query call did.
type QueryResult struct {
	Plan     *odata.Plan
	Scanned  int64      // entities read to answer; -1 when the backend cannot observe it
	Returned int64      // entities delivered to the callback
	Next     *odata.Key // where the next page starts; nil when the query is complete
	Requests int        // round trips to the service, or read transactions locally
}

// EntitySource yields entities for Load, returning io.EOF after the last.
type EntitySource func() (*odata.Entity, error)

// LoadOptions tunes Backend.Load.
type LoadOptions struct {
	// OnReject is called for an entity the backend refuses (n is its 0-based
	// position in the source). Returning nil skips it and goes on; returning
	// an error stops the load with that error. Nil stops at the first reject.
	OnReject func(n int64, e *odata.Entity, err error) error
	// Progress, when set, is called now and then with the count written so far.
	Progress func(written int64)
}

// LoadResult counts what Load did.
type LoadResult struct {
	Written  int64
	Rejected int64
}

// Backend is the storage every tstable command talks to: the local bbolt
// file or the remote service. Errors it returns for refused operations are
// *odata.Error values carrying the service's code.
type Backend interface {
	// Describe names the backend for people: "local /path/to/file.db" or
	// "remote account (endpoint)". It never contains a secret.
	Describe() string

	CreateTable(ctx context.Context, name string) error
	DeleteTable(ctx context.Context, name string) error
	// ListTables returns the table names as created, sorted.
	ListTables(ctx context.Context) ([]string, error)

	// Write performs one operation and returns the entity as stored (with
	// its new Timestamp; for a delete, the keys only).
	Write(ctx context.Context, table string, op Operation) (*odata.Entity, error)
	// Batch performs an entity group transaction: up to 100 operations on
	// one partition, all or nothing. A refused operation is reported as an
	// *odata.Error whose Index names it, and nothing is changed.
	Batch(ctx context.Context, table string, ops []Operation) ([]*odata.Entity, error)
	// Get reads one entity (ResourceNotFound when it does not exist).
	Get(ctx context.Context, table, pk, rk string) (*odata.Entity, error)
	// Query streams the entities that match req, in (PartitionKey, RowKey)
	// order, to fn, projected by req.Query.Select. An error from fn stops
	// the query and is returned.
	Query(ctx context.Context, table string, req QueryRequest, fn func(*odata.Entity) error) (*QueryResult, error)
	// Load writes many entities with one kind of operation (insert, replace
	// or either upsert) as fast as the backend allows: large transactions
	// locally, parallel batches remotely. Written counts what was
	// committed. Locally (store.DB.Load), a load that stops at a refused entity
	// writes nothing, and one whose commit fails keeps the entities before
	// a key (it writes in key order); remotely, transactions go in
	// parallel, so one that stops may have committed entities on either
	// side of the stopping one.
	Load(ctx context.Context, table string, kind OpKind, src EntitySource, opts LoadOptions) (*LoadResult, error)

	Close() error
}

// JSONLQuerier is a Backend that can deliver a query's entities already
// written as JSON lines (as the local engine's store.DB.QueryJSONL does),
// which spares decoding them when that is all the caller would do with
// them.
type JSONLQuerier interface {
	QueryJSONL(ctx context.Context, table string, req QueryRequest, fn func(lines []byte, n int) error) (*QueryResult, error)
}

// KeyOrderer is a Backend that says in which order its tables keep their
// keys (see odata.Order).
type KeyOrderer interface {
	KeyOrder() odata.Order
}

// KeyOrderOf is the order of b's tables' keys: the service's (UTF-16 code
// units), but for a local file of format 1, which keeps code point order.
func KeyOrderOf(b Backend) odata.Order {
	if o, ok := b.(KeyOrderer); ok {
		return o.KeyOrder()
	}
	return odata.UTF16
}
