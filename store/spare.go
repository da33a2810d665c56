package store

import (
	"cmp"
	"io"
	"slices"

	"github.com/tstable/tstable/store/internal/boltfile"
	"github.com/tstable/tstable/store/internal/dictcopy"
	"github.com/tstable/tstable/store/internal/values"
)

// The copy in the header. A file of format 3 keeps, besides the bucket
// of the tables' dictionaries (values/shapes.go), a copy of its tables (their
// names and incarnations) and of their dictionaries in the spare bytes
// of a page of its header (boltfile.SpareOffset; the encoding is
// dictcopy's). The pages of the header are the file's first two, which
// survive wherever the file is cut, and the bucket's pages are others:
// so whatever single page is lost, and wherever the file is cut, some
// copy of every dictionary survives, and every entity on a page that
// survives can be read with its properties' names (Recover reads both).
//
// The engine writes a page of its header whole at each commit, the
// copy it is not using (page txid%2), zeros past its meta; the copy is
// written before each commit into the other page, the one the running
// transaction will not write, which holds the meta in use until the
// commit ends: after each commit, the page of the older meta holds the
// copy of the state the newer one describes. The write goes to the
// file before the engine's own sync of the transaction's pages, which
// makes it durable with them. A commit that fails leaves in the copy what
// it would have added (shapes no entity in the file names, until the
// next commit writes the copy again).
//
// The copy is built again only in a transaction that changes it (a
// shape added, a table created, deleted or put in place); otherwise the
// last one is written again, with the transaction's id. A copy holds
// what fits in its page: the tables, then the shapes in order of their
// number (every table's first shapes first); a file whose dictionaries
// do not fit has the rest in the bucket alone, and Check says so.

// writesSpare reports whether the DB keeps a copy in the header.
func (db *DB) writesSpare() bool {
	return !db.opts.ReadOnly && db.fileLayout() >= 3
}

// spareKeep is the room of the copy that shapes leave to the tables yet
// to be created.
const spareKeep = 512

// spareHolds reports whether the copy of the state t, a write
// transaction, would still hold every shape with shape id added to the
// dictionary of table inc as def, leaving spareKeep bytes for tables to
// come, and with the table's shapes in no more than half the copy's room,
// so that one table of many shapes leaves room to the others. A file of
// format 3 adds a shape to a dictionary only then: past that, an entity
// of a new shape holds its properties' names itself (shape 0), so that
// every entity on a page that survives can still be read without the
// pages of the dictionaries. A file of an older format has no copy: there
// it always holds.
func (t *gtx) spareHolds(inc, id uint64, def []byte) (bool, error) {
	db := t.o.db
	if db.fileLayout() < 3 || db.opts.copyUnbound {
		return true, nil
	}
	c, err := buildSpare(t, uint64(db.fileLayout()))
	if err != nil {
		return false, err
	}
	c.Shapes = append(c.Shapes, dictcopy.Shape{Inc: inc, ID: id, Def: string(def)})
	room := int(db.pageSize - boltfile.SpareOffset)
	own := dictcopy.Copy{Format: c.Format}
	for _, s := range c.Shapes {
		if s.Inc == inc {
			own.Shapes = append(own.Shapes, s)
		}
	}
	return dictcopy.Fits(*c, room-spareKeep) && dictcopy.Fits(own, room/2), nil
}

// writeSpare writes the copy of the state t, a write transaction, will
// commit into the page of the header that t will not write. It reports
// whether it built the copy anew (the caller marks it fresh once t
// commits).
func (db *DB) writeSpare(t *gtx) (built bool, err error) {
	if !db.writesSpare() {
		return false, nil
	}
	s := &db.spare
	s.mu.Lock()
	defer s.mu.Unlock()
	c := s.built
	if c == nil || s.stale {
		if c, err = buildSpare(t, uint64(db.fileLayout())); err != nil {
			return false, err
		}
		s.built, built = c, true
	}
	return built, db.putSpare(*c, t.ck.Snapshot().TxID)
}

// committedSpare marks the copy built for the transaction that just
// committed as fresh.
func (db *DB) committedSpare(built bool) {
	if !built {
		return
	}
	db.spare.mu.Lock()
	db.spare.stale = false
	db.spare.mu.Unlock()
}

// putSpare writes c, for transaction txid, into the page of the header
// that the commit of txid does not write.
func (db *DB) putSpare(c dictcopy.Copy, txid uint64) error {
	return putSpare(db.file, db.pageSize, c, txid)
}

// putSpare writes c, for transaction txid, into the page of the header
// of f that the commit of txid does not write.
func putSpare(f io.WriterAt, pageSize int64, c dictcopy.Copy, txid uint64) error {
	c.TxID = txid
	room := int(pageSize - boltfile.SpareOffset)
	b := dictcopy.Append(make([]byte, 0, room), c, room)
	page := int64((txid + 1) % 2)
	_, err := f.WriteAt(b, page*pageSize+boltfile.SpareOffset)
	return err
}

// writeSpareNow writes the copy of the file as it is when it is opened
// for writing and neither page of its header holds one (the engine's
// compaction wrote it): the next commit would write one, but the file
// would be without it until then. A file that holds one is not written.
func (db *DB) writeSpareNow() error {
	if !db.writesSpare() {
		return nil
	}
	for i := range 2 {
		if _, err := dictcopy.Parse(boltfile.Spare(db.file, db.pageSize*2, db.pageSize, i)); err == nil {
			return nil
		}
	}
	return db.do(false, func(o *op) error {
		return o.view(func(t *gtx) error {
			c, err := buildSpare(t, uint64(db.fileLayout()))
			if err != nil {
				return err
			}
			db.spare.mu.Lock()
			defer db.spare.mu.Unlock()
			db.spare.built, db.spare.stale = c, false
			return db.putSpare(*c, t.ck.Snapshot().TxID+1)
		})
	})
}

// buildSpare reads the copy of the state t sees: the catalogue's tables
// with their incarnations, and every shape of the bucket of dictionaries.
func buildSpare(t *gtx, format uint64) (*dictcopy.Copy, error) {
	c := &dictcopy.Copy{Format: format, Complete: true}
	cat, err := t.catalogue()
	if err != nil {
		return nil, err
	}
	if err := cat.forEach(func(lower, name []byte) error {
		b, err := t.top(append([]byte(values.TablePrefix), lower...))
		if err == nil && b != nil && name != nil {
			c.Tables = append(c.Tables, dictcopy.Table{Inc: b.sequence(), Name: string(name)})
		}
		return err
	}); err != nil {
		return nil, err
	}
	d, err := t.top(values.ShapesBucket)
	if err != nil {
		return nil, err
	}
	if d != nil {
		if err := d.forEach(func(k, v []byte) error {
			if len(k) == 12 && v != nil {
				inc, id := values.IncarnationOf(k)
				c.Shapes = append(c.Shapes, dictcopy.Shape{Inc: inc, ID: id, Def: string(v)})
			}
			return nil
		}); err != nil {
			return nil, err
		}
	}
	slices.SortFunc(c.Shapes, func(a, b dictcopy.Shape) int {
		return cmp.Or(cmp.Compare(a.ID, b.ID), cmp.Compare(a.Inc, b.Inc))
	})
	return c, nil
}
