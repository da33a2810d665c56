package bulk

import (
	"context"
	"time"

	"github.com/tstable/tstable/store/internal/values"
)

// Engine is the store as a load uses it: the file it holds, let go and
// taken back, and guarded calls into it.
type Engine interface {
	// Path is the database file's.
	Path() string
	// Layout is the file's format now (it changes only when the file is
	// opened again).
	Layout() values.Layout
	// TakeBackNow takes the file back after Release without waiting: ok
	// is false when another process holds it.
	TakeBackNow() (ok bool, err error)
	// Release lets go of the file while the load reads its source; the
	// next call takes it back, waiting as Open does, under ctx.
	Release(ctx context.Context) error
	// StepAside lets a process that waits for the file in, between two
	// transactions, and takes the file back.
	StepAside(ctx context.Context) error
	// ReserveMap has the engine map room for a load of n bytes before it
	// writes.
	ReserveMap(ctx context.Context, n int64) error
	// EmptyForLoad removes the staging that killed loads left and reports
	// whether table is empty.
	EmptyForLoad(table string) (bool, error)
	// ProcessAlive reports whether process pid is running.
	ProcessAlive(pid int) bool
	// Do runs fn as one guarded call of the store: damage it meets is
	// confirmed before it is reported, and a call that met a page changing
	// under it runs again, afresh, unless once (it took records from the
	// load's runs) or it ran the caller's code.
	Do(write, once bool, fn func(c Call) error) error
}

// Call is one guarded call of the store.
type Call interface {
	// View runs fn in a read transaction.
	View(fn func(t Tx) error) error
	// Update runs fn in a write transaction and commits it when fn
	// succeeds.
	Update(fn func(t Tx) error) error
	// Begin begins a write transaction, which the caller ends.
	Begin() (Tx, error)
	// User runs the caller's code (OnReject) outside the guard: its
	// panic goes on, and its error is the caller's.
	User(fn func() error) error
}

// Tx is a transaction of the store.
type Tx interface {
	// Table is the table's bucket, or TableNotFound.
	Table(name string) (Bucket, error)
	// NextTicks issues a Timestamp (at least atLeast) and advances the
	// file's clock.
	NextTicks(atLeast int64) (int64, error)
	// Commit commits the transaction; a failure is a
	// *backend.CommitError. Rollback ends it without its changes (after a
	// commit, it does nothing).
	Commit() error
	Rollback()
	// CreateStaging makes the staging bucket parent, holding the staged
	// table's bucket child (with an incarnation of its own), and returns
	// that; Staged returns it, nil when there is none.
	CreateStaging(parent, child []byte) (Bucket, error)
	Staged(parent, child []byte) (Bucket, error)
	// SwapIn puts the staged table's bucket child of parent in place of
	// the table's, and removes parent. DropStaging removes parent and
	// what it holds.
	SwapIn(parent, child []byte) error
	DropStaging(parent []byte) error
}

// Bucket is a table's bucket (or a staged one), guarded: every key it
// reads or writes has the way down to it checked first.
type Bucket interface {
	// Codec reads and writes its entities in the file's format.
	Codec() *values.Codec
	// First and Last are its first and last keys, nil when it is empty.
	First() ([]byte, error)
	Last() ([]byte, error)
	// Get is the value at key, nil when there is none.
	Get(key []byte) ([]byte, error)
	// Put stores v at key.
	Put(key, v []byte) error
	// Scan calls fn with each key and value after the key after (nil: from
	// the start), in order, until fn returns false.
	Scan(after []byte, fn func(k, v []byte) bool) error
	// FillPages has the engine fill the pages it splits to fraction f.
	FillPages(f float64)
}

// Settings tunes a load beyond the contract's LoadOptions.
type Settings struct {
	// Keep stores each entity's own Timestamp (Recover copies them)
	// instead of the time of the write.
	Keep bool
	// For tests: Chunk and Every replace the size and duration of a
	// load's chunks, Run the bytes of a sorted run kept in memory before
	// it is spilled to the temporary file; NoStaging, that a load never
	// stages (see staging.go).
	Chunk     int
	Every     time.Duration
	Run       int
	NoStaging bool
}
