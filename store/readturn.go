package store

import "time"

// A long read takes its turn as a long load does. A process that has
// opened the file for reading holds its shared lock for as long as a call
// reads, and a writer that comes meanwhile waits for it: an export of a
// large table, or a filter that scans every key, could make a writer wait
// past its Options.Wait and fail with DatabaseLocked. So a query that has
// held the file for readTurn, when another process waits for it, ends its
// read transaction at a key it has not read yet, lets the file go (as
// stepAside does for a load), takes it back, waiting as Open does, and
// goes on from that key in a new transaction, as the service goes on from
// a continuation. Every key is still read once and in order, and what the
// caller is delivered is what one call would deliver, with the writes
// committed while it stood aside visible from that key on, as they would
// be to the next page of a paged query.
//
// Only a DB opened for reading (ReadOnly) steps aside: a writer holds
// the file for its own process (serve, a load), which lets others in
// between its commits instead.

// readTurn is how long a read holds the file before it looks for a
// waiting process; lookEvery is how often it looks after that.
const (
	readTurn  = 250 * time.Millisecond
	lookEvery = 20 * time.Millisecond
)

// turn tells a scan when to step aside; nil never does.
type turn struct {
	db    *DB
	since time.Time // the read transaction's start
	look  time.Time // the next look for a waiting process
}

// readTurnOf is the turn of a read that begins now on db: nil when db
// does not step aside (opened for writing, or the system does not show
// who waits).
func (db *DB) readTurnOf() *turn {
	if !db.opts.ReadOnly || !waitersSeen {
		return nil
	}
	now := time.Now()
	return &turn{db: db, since: now, look: now.Add(readTurn)}
}

// over reports whether the read should step aside now: it has held the
// file for its turn and another process waits. The caller holds db.mu
// for reading (inside DB.do), so db.file stays open.
func (t *turn) over() bool {
	if t == nil {
		return false
	}
	now := time.Now()
	if now.Before(t.look) {
		return false
	}
	t.look = now.Add(lookEvery)
	return t.db.file != nil && othersWaiting(t.db.file)
}
