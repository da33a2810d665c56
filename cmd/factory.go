package cmd

import (
	"context"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"time"

	"github.com/tstable/tstable/backend"
	"github.com/tstable/tstable/design"
	"github.com/tstable/tstable/iostreams"
	"github.com/tstable/tstable/odata"
	"github.com/tstable/tstable/remote"
	"github.com/tstable/tstable/store"
)

// Factory is what every command of one tree depends on: its streams, the
// shell's session when it runs inside the shell, and the way to reach
// storage — given by whoever builds the tree — and this run's settings,
// which the global flags decide before the command runs (globalFlags.apply
// in flags.go). Commands open the backend per run and close it when they
// end, except inside the shell, which may keep the local file open
// between commands and lets go of it when another process waits (keptDB).
type Factory struct {
	IO *iostreams.IOStreams
	// Session is the shell's state when the tree runs inside the shell,
	// else nil.
	Session Session
	// Opener opens a target; nil opens the bbolt store or the remote
	// service. Tests set it to put another backend behind the commands.
	Opener Opener

	// This run's settings, from the global flags; before they are applied,
	// the defaults: the target the environment names, the store's wait, a
	// printer in the format the streams alone choose.
	target func() (Target, error) // where the storage is, decided once on first use
	// resolveAgain decides the target anew, as target does the first time
	// (the shell's prompt: a tstable serve may have started or stopped
	// holding the file since).
	resolveAgain func() (Target, error)
	wait         time.Duration // how long to wait for a file another process holds
	printer      *Printer      // the only writer of the command's output

	kept *keptDB // the file the shell keeps open between commands, or nil
	// headerNoted is the notes of damaged newest headers said already
	// (see noteHeader), so that each is said once.
	headerNoted map[string]bool
}

// Opener opens the storage a target names, for writing or for reading
// only. A local file opened for writing is created when missing.
type Opener func(ctx context.Context, t Target, write bool) (backend.Backend, error)

// Target returns where this run's storage is, deciding it from the
// global flags and the environment on first use.
func (f *Factory) Target() (Target, error) {
	if f.target == nil { // not run through the tree: the environment alone decides
		return (&globalFlags{}).resolveTarget()
	}
	return f.target()
}

// Open opens t, through f.Opener when set: the bbolt file (waiting for
// another process to release it, as --wait says) or the remote account.
func (f *Factory) Open(ctx context.Context, t Target, write bool) (backend.Backend, error) {
	if f.Opener != nil {
		return f.Opener(ctx, t, write)
	}
	if t.Remote != nil {
		return remote.Open(*t.Remote)
	}
	return f.openLocal(ctx, t.Path, f.storeOptions(t.Path, write))
}

// openLocal opens the local file at path with opts.
func (f *Factory) openLocal(ctx context.Context, path string, opts *store.Options) (backend.Backend, error) {
	db, err := store.OpenContext(ctx, path, opts)
	if err != nil {
		return nil, err
	}
	f.noteHeader(db)
	return db, nil
}

// noteHeader says on standard error, once, that the file db opened was
// opened at the commit before its newest, whose header is damaged.
func (f *Factory) noteHeader(db *store.DB) {
	note := db.HeaderNote()
	if note == "" || f.headerNoted[note] || f.printer == nil {
		return
	}
	if f.headerNoted == nil {
		f.headerNoted = map[string]bool{}
	}
	f.headerNoted[note] = true
	f.printer.Note("note: %s", note)
}

// storeOptions opens the file at path for reading or writing, waiting for
// it as long as --wait (else $TSTABLE_WAIT, else the store's default)
// says, and saying on a terminal whom it waits for.
func (f *Factory) storeOptions(path string, write bool) *store.Options {
	return &store.Options{ReadOnly: !write, Wait: f.wait, OnWait: func(holder string) {
		if f.IO.ErrTTY && f.printer != nil {
			f.printer.Note("waiting for %s to release %s… (up to %s; --wait changes this)", holder, filepath.Base(path), waitText(f.wait))
		}
	}}
}

// waitText says how long a wait is, for people.
func waitText(d time.Duration) string {
	if d == 0 {
		d = store.DefaultWait
	}
	return d.String()
}

// parseWait reads --wait (or $TSTABLE_WAIT): a duration such as 10s or
// 2m; 0 is not to wait at all.
func parseWait(s string) (time.Duration, error) {
	if s == "" {
		s = os.Getenv(envWait)
	}
	if s == "" {
		return 0, nil // the store's default
	}
	d, err := time.ParseDuration(s)
	if err != nil || d < 0 {
		return 0, fmt.Errorf("--wait takes a duration such as 10s or 2m (0: do not wait); got %q", s)
	}
	if d == 0 {
		return -1, nil // the store's "do not wait"
	}
	return d, nil
}

// errNoDatabase is returned by Read when the local database file does not
// exist and no table was named.
var errNoDatabase = errors.New("no database file")

// Read opens this run's storage for reading, runs fn and closes it. When
// the local file does not exist, it returns TableNotFound naming table (or
// errNoDatabase when table is ""), and creates nothing.
func (f *Factory) Read(ctx context.Context, table string, fn func(backend.Backend) error) error {
	if err := f.needDatabase(table, odata.CodeTableNotFound); err != nil {
		return err
	}
	t, _ := f.Target()
	return f.with(ctx, t, false, fn)
}

// needDatabase returns, when the local database file does not exist, the
// error that a table cannot be there (with code, naming table; or
// errNoDatabase when table is ""), without creating or opening anything.
// A file --db or $TSTABLE_DB named that is not there is most likely a
// mistyped name: then the error is ResourceNotFound, naming the closest
// database in that folder (a *missingDatabase, which is errNoDatabase
// too); only the default file is one not made yet.
func (f *Factory) needDatabase(table string, code odata.Code) error {
	t, err := f.Target()
	if err != nil || t.IsRemote() || exists(t.Path) {
		return err
	}
	if t.Named {
		return &missingDatabase{odata.Errorf(odata.CodeResourceNotFound, "there is no database at %s%s; a command that writes (tstable table create, import, sample load) creates one there", t.Path, closestDatabase(t.Path))}
	}
	if table == "" {
		return errNoDatabase
	}
	return odata.Errorf(code, "table %q does not exist: there is no database at %s yet (create the table with: tstable table create %s)", table, t.Path, table)
}

// missingDatabase is the error of a database file --db or $TSTABLE_DB
// named that does not exist: reported as its coded error, and
// errNoDatabase for those that take no file for no tables (the shell
// opened on a file it is to create).
type missingDatabase struct{ coded *odata.Error }

func (e *missingDatabase) Error() string        { return e.coded.Error() }
func (e *missingDatabase) Unwrap() error        { return e.coded }
func (e *missingDatabase) Is(target error) bool { return target == errNoDatabase }

// closestDatabase names, as a hint, the database file in path's folder
// whose name is closest to path's (" (did you mean people.db?)"), or ""
// when the folder holds none.
func closestDatabase(path string) string {
	dir, name := filepath.Split(path)
	entries, err := os.ReadDir(filepath.Clean(dir + "."))
	if err != nil {
		return ""
	}
	best, bestD := "", 0
	for _, e := range entries {
		n := e.Name()
		if !e.Type().IsRegular() || !strings.EqualFold(filepath.Ext(n), ".db") {
			continue
		}
		if d := design.EditDistance(strings.ToLower(n), strings.ToLower(name)); best == "" || d < bestD {
			best, bestD = n, d
		}
	}
	if best == "" {
		return ""
	}
	return " (did you mean " + filepath.Join(dir, best) + "?)"
}

// Write opens this run's storage for writing, runs fn and closes it. A
// local file (and its folder) is created on first use — and removed again
// when fn fails, so a failed command leaves no empty database behind.
func (f *Factory) Write(ctx context.Context, fn func(backend.Backend) error) error {
	t, err := f.Target()
	if err != nil {
		return err
	}
	if t.IsRemote() || exists(t.Path) {
		return f.with(ctx, t, true, fn)
	}
	return f.writeNew(ctx, t, fn)
}

// Load is Write for a command that reads its whole source before it
// writes (import): a local file that another process holds is taken only
// when the load needs it (store.Options.Later), so that a source that
// process writes (tstable export T | tstable import U - on one file) is
// read on meanwhile instead of waited for.
func (f *Factory) Load(ctx context.Context, fn func(backend.Backend) error) error {
	t, err := f.Target()
	if err != nil {
		return err
	}
	if f.kept != nil || f.Opener != nil || t.IsRemote() || !exists(t.Path) {
		return f.Write(ctx, fn)
	}
	opts := f.storeOptions(t.Path, true)
	opts.Later = true
	b, err := f.openLocal(ctx, t.Path, opts)
	if err != nil {
		return err
	}
	return runThenClose(b, fn)
}

// writeNew is Write for a local file that does not exist yet. The
// default file's folder (tstable's own) is made when missing; a file --db
// or $TSTABLE_DB named must be in a folder that exists, as sqlite3 wants
// it: a mistyped folder is said, not made.
func (f *Factory) writeNew(ctx context.Context, t Target, fn func(backend.Backend) error) error {
	if t.Named {
		if err := folderExists(t.Path); err != nil {
			return err
		}
	} else if err := makeFolderFor(t.Path); err != nil {
		return err
	}
	err := f.withOwn(ctx, t, true, fn) // not kept: a failure removes the file
	if err != nil {
		os.Remove(t.Path)
	}
	return err
}

// folderExists refuses a database file at path whose folder does not
// exist, naming the folder.
func folderExists(path string) error {
	dir := filepath.Dir(path)
	st, err := os.Stat(dir)
	switch {
	case errors.Is(err, fs.ErrNotExist) || errors.Is(err, syscall.ENOTDIR):
		return odata.Errorf(odata.CodeResourceNotFound, "cannot create the database %s: the folder %s does not exist; create it first, or name a file in a folder that exists", path, dir)
	case err != nil:
		return backend.FileError(err, "cannot create the database %s", path)
	case !st.IsDir():
		return odata.Errorf(odata.CodeInvalidInput, "cannot create the database %s: %s is not a folder", path, dir)
	}
	return nil
}

// makeFolderFor creates the folder of the database file at path, when
// missing, before the file is created.
func makeFolderFor(path string) error {
	if dir := filepath.Dir(path); dir != "" {
		if err := os.MkdirAll(dir, 0o755); err != nil {
			return backend.FileError(err, "cannot create the folder for the database %s", path)
		}
	}
	return nil
}

// with opens t, runs fn and closes it, reporting a failure to close —
// or runs fn on the file the shell keeps open, when it keeps one.
func (f *Factory) with(ctx context.Context, t Target, write bool, fn func(backend.Backend) error) error {
	if f.kept != nil && f.Opener == nil && !t.IsRemote() {
		db, ok, err := f.kept.acquire(ctx, f, t.Path, write)
		if ok {
			if err != nil {
				return err
			}
			defer func() { f.kept.release(err) }()
			err = fn(db)
			return err
		}
	}
	return f.withOwn(ctx, t, write, fn)
}

// withOwn opens t, runs fn and closes it, reporting a failure to close.
func (f *Factory) withOwn(ctx context.Context, t Target, write bool, fn func(backend.Backend) error) error {
	b, err := f.Open(ctx, t, write)
	if err != nil {
		return err
	}
	return runThenClose(b, fn)
}

// runThenClose runs fn on b and closes b, reporting a failure to close
// when fn did not fail.
func runThenClose(b backend.Backend, fn func(backend.Backend) error) (err error) {
	defer func() {
		if cerr := b.Close(); cerr != nil && err == nil {
			err = cerr // the store's error names the file
		}
	}()
	return fn(b)
}

// exists reports whether a file is at path.
func exists(path string) bool {
	_, err := os.Stat(path)
	return !errors.Is(err, fs.ErrNotExist)
}
