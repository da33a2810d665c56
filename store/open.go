package store

import (
	"context"
	"errors"
	"io/fs"
	"os"
	"path/filepath"
	"runtime/debug"
	"time"

	bolt "go.etcd.io/bbolt"
	berrors "go.etcd.io/bbolt/errors"

	"github.com/tstable/tstable/backend"
	"github.com/tstable/tstable/odata"
	"github.com/tstable/tstable/store/internal/boltfile"
	"github.com/tstable/tstable/store/internal/bulk"
	"github.com/tstable/tstable/store/internal/values"
)

// Opening the file and letting it go: the lock taken (waiting for
// another process), the file vetted before the engine maps it, a new
// file made ready, and the file let go and taken back around a load.

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
// staging buckets and temporary files (see package bulk) whose process
// is gone, and a killed compaction's copy (see compact.go).
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
		if !db.opts.ReadOnly && db.loaded.Load() {
			trimTail(f)
		}
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

// closeLocked lets go of the lock lockFile took on f, and closes it.
func closeLocked(f *os.File) error {
	releaseFile(f)
	return f.Close()
}
