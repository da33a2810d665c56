package store

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"time"
)

// walker reads a database file page by page, with pread and without the
// engine, trusting nothing in it: every page is checked before it is
// used, each is used once, and what cannot be read is reported as a
// problem with the range of keys it held. Check and Recover share it.
type walker struct {
	ctx  context.Context
	r    *pageReader
	h    *header
	file int64 // whole pages in the file

	used  []bool          // pages reached, for ids below file
	usedX map[uint64]bool // the same past the file's end
	free  map[uint64]bool // the free-page list; nil when it is unreadable

	done     int64
	progress func(done, total int64)
	last     time.Time

	table    string // the table being walked, "" for the file's own records
	problems []Problem

	// While quiet is set (reading an older copy of the file's records for
	// names only), pages are not claimed, only kept from being read twice.
	quiet     bool
	quietSeen map[uint64]bool
}

// problem records one problem, of the table being walked unless it names
// one.
func (w *walker) problem(p Problem) {
	if p.Table == "" {
		p.Table = w.table
	}
	w.problems = append(w.problems, p)
}

// tick counts a page read and reports progress now and then.
func (w *walker) tick(n uint64) {
	if w.quiet {
		return
	}
	w.done += int64(n)
	if w.progress != nil && time.Since(w.last) > 50*time.Millisecond {
		w.last = time.Now()
		w.progress(min(w.done, w.total()), w.total())
	}
}

// total is the count of pages progress runs to.
func (w *walker) total() int64 {
	if w.h.use < 0 {
		return w.file
	}
	return int64(min(w.h.meta().pgid, uint64(w.file)))
}

// claim marks pages id to id+n-1 as reached, reporting whether none was
// reached before.
func (w *walker) claim(id, n uint64) bool {
	if w.quiet {
		fresh := !w.quietSeen[id]
		w.quietSeen[id] = true
		return fresh
	}
	fresh := true
	for p := id; p < id+n; p++ {
		if p < uint64(len(w.used)) {
			fresh = fresh && !w.used[p]
			w.used[p] = true
		} else {
			fresh = fresh && !w.usedX[p]
			w.usedX[p] = true
		}
	}
	return fresh
}

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

// newWalker reads the file's header and free-page list, reporting what is
// wrong with them. When neither copy of the header is usable, the walker
// has no meta (h.use < 0) and can read no tree.
func newWalker(ctx context.Context, f io.ReaderAt, size int64, progress func(done, total int64)) *walker {
	h := readHeader(f, size)
	w := &walker{ctx: ctx, h: h, progress: progress, usedX: map[uint64]bool{}}
	if h.pageSize > 0 {
		w.file = size / h.pageSize
	}
	w.used = make([]bool, w.file)
	switch {
	case size == 0:
		w.problem(fileProblem(-1, "the file is empty: it holds no database", true))
	case size < pageHeaderSize+metaSize:
		w.problem(fileProblem(-1, fmt.Sprintf("the file is only %d bytes long: it holds no database", size), true))
	case h.use < 0 && !h.magic:
		w.problem(fileProblem(-1, "the file does not start with a database header: it is not a tstable database, or its first pages are destroyed", true))
	case h.use < 0:
		w.problem(fileProblem(0, fmt.Sprintf("both copies of the file's header are unreadable (the first: %s; the second: %s)", h.metas[0].fault, h.metas[1].fault), true))
	}
	if h.use < 0 {
		return w
	}
	for i, c := range h.metas {
		if c.fault != "" {
			w.problem(fileProblem(int64(i), fmt.Sprintf("this copy of the file's header is unreadable (%s); the other copy is in use, and the next write rewrites this one", c.fault), false))
		}
	}
	m := h.meta()
	if fault := m.fault(); fault != "" {
		w.problem(fileProblem(int64(h.use), "the file's header is unsound: "+fault, true))
		h.use = -1
		return w
	}
	w.r = &pageReader{f: f, size: size, pageSize: h.pageSize, hwm: m.pgid}
	if uint64(w.file) < m.pgid {
		w.problem(fileProblem(-1, fmt.Sprintf("the file is cut short: its header counts %d pages of %d bytes, and it holds %d (pages %d to %d are missing)", m.pgid, h.pageSize, w.file, w.file, m.pgid-1), true))
	}
	w.claim(0, 2)
	w.tick(2)
	if m.freelist != noFreelist {
		ids, err := w.r.freelist(m.freelist)
		if err != nil {
			w.problem(fileProblem(int64(m.freelist), "the list of free pages cannot be read: "+whatOf(err), false))
			if hd, err := w.r.head(m.freelist); err == nil && hd.flags == flagFreelist {
				if n, err := w.r.span(hd); err == nil {
					w.claim(m.freelist, n)
				}
			}
		} else {
			hd, _ := w.r.head(m.freelist)
			n, _ := w.r.span(hd)
			w.claim(m.freelist, n)
			w.tick(n)
			w.free = map[uint64]bool{}
			for _, id := range ids {
				w.free[id] = true
			}
			w.tick(uint64(len(ids)))
		}
	}
	return w
}

// whatOf is a page error without its page number (the problem carries
// it): "it lies past the end of the file …".
func whatOf(err error) string {
	var pe *pageError
	if errors.As(err, &pe) {
		return "it " + pe.what
	}
	return err.Error()
}

// pageWhat is a page error as said of "the page".
func pageWhat(err error) string {
	var pe *pageError
	if errors.As(err, &pe) {
		return "the page " + pe.what
	}
	return "the page cannot be read: " + err.Error()
}

// fileProblem is a problem with the file's own records.
func fileProblem(page int64, what string, lost bool) Problem {
	return Problem{Page: page, What: what, Lost: lost}
}

// visitFn gets each leaf entry of a tree, in order, with its page; false
// stops the walk.
type visitFn func(page uint64, e elem) bool

// lostFn gets each part of a tree that cannot be read: the keys from lo
// (inclusive; nil: the start) up to hi (exclusive; nil: the end), the page
// where reading stopped, and why.
type lostFn func(page uint64, lo, hi []byte, why string)

// tree walks the tree of a bucket (its root page, or its inline page when
// root is 0) in key order, for keys from lo up to hi. It reports whether it
// went to the end (the context did not end it, nor visit).
func (w *walker) tree(root uint64, inline []byte, at uint64, lo, hi []byte, visit visitFn, lost lostFn) bool {
	if root != 0 {
		return w.page(root, lo, hi, 0, visit, lost)
	}
	h := parseHead(inline)
	es, err := parseElems(h, inline)
	if err != nil {
		lost(at, lo, hi, "the bucket's inline page on this page cannot be read: "+err.Error())
		return true
	}
	return w.leaf(at, es, lo, hi, visit, lost)
}

// page walks the subtree at page id, whose keys lie from lo up to hi.
func (w *walker) page(id uint64, lo, hi []byte, depth int, visit visitFn, lost lostFn) bool {
	if w.ctx.Err() != nil {
		return false
	}
	if depth > maxTreeDepth {
		lost(id, lo, hi, fmt.Sprintf("the page lies more than %d pages deep in its tree (a page leads back up)", maxTreeDepth))
		return true
	}
	h, b, err := w.r.page(id, flagLeaf, flagBranch)
	if err != nil {
		if id < w.r.hwm {
			w.claim(id, 1) // in use, though unreadable
		}
		lost(id, lo, hi, pageWhat(err))
		return true
	}
	n := uint64(h.overflow) + 1
	if !w.claim(id, n) {
		lost(id, lo, hi, "the page is reached a second time, from another place in the file; it is read only the first time")
		return true
	}
	w.tick(n)
	if w.free != nil && w.free[id] {
		w.problem(Problem{Page: int64(id), What: "the page is in use but also on the list of free pages, so a write could overwrite it", Lost: false})
	}
	es, err := parseElems(h, b)
	if err != nil {
		lost(id, lo, hi, "the page cannot be read: "+err.Error())
		return true
	}
	if h.flags == flagLeaf {
		return w.leaf(id, es, lo, hi, visit, lost)
	}
	if len(es) == 0 {
		lost(id, lo, hi, "the page is a branch page with no entries")
		return true
	}
	for i, e := range es {
		clo, chi := e.key, hi
		if i+1 < len(es) {
			chi = es[i+1].key
		}
		if (i > 0 && bytes.Compare(e.key, es[i-1].key) <= 0) || (lo != nil && bytes.Compare(e.key, lo) < 0) || (hi != nil && bytes.Compare(e.key, hi) >= 0) {
			w.problem(Problem{Page: int64(id), What: fmt.Sprintf("the branch page's key %d is out of order, so lookups may miss the keys below it", i), Lost: false})
		}
		if i == 0 && lo != nil && bytes.Compare(clo, lo) > 0 {
			clo = lo
		}
		if !w.page(e.child, clo, chi, depth+1, visit, lost) {
			return false
		}
	}
	return true
}

// leaf visits the entries of a leaf page, checking their order.
func (w *walker) leaf(id uint64, es []elem, lo, hi []byte, visit visitFn, lost lostFn) bool {
	for i, e := range es {
		if (i > 0 && bytes.Compare(e.key, es[i-1].key) <= 0) || (lo != nil && bytes.Compare(e.key, lo) < 0) || (hi != nil && bytes.Compare(e.key, hi) >= 0) {
			w.problem(Problem{Page: int64(id), Keys: oneKey(e.key), What: "the key is out of order on its page, so lookups may not find it", Lost: false})
		}
		if !visit(id, e) {
			return false
		}
	}
	return true
}

// unreached lists, as ranges, the pages below the high-water mark (and in
// the file) that were neither reached nor free.
func (w *walker) unreached() [][2]uint64 {
	var out [][2]uint64
	for id := uint64(2); id < uint64(w.total()); id++ {
		if w.used[id] || (w.free != nil && w.free[id]) {
			continue
		}
		w.tick(1)
		if n := len(out); n > 0 && out[n-1][1] == id-1 {
			out[n-1][1] = id
		} else {
			out = append(out, [2]uint64{id, id})
		}
	}
	return out
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
