package store

import (
	"bytes"

	bolt "go.etcd.io/bbolt"

	"github.com/tstable/tstable/store/internal/boltfile"
	"github.com/tstable/tstable/store/internal/values"
)

// gtx is a transaction as the DB's methods use it. Every bucket it hands
// out is a *gbucket, which has the guard check the pages on the way to
// each key it reads or writes (boltfile.Checker) before the engine
// follows them, so no caller has to remember to; damage is an error
// marked with ErrDamaged. The engine's transaction and buckets are used
// here and in the few places that hand them on to the engine whole
// (commit, compact), nowhere else.
type gtx struct {
	o  *op
	tx *bolt.Tx
	ck *boltfile.Checker // the guard's, of tx's snapshot

	ticked bool // the transaction has issued a Timestamp
}

// wrap makes tx a guarded transaction of o's call.
func (o *op) wrap(tx *bolt.Tx) *gtx {
	return &gtx{o: o, tx: tx, ck: o.db.guard.Checker(o.db.snapshot(tx, false), o.fresh)}
}

// snapshot is tx's state of the file, as boltfile reads it. With root,
// it has its root page too (which costs a cursor; the guard's checks of
// keys do not need it, the walks of whole snapshots do).
func (db *DB) snapshot(tx *bolt.Tx, root bool) boltfile.Snapshot {
	s := boltfile.Snapshot{TxID: uint64(tx.ID()), Writable: tx.Writable(), Size: tx.Size(), PageSize: db.pageSize}
	if root {
		s.Root = uint64(tx.Cursor().Bucket().RootPage())
	}
	return s
}

// rollback ends the transaction without its changes; after a commit it
// does nothing.
func (t *gtx) rollback() { t.tx.Rollback() }

// bucket is b, guarded.
func (t *gtx) bucket(b *bolt.Bucket) *gbucket {
	return &gbucket{t: t, b: b, root: uint64(b.RootPage())}
}

// rootTree is the top-level tree (the buckets of the tables, the file's
// own records, staging), guarded.
func (t *gtx) rootTree() *gbucket { return t.bucket(t.tx.Cursor().Bucket()) }

// top returns the top-level bucket name, or nil when there is none.
func (t *gtx) top(name []byte) (*gbucket, error) {
	return t.rootTree().bucket(name)
}

// createTop creates the top-level bucket name (it fails when it exists).
func (t *gtx) createTop(name []byte) (*gbucket, error) {
	return t.rootTree().createBucket(name)
}

// deleteTop deletes the top-level bucket name and its tree, which it has
// the guard check first: deleting a bucket frees every page of its tree.
func (t *gtx) deleteTop(name []byte) error {
	b, err := t.top(name)
	if err != nil || b == nil {
		return err
	}
	if err := b.guardAll(); err != nil {
		return err
	}
	return t.tx.DeleteBucket(name)
}

// moveTop moves the bucket key of parent to the top level.
func (t *gtx) moveTop(key []byte, parent *gbucket) error {
	if err := parent.guardKey(key); err != nil {
		return err
	}
	t.touchSpare()
	return t.tx.MoveBucket(key, parent.b, nil)
}

// topBuckets lists the top-level buckets whose names start with prefix.
func (t *gtx) topBuckets(prefix []byte) ([][]byte, error) {
	root := t.rootTree()
	if err := root.guardAll(); err != nil {
		return nil, err
	}
	var out [][]byte
	c := root.b.Cursor()
	for k, v := c.Seek(prefix); k != nil && bytes.HasPrefix(k, prefix); k, v = c.Next() {
		if v == nil {
			out = append(out, bytes.Clone(k))
		}
	}
	return out, nil
}

// layout is the layout of the file's keys.
func (t *gtx) layout() values.Layout { return t.o.db.fileLayout() }

// meta returns the bucket of the file's own records (catalogue, clock),
// its whole tree checked.
func (t *gtx) meta() (*gbucket, error) {
	m, err := t.top(values.MetaBucket)
	if err != nil {
		return nil, err
	}
	if m == nil {
		return nil, t.noCatalogue()
	}
	return m, m.guardAll()
}

// catalogue returns the table catalogue: lower-cased name → name as
// created, its whole tree checked.
func (t *gtx) catalogue() (*gbucket, error) {
	m, err := t.meta()
	if err != nil {
		return nil, err
	}
	c, err := m.bucket(values.CatalogueKey)
	if err != nil {
		return nil, err
	}
	if c == nil {
		return nil, t.noCatalogue()
	}
	return c, c.guardAll()
}

func (t *gtx) noCatalogue() error {
	p := t.o.db.path
	return damagef("database %s has no table catalogue: it was not written by tstable, or it is damaged (tstable check %s tells which)", p, p)
}

// gbucket is a bucket of a gtx: every key it reads or writes has the way
// down to it checked first. It remembers the stretch of keys that take the
// way it checked last, so that keys in order (a load, a scan) pay for
// each way once.
type gbucket struct {
	t     *gtx
	b     *bolt.Bucket
	root  uint64        // 0: an inline bucket, one leaf inside its parent
	codec *values.Codec // a table's: how its entities are stored; nil for others

	from, to []byte // keys whose way down is checked (to nil: no end)
	checked  bool
}

// guard checks the way to keys lo to hi (see boltfile.Checker.Check).
func (b *gbucket) guard(lo, hi []byte, next bool) error {
	if b.root == 0 {
		return nil
	}
	_, _, err := b.t.ck.Check(b.root, lo, hi, next)
	return err
}

// guardAll checks the whole tree.
func (b *gbucket) guardAll() error { return b.guard(nil, nil, false) }

// guardKey checks the way to key, unless it lies in the stretch checked
// last.
func (b *gbucket) guardKey(key []byte) error {
	if b.root == 0 || (b.checked && bytes.Compare(key, b.from) >= 0 && (b.to == nil || bytes.Compare(key, b.to) < 0)) {
		return nil
	}
	from, to, err := b.t.ck.Check(b.root, key, key, false)
	if err != nil {
		return err
	}
	b.from, b.to, b.checked = from, to, true
	return nil
}

// get returns the value at key, nil when there is none (or a bucket).
func (b *gbucket) get(key []byte) ([]byte, error) {
	if err := b.guardKey(key); err != nil {
		return nil, err
	}
	return b.b.Get(key), nil
}

// noneIn reports whether the bucket holds no key from lo to hi (both
// included), the way to them checked first, with the page after hi, where
// the cursor steps when lo lies past a page's last key.
func (b *gbucket) noneIn(lo, hi []byte) (bool, error) {
	if err := b.guard(lo, hi, true); err != nil {
		return false, err
	}
	k, _ := b.b.Cursor().Seek(lo)
	return k == nil || bytes.Compare(k, hi) > 0, nil
}

// put stores v at key.
func (b *gbucket) put(key, v []byte) error {
	if err := b.guardKey(key); err != nil {
		return err
	}
	return b.b.Put(key, v)
}

// del deletes key.
func (b *gbucket) del(key []byte) error {
	if err := b.guardKey(key); err != nil {
		return err
	}
	return b.b.Delete(key)
}

// first and last return the bucket's first and last keys (nil when it is
// empty).
func (b *gbucket) first() ([]byte, error) {
	if err := b.guard(beforeAll, beforeAll, false); err != nil {
		return nil, err
	}
	k, _ := b.b.Cursor().First()
	return k, nil
}

func (b *gbucket) last() ([]byte, error) {
	if err := b.guard(afterAll, afterAll, false); err != nil {
		return nil, err
	}
	k, _ := b.b.Cursor().Last()
	return k, nil
}

// beforeAll and afterAll are stored keys before and after every key a
// table can hold: keys are not empty, and 0xFF never occurs in UTF-8.
var (
	beforeAll = []byte{}
	afterAll  = []byte{0xFF}
)

// bucket returns the nested bucket name, or nil when there is none.
func (b *gbucket) bucket(name []byte) (*gbucket, error) {
	if err := b.guardKey(name); err != nil {
		return nil, err
	}
	n := b.b.Bucket(name)
	if n == nil {
		return nil, nil
	}
	return b.t.bucket(n), nil
}

// createBucket creates the nested bucket name (it fails when it exists).
func (b *gbucket) createBucket(name []byte) (*gbucket, error) {
	if err := b.guardKey(name); err != nil {
		return nil, err
	}
	n, err := b.b.CreateBucket(name)
	if err != nil {
		return nil, err
	}
	return b.t.bucket(n), nil
}

// sequence and setSequence read and set the bucket's sequence (see
// bolt.Bucket.Sequence): a table's incarnation, a dictionary's count.
func (b *gbucket) sequence() uint64           { return b.b.Sequence() }
func (b *gbucket) setSequence(v uint64) error { return b.b.SetSequence(v) }

// writable reports whether t is a write transaction.
func (t *gtx) writable() bool { return t.tx.Writable() }

// delPrefix deletes every key that starts with prefix, the whole tree
// checked first.
func (b *gbucket) delPrefix(prefix []byte) error {
	if err := b.guardAll(); err != nil {
		return err
	}
	c := b.b.Cursor()
	for k, _ := c.Seek(prefix); k != nil && bytes.HasPrefix(k, prefix); k, _ = c.Seek(prefix) {
		if err := c.Delete(); err != nil {
			return err
		}
	}
	return nil
}

// buckets lists the names of the nested buckets, the whole tree checked
// first.
func (b *gbucket) buckets() ([][]byte, error) {
	if err := b.guardAll(); err != nil {
		return nil, err
	}
	var out [][]byte
	c := b.b.Cursor()
	for k, v := c.First(); k != nil; k, v = c.Next() {
		if v == nil {
			out = append(out, bytes.Clone(k))
		}
	}
	return out, nil
}

// fillPages has the engine fill the pages it splits to fraction f (see
// bolt.Bucket.FillPercent), for keys written in order.
func (b *gbucket) fillPages(f float64) { b.b.FillPercent = f }

// forEach calls fn with each key and value, in order (see
// bolt.Bucket.ForEach), the whole tree checked first.
func (b *gbucket) forEach(fn func(k, v []byte) error) error {
	if err := b.guardAll(); err != nil {
		return err
	}
	return b.b.ForEach(fn)
}

// scan calls fn with each key and value from the first key after from
// (nil: from the start), in order, until fn returns false.
func (b *gbucket) scan(after []byte, fn func(k, v []byte) bool) error {
	if err := b.guard(after, nil, true); err != nil {
		return err
	}
	c := b.b.Cursor()
	k, v := c.First()
	if after != nil {
		if k, v = c.Seek(after); bytes.Equal(k, after) {
			k, v = c.Next()
		}
	}
	for ; k != nil && fn(k, v); k, v = c.Next() {
	}
	return nil
}

// view runs fn in a read transaction.
func (o *op) view(fn func(t *gtx) error) error {
	return o.db.bolt.View(func(tx *bolt.Tx) error { return fn(o.wrap(tx)) })
}

// begin begins a transaction; the caller ends it (rollback, commit).
func (o *op) begin(writable bool) (*gtx, error) {
	tx, err := o.db.bolt.Begin(writable)
	if err != nil {
		return nil, o.db.engineError(err)
	}
	if writable {
		o.db.shapes.beginWrite()
	}
	return o.wrap(tx), nil
}

// touchSpare marks the copy in the header as changed by the running
// write transaction.
func (t *gtx) touchSpare() {
	s := &t.o.db.spare
	s.mu.Lock()
	s.stale = true
	s.mu.Unlock()
}
