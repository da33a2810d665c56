package store

import (
	"bytes"
	"errors"
	"fmt"
	"maps"
	"os"
	"slices"

	"github.com/tstable/tstable/odata"
	"github.com/tstable/tstable/store/internal/boltfile"
	"github.com/tstable/tstable/store/internal/repair"
	"github.com/tstable/tstable/store/internal/values"
)

// Confirming damage. What a call meets (a finding) is read again, under a
// read transaction of its own and trusting nothing the guard kept, before
// anyone hears of it (see DB.do): only damage found again marks the DB.

// finding is damage a call met, not yet confirmed.
type finding struct {
	what  string // for people
	page  uint64 // the page it names, 0 when none
	key   []byte // a stored value that does not decode: its key, in the call's table
	free  bool   // the page is in use but on the free-page list the write began from
	fault bool   // a fault reading the engine's map
}

// findingIn is the damage err reports, or nil. A DatabaseDamaged error
// already made (a confirmed one) is no finding.
func findingIn(err error) *finding {
	if err == nil || !errors.Is(err, ErrDamaged) {
		return nil
	}
	var de *damageError
	if errors.As(err, &de) {
		return nil
	}
	var pe *boltfile.PageError
	var bf *boltfile.Finding
	var ce *values.CorruptError
	switch {
	case errors.As(err, &pe):
		return &finding{what: pe.Error(), page: pe.ID, free: pe.Free}
	case errors.As(err, &bf):
		return &finding{what: bf.What, page: bf.Page, fault: bf.Fault}
	case errors.As(err, &ce):
		return &finding{what: ce.Error(), key: ce.Key}
	}
	return &finding{what: err.Error()}
}

// confirm reads the file again for f, under a read transaction of its own
// and trusting nothing the guard kept. When it finds the damage again, it
// records it (see found) and returns the DatabaseDamaged error; otherwise
// nil: the finding was a page changing under the call.
func (db *DB) confirm(o *op, f *finding) (err error) {
	defer func() {
		if r := recover(); r != nil { // the engine, reading again, panics again
			err = db.found(boltfile.PanicFinding(r).What)
		}
	}()
	what, ok := db.stillDamaged(o, f)
	if !ok {
		return nil
	}
	return db.found(what)
}

// stillDamaged looks for f's damage in a fresh snapshot: the page it
// names still reached and still not what it should be (or, for a write,
// still on the free-page list); the value it names still not decoding;
// the file still shorter than the snapshot after a fault; and, for damage
// that names nothing, any damage at all in the trees of the call's table,
// leaves included.
func (db *DB) stillDamaged(o *op, f *finding) (string, bool) {
	tx, err := db.bolt.Begin(false)
	if err != nil {
		return "", false
	}
	defer tx.Rollback()
	t := (&op{db: db, fresh: true}).wrap(tx)
	t.ck = db.guard.Checker(db.snapshot(tx, true), true)
	switch {
	case f.fault:
		st, err := db.file.Stat()
		return f.what, err == nil && st.Size() < tx.Size()
	case f.free:
		rc := t.ck.Reach(values.HoldsBuckets, f.page)
		return f.what, rc.Reached(f.page) && onFreeList(db.file, t.ck.Snapshot(), f.page)
	case f.page != 0:
		rc := t.ck.Reach(values.HoldsBuckets, f.page)
		bad, ok := rc.Bad[f.page]
		return fmt.Sprintf("page %d %s", f.page, bad), ok
	case f.key != nil && o.lastTable != "":
		return valueStillDamaged(t, o.lastTable, f.key)
	}
	whole := func(path [][]byte) bool {
		return values.HoldsBuckets(path) || (o.lastTable != "" && len(path) == 1 && bytes.Equal(path[0], values.TableBucket(o.lastTable)))
	}
	rc := t.ck.Reach(whole, 0)
	if len(rc.Bad) == 0 {
		return "", false
	}
	id := slices.Min(slices.Collect(maps.Keys(rc.Bad)))
	return fmt.Sprintf("page %d %s", id, rc.Bad[id]), true
}

// valueStillDamaged reads the stored value at key in table again, through
// the guard, and decodes it.
func valueStillDamaged(t *gtx, table string, key []byte) (string, bool) {
	b, err := t.table(table)
	if err != nil {
		f := findingIn(err)
		return repair.MessageOf(err), f != nil
	}
	v, err := b.get(key)
	if err != nil || v == nil {
		return repair.MessageOf(err), err != nil && findingIn(err) != nil
	}
	if _, err := b.codec.Decode(key, v); err != nil {
		return err.Error(), true
	}
	return "", false
}

// onFreeList reports whether the free-page list of snapshot s (the one its
// meta names) names page id.
func onFreeList(f *os.File, s boltfile.Snapshot, id uint64) bool {
	h := boltfile.ReadHeader(f, s.Size)
	if h.Use < 0 || h.Meta().TxID != s.TxID || h.Meta().Freelist == boltfile.NoFreelist {
		return false
	}
	ids, err := h.Reader(f).Freelist(h.Meta().Freelist)
	if err != nil {
		return false
	}
	_, found := slices.BinarySearch(ids, id)
	return found
}

// found records damage confirmed in the file: the DB refuses every later
// write, and this process opens the file for writing no more. It returns
// the DatabaseDamaged error that tells of it.
func (db *DB) found(what string) error {
	e := damagedError(db.path, what)
	if db.damaged.CompareAndSwap(nil, e) && db.file != nil {
		markDamaged(db.file, db.path, what)
	}
	return e
}

// transient is the error of a call that met a finding not found again: a
// page changed under it. Nothing is damaged; the call can be retried.
func (db *DB) transient(f *finding) error {
	return odata.Errorf(odata.CodeServerBusy, "reading database %s found that %s, but reading the file again found it sound: it changed under the call, which stopped; nothing is damaged, retry the call", db.path, f.what)
}
