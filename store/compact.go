package store

import (
	"context"
	"errors"
	"fmt"
	"os"
	"path/filepath"

	bolt "go.etcd.io/bbolt"

	"github.com/tstable/tstable/backend"
	"github.com/tstable/tstable/odata"
	"github.com/tstable/tstable/store/internal/boltfile"
	"github.com/tstable/tstable/store/internal/dictcopy"
	"github.com/tstable/tstable/store/internal/repair"
	"github.com/tstable/tstable/store/internal/values"
)

// compactTxBytes is how much one transaction of a compaction copies.
const compactTxBytes = 64 << 20

// CompactResult says what Compact did.
type CompactResult struct {
	Before, After int64 // the file's size, in bytes
	// FormatBefore and FormatAfter are the file's format (see format.go):
	// different when Compact upgraded it.
	FormatBefore, FormatAfter uint64
}

// Compact rewrites the database at path without its free pages (the
// space deleted tables and entities leave behind), with full pages. A
// file of an older format is rewritten in the current one (upgraded):
// every table, entity, property and Timestamp is kept, and the keys take
// the current format's order. It is safe against interruption: the copy
// is written to a new file beside the database, synced, and renamed over
// it only when complete; until then the database is untouched. The file
// is held exclusively meanwhile (on Windows up to the rename: see
// closeBeforeReplace), so no other process reads or writes it.
func Compact(path string, opts *Options) (*CompactResult, error) {
	return CompactContext(context.Background(), path, opts)
}

// CompactContext is Compact, stopping when ctx is done: then the copy is
// removed, the database is as it was, and the error is ctx's.
func CompactContext(ctx context.Context, path string, opts *Options) (*CompactResult, error) {
	st, err := os.Stat(path)
	if err != nil {
		return nil, backend.FileError(err, "cannot compact %s", path)
	}
	src, err := Open(path, opts)
	if err != nil {
		return nil, err
	}
	defer src.Close()
	if err := src.vetWhole(ctx); err != nil {
		return nil, err
	}
	tmp := compactCopy(path)
	res := &CompactResult{Before: st.Size(), FormatBefore: uint64(src.fileLayout()), FormatAfter: values.FormatVersion}
	if src.fileLayout() < values.FormatVersion {
		err = upgrade(ctx, src, tmp)
	} else {
		err = src.copyWhole(ctx, tmp, st.Mode().Perm())
	}
	if err == nil {
		err = ctx.Err() // not renamed in place after an interrupt
	}
	if err != nil {
		os.Remove(tmp)
		if ctx.Err() != nil && errors.Is(err, ctx.Err()) {
			return nil, err
		}
		if odata.CodeOf(err) != "" { // damage found while copying, or the copy's own refusal
			return nil, err
		}
		return nil, backend.FileFailure(err, fmt.Sprintf("compacting %s failed: %s (the database is unchanged)", path, backend.DescribeIOError(err)))
	}
	if err := os.Chmod(tmp, st.Mode().Perm()); err != nil {
		os.Remove(tmp)
		return nil, backend.FileError(err, "cannot give the compacted copy %s the database's permissions", tmp)
	}
	if closeBeforeReplace {
		if err := src.Close(); err != nil {
			os.Remove(tmp)
			return nil, err
		}
	}
	if err := os.Rename(tmp, path); err != nil {
		os.Remove(tmp)
		return nil, backend.FileFailure(err, fmt.Sprintf("cannot put the compacted copy in place of %s: %s (the database is unchanged)", path, backend.DescribeIOError(err)))
	}
	if d, err := os.Open(filepath.Dir(path)); err == nil {
		d.Sync() // the rename survives a crash
		d.Close()
	}
	after, err := os.Stat(path)
	if err != nil {
		return nil, backend.FileError(err, "cannot read the compacted database %s", path)
	}
	res.After = after.Size()
	return res, nil
}

// copyWhole copies the file, of the current format, into a new file at
// tmp with the engine's compaction: every bucket and key as it is, the
// pages full.
func (db *DB) copyWhole(ctx context.Context, tmp string, mode os.FileMode) error {
	os.Remove(tmp)
	dst, err := bolt.Open(tmp, mode, nil)
	if err != nil {
		return backend.FileError(err, "cannot create the compacted copy %s", tmp)
	}
	dst.AllocSize = allocStep
	if err := db.do(false, func(o *op) error {
		o.once = true // it writes the copy
		return compactInto(ctx, dst, db.bolt, compactTxBytes)
	}); err != nil {
		dst.Close()
		return err
	}
	if err := dst.Sync(); err != nil {
		dst.Close()
		return err
	}
	if err := dst.Close(); err != nil {
		return err
	}
	return db.writeSpareInto(tmp)
}

// writeSpareInto writes the copy in the header (spare.go) of db's file
// into its compacted copy at path, which the engine's compaction wrote
// without one: the copy holds every bucket as db does, so the same
// tables and dictionaries.
func (db *DB) writeSpareInto(path string) error {
	if db.fileLayout() < 3 {
		return nil
	}
	var c *dictcopy.Copy
	if err := db.do(false, func(o *op) error {
		return o.view(func(t *gtx) (err error) {
			c, err = buildSpare(t, uint64(db.fileLayout()))
			return err
		})
	}); err != nil {
		return err
	}
	f, err := os.OpenFile(path, os.O_RDWR, 0)
	if err != nil {
		return err
	}
	defer f.Close()
	st, err := f.Stat()
	if err != nil {
		return err
	}
	h := boltfile.ReadHeader(f, st.Size())
	if h.Use < 0 {
		return fmt.Errorf("the compacted copy %s has no readable header", path)
	}
	if err := putSpare(f, h.PageSize, *c, h.Meta().TxID+1); err != nil {
		return err
	}
	return f.Sync()
}

// vetWhole checks the whole file (see Check) before it is rewritten: a
// copy of a damaged file would keep its damage and lose what recover can
// still read from the original.
func (db *DB) vetWhole(ctx context.Context) error {
	db.mu.RLock()
	defer db.mu.RUnlock()
	st, err := db.file.Stat()
	if err != nil {
		return backend.FileError(err, "cannot read database %s", db.path)
	}
	rep, err := repair.Check(ctx, db.file, st.Size(), db.path, nil)
	if err != nil {
		return err
	}
	if rep.OK() {
		return nil
	}
	what := rep.Problems[0].String()
	if n := len(rep.Problems) - 1; n > 0 {
		what += fmt.Sprintf(" (and %d more problems)", n)
	}
	return damagedError(db.path, what)
}
