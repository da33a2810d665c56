package store

import (
	"context"
	"os"
	"sync"
	"sync/atomic"
	"time"

	bolt "go.etcd.io/bbolt"

	"github.com/tstable/tstable/backend"
	"github.com/tstable/tstable/odata"
	"github.com/tstable/tstable/store/internal/boltfile"
	"github.com/tstable/tstable/store/internal/dictcopy"
	"github.com/tstable/tstable/store/internal/values"
)

// DefaultWait is how long Open waits for another process to release the
// file when Options.Wait is 0: longer than a long import holds it between
// two of its commits.
const DefaultWait = 5 * time.Second

// Options tunes Open.
type Options struct {
	// ReadOnly opens the file with a shared lock, so that any number of
	// readers can use it at once. The file must exist.
	ReadOnly bool
	// Wait is how long Open waits for another process to release the file
	// before it gives up with DatabaseLocked: 0 means DefaultWait, a
	// negative value not to wait at all. Load waits as long between its
	// chunks when it has stepped aside for another process.
	Wait time.Duration
	// OnWait, when set, is called once each time Open (or Load, taking
	// the file back) starts waiting, with who holds the file: "tstable
	// import People big.jsonl (pid 4711)", or "another process" when the
	// system does not say.
	OnWait func(holder string)
	// Later, for writing, is for a caller that reads a long source before
	// it writes (Load): when another process holds the file, OpenContext
	// returns at once without it, and the DB takes the file (waiting as
	// Wait says, and vetting it as OpenContext does) when it is first
	// used. That process may be the one writing the source (tstable
	// export T | tstable import U - on one file), which waits for the
	// source to be read on.
	Later bool

	// For tests: failCommit, when set, is called before each commit, and
	// an error from it fails the commit as a full disk would; loadChunk
	// and loadEvery replace the size and duration of Load's chunks, and
	// loadRun the bytes of a sorted run Load keeps in memory before it
	// spills it to its temporary file.
	failCommit func() error
	loadChunk  int
	loadEvery  time.Duration
	loadRun    int
	noStaging  bool // Load never stages (see package bulk, staging.go)
	// format, when set, is the format a new file is written in (a file of
	// an older format, for the tests of those).
	format uint64
	// copyUnbound adds shapes to a dictionary of a file of format 3 past
	// what the copy in the header holds (see gtx.spareHolds), as files
	// written before that bound have them, for the tests of Check and
	// Recover on such files.
	copyUnbound bool
	// finding, when set, is asked at each step of a call where damage can
	// be met (a table opened, "table"; a key scanned, "scan"), and an error
	// from it is met there as damage (a false finding, for the tests of
	// confirmation).
	finding func(step string) error
}

// wait returns the wait to use.
func (o *Options) wait() time.Duration {
	if o.Wait == 0 {
		return DefaultWait
	}
	return o.Wait
}

// DB is the local backend: one bbolt file holding many tables.
//
// Every method guards its use of the file: a page that cannot be read (a
// file cut short) or does not hold what the engine expects (damage in the
// middle) ends the call with a DatabaseDamaged error instead of a crash,
// once reading the file again has confirmed it; from then on the DB
// refuses every write and this process opens the file for writing no
// more, while reads go on (see the package doc, Damage).
type DB struct {
	path string
	opts Options

	mu       sync.RWMutex // calls hold it shared; Load's hand-over and Close alone
	bolt     *bolt.DB
	file     *os.File // the locked file the engine uses
	guard    *boltfile.Guard
	pageSize int64 // the file's page size

	damaged   atomic.Pointer[damageError] // the damage confirmed in the file, once confirmed
	commits   committer                   // writers sharing a commit
	layoutNow atomic.Uint64               // the file's format, a layout (set by open; read by fileLayout)
	shapes    shapeCache                  // the tables' shapes read so far (format 2)
	spare     spareCopy                   // the copy in the header (format 3; spare.go)

	mapAtLeast int // bytes of the file the engine maps from the start (see reserveMap)

	// released is set while a load reads its source with the file let go
	// (see release): the next call takes it back first, waiting as Open
	// does, under releasedCtx. Both are guarded by mu.
	released    bool
	releasedCtx context.Context
	// unready: opened Later, the file not yet vetted (see readyLater).
	unready atomic.Bool
	// loaded: a Load ran, so the file may end in pages the engine grew it
	// by and did not use (see trimTail).
	loaded atomic.Bool
	// headerNote: the file opened at the commit before its newest, whose
	// header is damaged (see HeaderNote).
	headerNote atomic.Pointer[string]
}

var _ backend.Backend = (*DB)(nil)

// KeyOrder is the order of the file's tables' keys, and of the string
// comparisons of its filters: UTF-16 code units, as the service's; code
// points in a file of format 1 (see odata.Order).
func (db *DB) KeyOrder() odata.Order {
	return db.fileLayout().Order()
}

var _ backend.KeyOrderer = (*DB)(nil)

// Format is the file's format (see format.go): FormatVersion for a file
// this tstable wrote, an older one for a file it reads and writes as it
// was written until Compact rewrites it.
func (db *DB) Format() uint64 {
	return uint64(db.fileLayout())
}

// fileLayout is the layout of the file's format. It changes only when
// the file is opened again (a load takes it back after letting it go, and
// another process may have upgraded it meanwhile), so a caller that reads
// it outside a transaction checks it again inside (sameOrder).
func (db *DB) fileLayout() values.Layout { return values.Layout(db.layoutNow.Load()) }

// Describe names the backend: "local PATH".
func (db *DB) Describe() string { return "local " + db.path }

// Path returns the database file's path.
func (db *DB) Path() string { return db.path }

// newFormat is the format a new file is written in.
func (db *DB) newFormat() uint64 {
	if db.opts.format != 0 {
		return db.opts.format
	}
	return values.FormatVersion
}

// spareCopy is what a DB writing a file of format 3 keeps of its copy.
type spareCopy struct {
	mu    sync.Mutex
	stale bool           // a transaction changed what it holds: build it again
	built *dictcopy.Copy // the last one built; nil: none yet
}

// reset forgets the copy: the file was opened again, and another process
// may have changed it meanwhile.
func (s *spareCopy) reset() {
	s.mu.Lock()
	s.built, s.stale = nil, true
	s.mu.Unlock()
}
