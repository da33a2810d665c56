package store

import (
	"encoding/binary"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"time"

	bolt "go.etcd.io/bbolt"
	berrors "go.etcd.io/bbolt/errors"

	"github.com/tstable/tstable/odata"
)

// Options tunes Open.
type Options struct {
	// ReadOnly opens the file with a shared lock, so that any number of
	// readers can use it at once. The file must exist.
	ReadOnly bool
	// LockTimeout is how long Open waits for another process to release the
	// file before it gives up with DatabaseLocked (default 500 ms).
	LockTimeout time.Duration
}

// DB is the local backend: one bbolt file holding many tables.
type DB struct {
	bolt    *bolt.DB
	path    string
	commits committer
}

var _ Backend = (*DB)(nil)

// Bucket layout: metaBucket holds the table catalogue (lower-cased name →
// name as created) under catalogueKey and the last Timestamp issued under
// clockKey; each table's entities live in their own top-level bucket named
// tablePrefix + lower-cased name, keyed by PartitionKey 0x00 RowKey.
var (
	metaBucket   = []byte("meta")
	catalogueKey = []byte("tables")
	clockKey     = []byte("clock")
	tablePrefix  = "t:"
)

// Open opens (creating when needed, unless read-only) the database at path.
// When another process holds the file, Open fails after the lock timeout
// with a DatabaseLocked error instead of waiting forever.
func Open(path string, opts *Options) (*DB, error) {
	if opts == nil {
		opts = &Options{}
	}
	timeout := opts.LockTimeout
	if timeout <= 0 {
		timeout = 500 * time.Millisecond
	}
	if opts.ReadOnly {
		if _, err := os.Stat(path); err != nil {
			return nil, odata.Errorf(odata.CodeResourceNotFound, "database %s does not exist; create a table first (tstable table create NAME)", path)
		}
	} else if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
		return nil, fmt.Errorf("cannot create the folder for database %s: %w", path, err)
	}
	b, err := bolt.Open(path, 0o644, &bolt.Options{Timeout: timeout, ReadOnly: opts.ReadOnly})
	if err != nil {
		if errors.Is(err, berrors.ErrTimeout) {
			return nil, odata.Errorf(odata.CodeDatabaseLocked, "database %s is in use by another tstable process; close it and retry", path)
		}
		return nil, fmt.Errorf("cannot open database %s: %w", path, err)
	}
	db := &DB{bolt: b, path: path}
	if !opts.ReadOnly {
		if err := b.Update(func(tx *bolt.Tx) error {
			m, err := tx.CreateBucketIfNotExists(metaBucket)
			if err != nil {
				return err
			}
			_, err = m.CreateBucketIfNotExists(catalogueKey)
			return err
		}); err != nil {
			b.Close()
			return nil, fmt.Errorf("cannot initialise database %s: %w", path, err)
		}
	}
	return db, nil
}

// Describe names the backend: "local PATH".
func (db *DB) Describe() string { return "local " + db.path }

// Path returns the database file's path.
func (db *DB) Path() string { return db.path }

// Close releases the file and its lock.
func (db *DB) Close() error { return db.bolt.Close() }

// nextTicks issues the Timestamp for a write transaction: the current time
// in ticks, but always later than the last one issued in this file, so every
// write changes an entity's ETag even within one 100 ns tick.
func nextTicks(tx *bolt.Tx) (int64, error) {
	m := tx.Bucket(metaBucket)
	if m == nil {
		return 0, errors.New("database has no metadata bucket")
	}
	now := odata.TicksOf(time.Now())
	if last := m.Get(clockKey); len(last) == 8 {
		if l := int64(binary.BigEndian.Uint64(last)); now <= l {
			now = l + 1
		}
	}
	var buf [8]byte
	binary.BigEndian.PutUint64(buf[:], uint64(now))
	return now, m.Put(clockKey, buf[:])
}
