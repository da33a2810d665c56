package store

import (
	"errors"
	"fmt"
	"os"
	"runtime/debug"
	"sync"

	bolt "go.etcd.io/bbolt"
	berrors "go.etcd.io/bbolt/errors"

	"github.com/tstable/tstable/store/internal/boltfile"
)

// op is one call of a DB method into the engine. Its guard turns a fault
// while reading the memory-mapped file, and a panic of the engine (its
// assertions about pages), into DatabaseDamaged; code of the caller that
// the call runs (a Query callback, a Load source) runs outside the guard.
type op struct {
	db        *DB
	prevFault bool // the goroutine's SetPanicOnFault before the call
	inUser    bool // the caller's code is running
}

// do runs fn as one guarded call. A write on a DB found damaged, or any
// call on one closed, fails before it starts.
func (db *DB) do(write bool, fn func(o *op) error) (err error) {
	db.mu.RLock()
	defer db.mu.RUnlock()
	if e := db.broken.Load(); e != nil {
		return e
	}
	if db.bolt == nil {
		return fmt.Errorf("database %s is closed", db.path)
	}
	if write && db.opts.ReadOnly {
		return fmt.Errorf("database %s was opened for reading only; this change needs it opened for writing", db.path)
	}
	o := &op{db: db}
	o.prevFault = debug.SetPanicOnFault(true)
	defer func() {
		if o.inUser {
			return // the caller's own panic goes on, untouched
		}
		r := recover()
		debug.SetPanicOnFault(o.prevFault)
		if r != nil {
			err = db.found(boltfile.DescribePanic(r))
		}
	}()
	err = fn(o)
	if what, ok := damageIn(err); ok {
		err = db.found(what)
	}
	return err
}

// damageIn says whether err is damage found in the file, and what.
func damageIn(err error) (string, bool) {
	if err == nil {
		return "", false
	}
	return damageOf(err)
}

func damageOf(err error) (string, bool) {
	var pe *boltfile.PageError
	var ce *corruptError
	var pd *boltfile.PanicDamage
	switch {
	case errors.As(err, &pd):
		return pd.What, true
	case errors.As(err, &pe):
		return pe.Error(), true
	case errors.As(err, &ce):
		return ce.Error(), true
	case errors.Is(err, errCorrupt):
		return errCorrupt.Error(), true
	}
	return "", false
}

// user runs the caller's code outside the guard: a panic in it is the
// caller's and goes on untouched (the engine's own deferred clean-up
// still runs), and a fault in it is handled as the caller set.
func (o *op) user(fn func() error) error {
	o.leave()
	err := fn()
	o.enter()
	return err
}

// leave steps out of the guard, into the caller's code; enter steps back.
// A caller's panic between the two leaves o outside, which the guard sees.
func (o *op) leave() {
	debug.SetPanicOnFault(o.prevFault)
	o.inUser = true
}

func (o *op) enter() {
	o.inUser = false
	debug.SetPanicOnFault(true)
}

// view runs fn in a read transaction.
func (o *op) view(fn func(tx *bolt.Tx) error) error {
	return o.db.bolt.View(fn)
}

// update runs fn in a write transaction and commits it when fn succeeds.
func (o *op) update(fn func(tx *bolt.Tx) error) error {
	tx, err := o.db.bolt.Begin(true)
	if err != nil {
		return o.db.engineError(err)
	}
	defer tx.Rollback() // nothing to do after a commit; on a panic it releases the writer's lock
	if err := fn(tx); err != nil {
		return err
	}
	return o.commit(tx, -1)
}

// commit commits tx (see DB.commit).
func (o *op) commit(tx *bolt.Tx, from int64) error { return o.db.commit(tx, from) }

// commit commits tx. A failure (a full disk, an I/O error) rolls it back
// and is a *CommitError; from is Load's position, else -1.
func (db *DB) commit(tx *bolt.Tx, from int64) error {
	if hook := db.opts.failCommit; hook != nil {
		if err := hook(); err != nil {
			tx.Rollback()
			return &CommitError{Path: db.path, Err: err, From: from}
		}
	}
	if err := tx.Commit(); err != nil {
		return &CommitError{Path: db.path, Err: err, From: from}
	}
	db.guard.Forget()
	return nil
}

// engineError turns an error of the engine into one for people.
func (db *DB) engineError(err error) error {
	switch {
	case errors.Is(err, berrors.ErrDatabaseReadOnly):
		return fmt.Errorf("database %s was opened for reading only; this change needs it opened for writing", db.path)
	case errors.Is(err, berrors.ErrDatabaseNotOpen):
		return fmt.Errorf("database %s is closed", db.path)
	}
	return fmt.Errorf("database %s: %s", db.path, describeIOError(err))
}

// found records damage found in the file: the DB refuses every later call
// with the returned error, and this process opens the file for writing no
// more.
func (db *DB) found(what string) error {
	e := damagedError(db.path, what)
	if !db.broken.CompareAndSwap(nil, e) {
		return db.broken.Load()
	}
	if db.file != nil {
		markDamaged(db.file, db.path, what)
	}
	return e
}

// damaged lists the files this process found damaged. Each is kept open
// (on a handle of its own, holding no lock), so that its inode, by which
// it is recognised, cannot be reused for another file.
var damaged struct {
	sync.Mutex
	files []damagedFile
}

type damagedFile struct {
	f    *os.File
	info os.FileInfo
	what string
}

// markDamaged records that the file open as f (at path) is damaged.
func markDamaged(f *os.File, path, what string) {
	st, err := f.Stat()
	if err != nil {
		return
	}
	keep, err := os.Open(path)
	if err != nil {
		return
	}
	if kst, err := keep.Stat(); err != nil || !os.SameFile(st, kst) {
		keep.Close()
		return
	}
	damaged.Lock()
	defer damaged.Unlock()
	if len(damaged.files) == maxDamaged { // a process that meets this many damaged files forgets the oldest
		damaged.files[0].f.Close()
		damaged.files = damaged.files[1:]
	}
	damaged.files = append(damaged.files, damagedFile{keep, st, what})
}

// maxDamaged is how many damaged files a process remembers (and keeps open).
const maxDamaged = 64

// damagedEarlier returns the DatabaseDamaged error for a file this process
// found damaged before, or nil.
func damagedEarlier(st os.FileInfo, path string) error {
	damaged.Lock()
	defer damaged.Unlock()
	for _, d := range damaged.files {
		if os.SameFile(d.info, st) {
			return damagedError(path, d.what+" (found earlier in this process)")
		}
	}
	return nil
}
