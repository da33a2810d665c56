package store

import (
	"context"
	"errors"
	"fmt"
	"io"
	"os"

	"github.com/tstable/tstable/store/internal/boltfile"
)

// walker is a boltfile.Walker that keeps what it finds as Problems, each
// of the table being walked unless it names one. Check and Recover share
// it.
type walker struct {
	*boltfile.Walker
	table    string // the table being walked, "" for the file's own records
	problems []Problem
}

// newWalker reads the file's header and free-page list (see
// boltfile.NewWalker).
func newWalker(ctx context.Context, f io.ReaderAt, size int64, progress func(done, total int64)) *walker {
	w := &walker{}
	w.Walker = boltfile.NewWalker(ctx, f, size, progress, w.found)
	return w
}

// found keeps a problem the page walk found.
func (w *walker) found(p boltfile.Problem) {
	q := Problem{Page: p.Page, What: p.What, Lost: p.Lost}
	if p.Key != nil {
		q.Keys = oneKey(p.Key)
	}
	w.problem(q)
}

// problem records one problem, of the table being walked unless it names
// one.
func (w *walker) problem(p Problem) {
	if p.Table == "" {
		p.Table = w.table
	}
	w.problems = append(w.problems, p)
}

// meta is the meta of the state the walker reads.
func (w *walker) meta() boltfile.Meta { return w.H.Meta() }

// openForReading opens path read-only and takes the engine's shared lock,
// so that no tstable process writes it meanwhile. It never writes.
func openForReading(ctx context.Context, path string, opts *ScanOptions) (*os.File, int64, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, 0, fmt.Errorf("cannot open %s: %s", path, describeIOError(err))
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
		return nil, 0, fmt.Errorf("cannot read %s: %s", path, describeIOError(err))
	}
	return f, st.Size(), nil
}

// closeLocked lets go of the lock lockFile took on f, and closes it.
func closeLocked(f *os.File) error {
	releaseFile(f)
	return f.Close()
}

// printable shows a stored key for people: PartitionKey and RowKey
// joined by "/" when it has both.
func printable(k []byte) string {
	pk, rk := splitKey(k)
	if len(pk) == len(k) {
		return string(k)
	}
	return string(pk) + "/" + string(rk)
}
