package store

import (
	"context"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"time"

	"github.com/tstable/tstable/backend"
	"github.com/tstable/tstable/odata"
	"github.com/tstable/tstable/store/internal/repair"
)

// Check and Recover, over package repair: the store opens the damaged file
// read-only, holding its shared lock as any reader does, and repair reads
// it page by page; Recover writes what it saves into a new file the store
// opens, through repair.Target.

// What Check and Recover report, as package repair says it.
type (
	// Problem is one thing wrong in a database file.
	Problem = repair.Problem
	// ProblemKeys is the run of a table's keys a problem concerns.
	ProblemKeys = repair.ProblemKeys
	// CheckReport is what Check found.
	CheckReport = repair.CheckReport
	// TableReport is one table as Check read it.
	TableReport = repair.TableReport
	// PageCost says what losing a page of a sound file would cost.
	PageCost = repair.PageCost
	// RecoverReport is what Recover saved, and what it had to leave behind.
	RecoverReport = repair.RecoverReport
	// TableRecovery is one table as Recover saved it.
	TableRecovery = repair.TableRecovery
	// UnfinishedImport is the rows of an import that did not finish.
	UnfinishedImport = repair.UnfinishedImport
)

// ScanOptions tunes Check and Recover.
type ScanOptions struct {
	// Wait is how long to wait for a process writing the file to let go
	// of it (see Options.Wait); OnWait is called when the wait starts.
	Wait   time.Duration
	OnWait func(holder string)
	// Progress, when set, is called now and then with the pages read so
	// far and the pages there are to read.
	Progress func(done, total int64)
}

// progress is o's Progress, nil when o is.
func (o *ScanOptions) progress() func(done, total int64) {
	if o == nil {
		return nil
	}
	return o.Progress
}

// openForReading opens path read-only and takes the engine's shared lock,
// so that no tstable process writes it meanwhile. It never writes.
func openForReading(ctx context.Context, path string, opts *ScanOptions) (*os.File, int64, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, 0, fmt.Errorf("cannot open %s: %s", path, backend.DescribeIOError(err))
	}
	wait := DefaultWait
	var onWait func(string)
	if opts != nil {
		o := Options{Wait: opts.Wait}
		wait, onWait = o.wait(), opts.OnWait
	}
	if err := lockFile(ctx, f, false, wait, onWait); err != nil {
		if errors.Is(err, errBusy) {
			db := &DB{path: path, opts: Options{Wait: wait}}
			err = db.lockedError(holdersOf(f))
		}
		f.Close()
		return nil, 0, err
	}
	st, err := f.Stat()
	if err != nil {
		closeLocked(f)
		return nil, 0, fmt.Errorf("cannot read %s: %s", path, backend.DescribeIOError(err))
	}
	return f, st.Size(), nil
}

// Check reads the whole database file at path without trusting it and
// reports every problem, each with its table, key range and page (see
// repair.Check for all it checks).
//
// Check never writes; it holds the file's shared lock, so that no tstable
// process writes it meanwhile. It fails (with an error, not a report) only
// when it cannot read the file at all, or ctx ends.
func Check(ctx context.Context, path string, opts *ScanOptions) (*CheckReport, error) {
	f, size, err := openForReading(ctx, path, opts)
	if err != nil {
		return nil, err
	}
	defer closeLocked(f)
	return repair.Check(ctx, f, size, path, opts.progress())
}

// Recover copies every table and entity that can still be read from the
// database file damaged into a new database file at newPath, which must
// not exist, and reports how many entities it saved per table and what it
// had to skip (see repair.Recover).
//
// It reads the damaged file itself, page by page, and never writes it: it
// opens it read-only and holds its shared lock. An error (the new file
// cannot be written) comes with the report so far; the new file then
// holds the tables saved until then. When ctx ends, the new file is
// removed and the error is ctx's alone, without a report.
func Recover(ctx context.Context, damaged, newPath string, opts *ScanOptions) (*RecoverReport, error) {
	if _, err := os.Stat(newPath); err == nil {
		return nil, odata.Errorf(odata.CodeInvalidInput, "%s already exists: recover writes a new file, so name one that does not exist", newPath)
	} else if !errors.Is(err, fs.ErrNotExist) {
		return nil, backend.FileError(err, "cannot use %s for the recovered database", newPath)
	}
	f, size, err := openForReading(ctx, damaged, opts)
	if err != nil {
		return nil, err
	}
	defer closeLocked(f)
	create := func() (repair.Target, error) {
		db, err := Open(newPath, nil)
		if err != nil {
			return nil, err
		}
		return recoverTarget{db}, nil
	}
	return repair.Recover(ctx, f, size, damaged, newPath, create, opts.progress())
}

// recoverTarget is the new file of Recover: a DB whose loads keep each
// entity's Timestamp.
type recoverTarget struct{ *DB }

// LoadKeeping implements repair.Target.
func (t recoverTarget) LoadKeeping(ctx context.Context, table string, src backend.EntitySource, opts backend.LoadOptions) (*backend.LoadResult, error) {
	return t.load(ctx, table, backend.OpInsert, src, opts, true)
}
