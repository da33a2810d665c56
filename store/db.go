package store

import (
	"context"
	"encoding/binary"
	"errors"
	"io/fs"
	"os"
	"path/filepath"
	"runtime/debug"
	"sync"
	"sync/atomic"
	"time"

	bolt "go.etcd.io/bbolt"
	berrors "go.etcd.io/bbolt/errors"

	"github.com/tstable/tstable/backend"
	"github.com/tstable/tstable/odata"
	"github.com/tstable/tstable/store/internal/boltfile"
	"github.com/tstable/tstable/store/internal/bulk"
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
	noStaging  bool // Load never stages (see staging.go)
	// format, when set, is the format a new file is written in (a file of
	// an older format, for the tests of those).
	format uint64
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
	// headerNote: the file opened at the commit before its newest, whose
	// header is damaged (see HeaderNote).
	headerNote atomic.Pointer[string]
}

var _ backend.Backend = (*DB)(nil)

// Open opens (creating when needed, unless read-only) the database at
// path; see OpenContext.
func Open(path string, opts *Options) (*DB, error) {
	return OpenContext(context.Background(), path, opts)
}

// OpenContext opens (creating when needed, unless read-only) the database
// at path. When another process holds the file, it waits up to
// Options.Wait (calling Options.OnWait when it starts) and then fails with
// DatabaseLocked, naming the holder; ctx ends the wait early.
//
// Before the engine trusts the file, OpenContext checks what is cheap to
// check (both copies of the header, the file's length against the pages
// it counts, the root page and, for writing, the free-page list) and
// refuses a file that fails with DatabaseDamaged. An empty file is not a
// database for reading; for writing it becomes a new one. A file found
// damaged earlier in this process is not opened for writing. Opened for
// writing, it removes what loads killed before they ended left behind:
// staging buckets (see staging.go), temporary files (see extsort.go)
// whose process is gone, and a killed compaction's copy (see compact.go).
func OpenContext(ctx context.Context, path string, opts *Options) (*DB, error) {
	db := &DB{path: path}
	if opts != nil {
		db.opts = *opts
	}
	if st, err := os.Stat(path); err == nil && st.IsDir() {
		return nil, odata.Errorf(odata.CodeInvalidInput, "database %s is a folder, not a file: name the database file (for example %s)", path, filepath.Join(path, "tstable.db"))
	}
	if db.opts.ReadOnly {
		if _, err := os.Stat(path); errors.Is(err, fs.ErrNotExist) {
			return nil, odata.Errorf(odata.CodeResourceNotFound, "database %s does not exist; create a table first (tstable table create NAME)", path)
		}
	} else if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
		return nil, backend.FileError(err, "cannot create the folder for database %s", path)
	}
	if db.opts.Later && !db.opts.ReadOnly {
		err := db.openWithin(ctx, 0)
		if odata.IsCode(err, odata.CodeDatabaseLocked) && db.readLater(ctx) {
			return db, nil
		}
		if odata.IsCode(err, odata.CodeDatabaseLocked) {
			err = db.open(ctx) // a writer holds it: wait for it as usual
		}
		if err != nil {
			return nil, err
		}
	} else if err := db.open(ctx); err != nil {
		return nil, err
	}
	if err := db.ready(); err != nil {
		return nil, err
	}
	return db, nil
}

// ready vets the file just opened as OpenContext does before it returns
// (its format; for writing, a new file made ready and what killed loads
// left removed), closing it when it fails.
func (db *DB) ready() error {
	if err := db.do(false, func(o *op) error { return o.view(checkFormat) }); err != nil {
		db.Close()
		return err
	}
	if !db.opts.ReadOnly {
		if err := db.makeReady(); err != nil {
			db.Close()
			return err
		}
		if err := db.removeLeftStaging(); err != nil {
			db.Close()
			return err
		}
		if err := db.writeSpareNow(); err != nil {
			db.Close()
			return err
		}
		bulk.RemoveLeftTemps(db.path, ProcessAlive)
		removeLeftCompact(db.path)
	}
	if testOpened != nil {
		testOpened(db.path)
	}
	return nil
}

// readLater leaves the file of a DB opened Later to be taken when it is
// first used, when the process that holds it only reads it: then the file
// is opened for reading, without waiting, to vet it and learn its format
// (a load's records are written in it). It reports false, having done
// nothing, when a writer holds the file.
func (db *DB) readLater(ctx context.Context) bool {
	probe, err := OpenContext(ctx, db.path, &Options{ReadOnly: true, Wait: -1})
	if err != nil {
		return false
	}
	db.layoutNow.Store(uint64(probe.fileLayout()))
	probe.Close()
	db.released, db.releasedCtx = true, ctx
	db.unready.Store(true)
	return true
}

// readyLater runs ready once the file of a DB opened Later is taken.
func (db *DB) readyLater() error {
	if !db.unready.CompareAndSwap(true, false) {
		return nil
	}
	return db.ready()
}

// testOpened, when set (by this package's tests only), hears of every
// database opened, so that the tests can make sure each is checked.
var testOpened func(path string)

// open takes the file (waiting for its lock as Options.Wait says), vets
// it and hands it to the engine.
func (db *DB) open(ctx context.Context) error { return db.openWithin(ctx, db.opts.wait()) }

// openWithin is open waiting up to wait for the lock (0: not at all).
func (db *DB) openWithin(ctx context.Context, wait time.Duration) error {
	flag := os.O_RDWR | os.O_CREATE
	if db.opts.ReadOnly {
		flag = os.O_RDONLY
	}
	f, err := os.OpenFile(db.path, flag, 0o644)
	if err != nil {
		if errors.Is(err, fs.ErrNotExist) && db.opts.ReadOnly {
			return odata.Errorf(odata.CodeResourceNotFound, "database %s does not exist; create a table first (tstable table create NAME)", db.path)
		}
		return backend.FileError(err, "cannot open database %s", db.path)
	}
	st, err := f.Stat()
	if err != nil {
		f.Close()
		return backend.FileError(err, "cannot read database %s", db.path)
	}
	if !db.opts.ReadOnly {
		if what := damagedEarlier(st, db.path); what != nil {
			f.Close()
			return what
		}
	}
	if err := lockFile(ctx, f, !db.opts.ReadOnly, wait, db.opts.OnWait); err != nil {
		if errors.Is(err, errBusy) {
			err = db.lockedError(holdersOf(f))
		} else if ctx.Err() == nil {
			err = backend.FileError(err, "cannot lock database %s", db.path)
		}
		f.Close()
		return err
	}
	if st, err = f.Stat(); err != nil { // its length now that it is ours
		closeLocked(f)
		return backend.FileError(err, "cannot read database %s", db.path)
	}
	_, elsewhere, err := vetFile(f, st.Size(), db.path, !db.opts.ReadOnly)
	if err != nil {
		closeLocked(f)
		return err
	}
	b, err := db.openEngine(f)
	if err != nil {
		return err
	}
	db.bolt, db.file = b, f
	db.guard, db.pageSize = boltfile.NewGuard(f), int64(b.Info().PageSize)
	b.AllocSize = allocStep
	db.layoutNow.Store(db.fileFormat())
	note := olderCommitNote(f, st.Size(), boltfile.ReadHeader(f, st.Size()), db.path, db.fileLayout() >= 3)
	db.headerNote.Store(&note)
	db.shapes.reset()
	db.spare.reset()
	if elsewhere != "" {
		db.found(elsewhere) // read afresh before the engine had the file: confirmed
	}
	return nil
}

// lockedError is DatabaseLocked, naming who holds the file.
func (db *DB) lockedError(hs []holder) error {
	if w := db.opts.wait(); w > 0 {
		return odata.Errorf(odata.CodeDatabaseLocked, "database %s is in use by %s; waited %s for it: retry when it is done, or wait longer with --wait (for example --wait 1m)", db.path, describeHolders(hs), w)
	}
	return odata.Errorf(odata.CodeDatabaseLocked, "database %s is in use by %s: retry when it is done, or let tstable wait for it with --wait (for example --wait 1m)", db.path, describeHolders(hs))
}

// openEngine hands the locked file to the engine, turning a fault or a
// panic while it reads the file into DatabaseDamaged. The engine closes
// the file when it fails.
func (db *DB) openEngine(f *os.File) (b *bolt.DB, err error) {
	prev := debug.SetPanicOnFault(true)
	defer func() {
		r := recover()
		debug.SetPanicOnFault(prev)
		if r != nil {
			closeLocked(f)
			b, err = nil, damagedError(db.path, boltfile.DescribePanic(r))
		}
	}()
	timeout := time.Second // the lock is ours already
	if engineLocksItself {
		if timeout = db.opts.wait(); timeout < 0 {
			timeout = time.Millisecond
		}
	}
	b, err = bolt.Open(db.path, 0o644, &bolt.Options{
		ReadOnly:        db.opts.ReadOnly,
		Timeout:         timeout,
		OpenFile:        func(string, int, os.FileMode) (*os.File, error) { return f, nil },
		InitialMmapSize: db.mapAtLeast,
	})
	switch {
	case err == nil:
		return b, nil
	case errors.Is(err, berrors.ErrTimeout):
		return nil, db.lockedError(nil)
	case errors.Is(err, berrors.ErrInvalid), errors.Is(err, berrors.ErrVersionMismatch), errors.Is(err, berrors.ErrChecksum):
		return nil, damagedError(db.path, "its header is unreadable")
	}
	return nil, backend.FileError(err, "cannot open database %s", db.path)
}

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

// Close releases the file and its lock. Closing a closed DB does nothing.
func (db *DB) Close() error {
	db.mu.Lock()
	defer db.mu.Unlock()
	db.released = false
	return db.closeEngine()
}

// release lets go of the file (and its lock) while a load waits for its
// source, so that other processes use the file meanwhile: the next call
// takes it back (see takeBack). A DB found damaged keeps what it has.
func (db *DB) release(ctx context.Context) error {
	db.mu.Lock()
	defer db.mu.Unlock()
	if db.bolt == nil || db.damaged.Load() != nil {
		return nil
	}
	if err := db.closeEngine(); err != nil {
		return err
	}
	db.released, db.releasedCtx = true, ctx
	return nil
}

// takeBack opens the file again after release, waiting for it as Open
// does; until it succeeds, the DB stays released.
func (db *DB) takeBack() error {
	db.mu.Lock()
	defer db.mu.Unlock()
	if db.bolt != nil || !db.released {
		return nil
	}
	if err := db.open(db.releasedCtx); err != nil {
		return err
	}
	db.released = false
	return nil
}

// takeBackNow is takeBack without waiting: ok is false, and the DB stays
// released, when another process holds the file.
func (db *DB) takeBackNow() (ok bool, err error) {
	db.mu.Lock()
	if db.bolt == nil && db.released {
		if err := db.openWithin(db.releasedCtx, 0); err != nil {
			db.mu.Unlock()
			if odata.IsCode(err, odata.CodeDatabaseLocked) {
				return false, nil
			}
			return false, err
		}
		db.released = false
	}
	db.mu.Unlock()
	return true, db.readyLater()
}

// closeEngine closes the engine (the caller holds db.mu). After damage,
// the engine may be stuck on a lock a panic left held; then the file is
// closed directly, which releases its lock, after a second.
func (db *DB) closeEngine() error {
	if db.bolt == nil {
		return nil
	}
	b, f := db.bolt, db.file
	db.bolt, db.file = nil, nil
	releaseFile(f) // the engine's own lock keeps others out until it closes
	if db.damaged.Load() == nil {
		if err := b.Close(); err != nil {
			return backend.FileError(err, "cannot close database %s", db.path)
		}
		return nil
	}
	done := make(chan struct{})
	go func() {
		b.Close()
		close(done)
	}()
	select {
	case <-done:
	case <-time.After(time.Second):
		f.Close()
	}
	return nil
}

// makeReady gives a file opened for writing what a tstable file holds
// (the bucket of its own records, the format, the catalogue) when it does
// not hold them yet: a new file.
func (db *DB) makeReady() error {
	ready := false
	if err := db.do(false, func(o *op) error {
		return o.view(func(t *gtx) error {
			c, err := t.catalogue()
			ready = err == nil && c != nil
			return nil
		})
	}); err != nil || ready {
		return err
	}
	return db.do(true, func(o *op) error { return o.update(makeRecords) })
}

// makeRecords writes the file's own records, those it lacks.
func makeRecords(t *gtx) error {
	m, err := t.top(values.MetaBucket)
	if err != nil {
		return err
	}
	if m == nil {
		if m, err = t.createTop(values.MetaBucket); err != nil {
			return err
		}
		if err := putFormat(m, t.o.db.newFormat()); err != nil {
			return err
		}
	}
	if c, err := m.bucket(values.CatalogueKey); err != nil || c != nil {
		return err
	}
	_, err = m.createBucket(values.CatalogueKey)
	return err
}

// newFormat is the format a new file is written in.
func (db *DB) newFormat() uint64 {
	if db.opts.format != 0 {
		return db.opts.format
	}
	return values.FormatVersion
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
