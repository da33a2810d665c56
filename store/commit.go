package store

import (
	"errors"
	"sync"

	bolt "go.etcd.io/bbolt"

	"github.com/tstable/tstable/backend"
	"github.com/tstable/tstable/store/internal/boltfile"
)

// Group commit. Every write transaction ends with an fsync, and bbolt runs
// one writer at a time, so concurrent writers (a server's clients) would
// wait for each other's fsync in turn. Instead, writers that arrive while a
// transaction is committing queue up, and the next of them to run commits
// all of them in one transaction and one fsync. A lone writer commits at
// once, as before. Each write still sees the writes queued before it, in
// arrival order, exactly as if they had committed one by one; one that
// fails is taken out (the transaction is rolled back and the others run
// again without it), so a refused write never undoes another, and nobody
// is answered before its write is on disk.

// committer queues the writers of one DB.
type committer struct {
	mu      sync.Mutex
	running bool
	pending []*commitReq
}

// commitReq is one writer's transaction function and its outcome.
type commitReq struct {
	fn   func(*bolt.Tx) error
	err  error
	wake chan bool // true: lead the next group; false: done, err is set
}

// update runs fn in a write transaction, shared with concurrent writers,
// and returns fn's error or the commit's.
func (db *DB) update(fn func(*bolt.Tx) error) error {
	r := &commitReq{fn: fn, wake: make(chan bool, 1)}
	c := &db.commits
	c.mu.Lock()
	c.pending = append(c.pending, r)
	if c.running {
		c.mu.Unlock()
		if lead := <-r.wake; !lead {
			return r.err
		}
		c.mu.Lock()
	}
	c.running = true
	group := c.pending
	c.pending = nil
	c.mu.Unlock()

	db.commitGroup(group, r)

	c.mu.Lock()
	if len(c.pending) > 0 {
		c.pending[0].wake <- true // it leads the writers that queued meanwhile
	} else {
		c.running = false
	}
	c.mu.Unlock()
	return r.err
}

// commitGroup runs the group's functions in one transaction, taking out
// each one that fails, and wakes every member but self with its outcome.
// Damage found by any of them fails them all: nothing more is written to
// a damaged file.
func (db *DB) commitGroup(group []*commitReq, self *commitReq) {
	out := make([]bool, len(group)) // failed, and taken out
	left := len(group)
	for left > 0 {
		failed, err := db.runGroup(group, out)
		if errors.Is(err, ErrDamaged) {
			for i, r := range group {
				if !out[i] {
					r.err = err
				}
			}
			break
		}
		if failed >= 0 {
			group[failed].err, out[failed] = err, true
			left--
			continue
		}
		for i, r := range group {
			if !out[i] {
				r.err = err // nil, or the commit's own failure
			}
		}
		break
	}
	for _, r := range group {
		if r != self {
			r.wake <- false
		}
	}
}

// runGroup runs the functions not taken out in one transaction and
// commits it. It returns the index of the one that failed (-1 when none
// did) and its error, or the commit's.
func (db *DB) runGroup(group []*commitReq, out []bool) (failed int, err error) {
	tx, err := db.bolt.Begin(true)
	if err != nil {
		return -1, db.engineError(err)
	}
	db.shapes.beginWrite()
	defer tx.Rollback() // nothing to do after a commit
	for i, r := range group {
		if out[i] {
			continue
		}
		if err := run(r.fn, tx); err != nil {
			return i, err
		}
	}
	return -1, db.commit(tx, -1)
}

// run calls fn. A panic in it (the engine meeting a damaged page, or a
// fault reading one) is damage, and becomes an error, so that the other
// writers are not left waiting for ever.
func run(fn func(*bolt.Tx) error, tx *bolt.Tx) (err error) {
	defer func() {
		if p := recover(); p != nil {
			err = boltfile.PanicFinding(p)
		}
	}()
	return fn(tx)
}

// update runs fn in a write transaction of its own and commits it when fn
// succeeds.
func (o *op) update(fn func(t *gtx) error) error {
	t, err := o.begin(true)
	if err != nil {
		return err
	}
	defer t.rollback() // nothing to do after a commit; on a panic it releases the writer's lock
	if err := fn(t); err != nil {
		return err
	}
	return t.commit(-1)
}

// shared runs fn in a write transaction shared with concurrent writers
// (see DB.update).
func (o *op) shared(fn func(t *gtx) error) error {
	return o.db.update(func(tx *bolt.Tx) error { return fn(o.wrap(tx)) })
}

// commit commits tx. A failure (a full disk, an I/O error) rolls it back
// and is a *backend.CommitError; from is Load's position, else -1.
func (db *DB) commit(tx *bolt.Tx, from int64) error {
	if hook := db.opts.failCommit; hook != nil {
		if err := hook(); err != nil {
			tx.Rollback()
			return &backend.CommitError{Path: db.path, Err: err, From: from}
		}
	}
	built, err := db.writeSpare((&op{db: db}).wrap(tx))
	if err != nil {
		tx.Rollback()
		if errors.Is(err, ErrDamaged) {
			return err
		}
		return &backend.CommitError{Path: db.path, Err: err, From: from}
	}
	if err := tx.Commit(); err != nil {
		return &backend.CommitError{Path: db.path, Err: err, From: from}
	}
	db.committedSpare(built)
	db.guard.Forget()
	db.shapes.committedWrite()
	return nil
}

// commit commits the transaction (see DB.commit). A write transaction
// that issued no Timestamp advances the file's clock first: every commit
// does, so the clock orders the file's states (see format.go).
func (t *gtx) commit(from int64) error {
	if !t.ticked {
		if _, err := t.nextTicks(0); err != nil {
			return err
		}
	}
	return t.o.db.commit(t.tx, from)
}
