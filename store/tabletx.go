package store

import (
	"encoding/binary"
	"time"

	"github.com/tstable/tstable/odata"
	"github.com/tstable/tstable/store/internal/values"
)

// A table in a transaction: its bucket, carrying the codec its entities
// are read and written with and its dictionary of shapes, read from the
// transaction (values.ShapeSource); the tables' dictionaries made, given
// to a new table's bucket and dropped with it; the file's clock.

// createDictionaries makes the bucket of the tables' dictionaries, with
// an empty bucket inside it (values.ShapesPin) so that the engine never stores
// it inside the page of the list of tables (it stores a small bucket
// without buckets of its own there): the dictionaries stay on pages of
// their own, written only when a shape is added, where Recover finds
// them even when the list of tables, the file's most written page, is
// lost.
func createDictionaries(t *gtx) (*gbucket, error) {
	d, err := t.createTop(values.ShapesBucket)
	if err != nil {
		return nil, err
	}
	_, err = d.createBucket(values.ShapesPin)
	return d, err
}

// newIncarnation gives a table's bucket, just made in t, its incarnation:
// a Timestamp issued by t (see nextTicks), so that it is unique in the
// file, as the file's clock only goes forward, and no dictionary of the
// file has it.
func newIncarnation(t *gtx, b *gbucket) error {
	top, err := t.top(values.ShapesBucket)
	if err != nil {
		return err
	}
	for {
		inc, err := t.nextTicks(0)
		if err != nil {
			return err
		}
		if top != nil {
			if first, err := top.get(values.ShapeKey(uint64(inc), 1)); err != nil || first != nil {
				if err != nil {
					return err
				}
				continue
			}
		}
		t.touchSpare()
		return b.setSequence(uint64(inc))
	}
}

// dropDictionary deletes the dictionary of the table whose bucket is b
// (being deleted, or replaced), when it has one.
func dropDictionary(t *gtx, b *gbucket) error {
	t.touchSpare()
	inc := b.sequence()
	if inc == 0 {
		return nil
	}
	top, err := t.top(values.ShapesBucket)
	if err != nil || top == nil {
		return err
	}
	return top.delPrefix(values.IncarnationKey(inc))
}

// newTxShapeView is the dictionary of the table whose incarnation is
// inc, in t: what the DB knows of it, and (for a write transaction) what the
// running one added, read on from t.
func newTxShapeView(t *gtx, inc uint64) *values.ShapeView {
	s := t.o.db.shapes.known(inc)
	if t.writable() {
		s = t.o.db.shapes.withPending(inc, s)
	}
	return values.NewShapeView(txShapes{t}, inc, s)
}

// txShapes is the bucket of the tables' dictionaries in one transaction,
// and the DB's cache of them, as a shape view reads and writes them.
type txShapes struct{ t *gtx }

// ScanDefs implements values.ShapeSource.
func (s txShapes) ScanDefs(after []byte, fn func(k, def []byte) bool) error {
	d, err := s.t.top(values.ShapesBucket)
	if err != nil || d == nil {
		return err
	}
	return d.scan(after, fn)
}

// DefAt implements values.ShapeSource.
func (s txShapes) DefAt(key []byte) ([]byte, error) {
	d, err := s.t.top(values.ShapesBucket)
	if err != nil || d == nil {
		return nil, err
	}
	return d.get(key)
}

// PutDef implements values.ShapeSource.
func (s txShapes) PutDef(key, def []byte) error {
	d, err := s.t.top(values.ShapesBucket)
	if err != nil {
		return err
	}
	if d == nil {
		if d, err = createDictionaries(s.t); err != nil {
			return err
		}
	}
	return d.put(key, def)
}

// Admits implements values.ShapeSource: in a file of format 3, while the
// copy in the header holds every shape with it (see gtx.spareHolds).
func (s txShapes) Admits(inc, id uint64, def []byte) (bool, error) {
	return s.t.spareHolds(inc, id, def)
}

// Learn implements values.ShapeSource: what is committed goes to the DB's cache.
func (s txShapes) Learn(inc uint64, set *values.ShapeSet) {
	s.t.o.db.shapes.learnRead(inc, set, s.t.writable())
}

// Added implements values.ShapeSource: the DB's cache takes the shape once the
// transaction commits, and the header's copy is written again.
func (s txShapes) Added(inc, id uint64, sh *values.Shape) {
	s.t.o.db.shapes.added(inc, id, sh)
	s.t.touchSpare()
}

// deleteTable deletes the top-level bucket of a table's entities and the
// table's dictionary.
func (t *gtx) deleteTable(name []byte) error {
	b, err := t.top(name)
	if err != nil || b == nil {
		return err
	}
	if err := dropDictionary(t, b); err != nil {
		return err
	}
	return t.deleteTop(name)
}

// table returns the table's bucket, or TableNotFound.
func (t *gtx) table(name string) (*gbucket, error) {
	t.o.lastTable = name
	if err := t.o.db.opts.finding; err != nil {
		if err := err("table"); err != nil {
			return nil, err
		}
	}
	b, err := t.top(values.TableBucket(name))
	if err == nil && b == nil {
		err = odata.Errorf(odata.CodeTableNotFound, "table %q does not exist (tstable table list shows the tables)", name)
	}
	if b != nil {
		t.holdsEntities(b)
	}
	return b, err
}

// holdsEntities makes b, a bucket of a table's entities (a table's, or a
// staged one), read and write them in the file's format.
func (t *gtx) holdsEntities(b *gbucket) {
	b.codec = &values.Codec{L: t.o.db.fileLayout()}
	if b.codec.Values2() {
		b.codec.Shapes = newTxShapeView(t, b.sequence())
	}
}

// nextTicks issues the Timestamp for a write transaction: the current time
// in ticks, but always later than the last one issued in this file, so every
// write changes an entity's ETag even within one 100 ns tick. atLeast, when
// later than that, is issued instead (Recover keeps entities' Timestamps).
func (t *gtx) nextTicks(atLeast int64) (int64, error) {
	last, err := t.clock()
	if err != nil {
		return 0, err
	}
	now := max(odata.TicksOf(time.Now()), atLeast, last+1)
	m, err := t.meta()
	if err != nil {
		return 0, err
	}
	var buf [8]byte
	binary.BigEndian.PutUint64(buf[:], uint64(now))
	t.ticked = true
	return now, m.put(values.ClockKey, buf[:])
}

// clock is the file's clock: the last tick a commit took (0 in a file that
// has none yet).
func (t *gtx) clock() (int64, error) {
	m, err := t.meta()
	if err != nil {
		return 0, err
	}
	v, err := m.get(values.ClockKey)
	if err != nil || len(v) != 8 {
		return 0, err
	}
	return int64(binary.BigEndian.Uint64(v)), nil
}
