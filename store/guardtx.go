package store

import (
	bolt "go.etcd.io/bbolt"

	"github.com/tstable/tstable/store/internal/boltfile"
)

// snapshot is tx's state of the file, as boltfile reads it.
func (db *DB) snapshot(tx *bolt.Tx) boltfile.Snapshot {
	return boltfile.Snapshot{
		TxID:     uint64(tx.ID()),
		Writable: tx.Writable(),
		Size:     tx.Size(),
		PageSize: db.pageSize,
		Root:     uint64(tx.Cursor().Bucket().RootPage()),
	}
}

// checker is the guard's checker of tx's snapshot.
func (o *op) checker(tx *bolt.Tx) *boltfile.Checker {
	return o.db.guard.Checker(o.db.snapshot(tx), false)
}

// guardKeys checks the way to keys lo to hi in bucket b (see
// boltfile.Checker.Check).
func (o *op) guardKeys(tx *bolt.Tx, b *bolt.Bucket, lo, hi []byte, next bool) error {
	root := uint64(b.RootPage())
	if root == 0 {
		return nil // an inline bucket: one leaf inside its parent
	}
	_, _, err := o.checker(tx).Check(root, lo, hi, next)
	return err
}

// guardAll checks the whole tree of bucket b.
func (o *op) guardAll(tx *bolt.Tx, b *bolt.Bucket) error { return o.guardKeys(tx, b, nil, nil, false) }

// guardRoot checks the way to name among the top-level buckets.
func (o *op) guardRoot(tx *bolt.Tx, name []byte) error {
	return o.guardKeys(tx, tx.Cursor().Bucket(), name, name, false)
}
