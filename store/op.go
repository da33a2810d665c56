package store

import (
	"errors"
	"fmt"
	"runtime/debug"

	berrors "go.etcd.io/bbolt/errors"

	"github.com/tstable/tstable/backend"
	"github.com/tstable/tstable/store/internal/boltfile"
)

// op is one call of a DB method into the engine. Its guard turns a fault
// while reading the memory-mapped file, a panic of the engine (its
// assertions about pages) and damage the call's own checks find into a
// finding, which the DB confirms before it reports it (see DB.do); code
// of the caller that the call runs (a Query callback, a Load's OnReject)
// runs outside the guard, through user.
type op struct {
	db        *DB
	fresh     bool   // a call run again: the guard trusts nothing it kept
	prevFault bool   // the goroutine's SetPanicOnFault before the call
	inUser    bool   // the caller's code is running
	handed    bool   // the caller's code has run: the call cannot be run again
	once      bool   // the call has effects outside its transaction: it cannot be run again
	lastTable string // the table the call opened last, for a finding that names no page
}

// do runs fn as one guarded call. A call on a closed DB fails before it
// starts, and so does a write once damage is confirmed in the file.
//
// Damage the call meets (a finding) is confirmed before it is reported
// or marks anything: confirm reads the file again, under a read
// transaction of its own and trusting nothing the guard kept, and only
// damage found again is DatabaseDamaged (after which the DB refuses
// writes, and this process opens the file for writing no more; reads go
// on, and each meets the damage only where it reads it). A finding not
// found again was a page changing under the call: the call runs once
// more, afresh, when the caller's code has not run yet and it has no
// effects outside its transaction, else it fails with ServerBusy, a
// transient error. A DB that a load released (see DB.release) takes the
// file back first.
func (db *DB) do(write bool, fn func(o *op) error) error {
	db.mu.RLock()
	for db.bolt == nil && db.released {
		db.mu.RUnlock()
		if err := db.takeBack(); err != nil {
			return err
		}
		if err := db.readyLater(); err != nil {
			return err
		}
		db.mu.RLock()
	}
	defer db.mu.RUnlock()
	if db.bolt == nil {
		return fmt.Errorf("database %s is closed", db.path)
	}
	if write && db.opts.ReadOnly {
		return fmt.Errorf("database %s was opened for reading only; this change needs it opened for writing", db.path)
	}
	if e := db.damaged.Load(); write && e != nil {
		return e
	}
	o := &op{db: db}
	err := o.run(fn)
	for again := false; ; again = true {
		var ce *callersError
		if errors.As(err, &ce) {
			return ce.err
		}
		f := findingIn(err)
		if f == nil {
			return err
		}
		if e := db.confirm(o, f); e != nil {
			return e
		}
		db.guard.Reset()
		if again || o.handed || o.once {
			return db.transient(f)
		}
		o = &op{db: db, fresh: true}
		err = o.run(fn)
	}
}

// run calls fn inside the guard: a fault or a panic is a finding.
func (o *op) run(fn func(o *op) error) (err error) {
	o.prevFault = debug.SetPanicOnFault(true)
	defer func() {
		if o.inUser {
			return // the caller's own panic goes on, untouched
		}
		r := recover()
		debug.SetPanicOnFault(o.prevFault)
		if r != nil {
			err = boltfile.PanicFinding(r)
		}
	}()
	return fn(o)
}

// user runs the caller's code outside the guard: a panic in it is the
// caller's and goes on untouched (the engine's own deferred clean-up
// still runs), and a fault in it is handled as the caller set. It is the
// one way a call runs the caller's code, and once it has, the call is not
// run again. An error the caller's code returns is the caller's, never a
// finding of the call, whatever it wraps.
func (o *op) user(fn func() error) error {
	debug.SetPanicOnFault(o.prevFault)
	o.inUser, o.handed = true, true
	err := fn()
	o.inUser = false
	debug.SetPanicOnFault(true)
	if err != nil {
		return &callersError{err}
	}
	return nil
}

// callersError is an error of the caller's code, on its way out of the
// call (DB.do returns it as it was).
type callersError struct{ err error }

func (e *callersError) Error() string { return e.err.Error() }

// engineError turns an error of the engine into one for people.
func (db *DB) engineError(err error) error {
	switch {
	case errors.Is(err, berrors.ErrDatabaseReadOnly):
		return fmt.Errorf("database %s was opened for reading only; this change needs it opened for writing", db.path)
	case errors.Is(err, berrors.ErrDatabaseNotOpen):
		return fmt.Errorf("database %s is closed", db.path)
	}
	return fmt.Errorf("database %s: %s", db.path, backend.DescribeIOError(err))
}
