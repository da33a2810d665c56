package repair

import (
	"context"
	"fmt"
	"io"

	"github.com/tstable/tstable/store/internal/boltfile"
	"github.com/tstable/tstable/store/internal/dictcopy"
	"github.com/tstable/tstable/store/internal/values"
)

// walker is a boltfile.Walker that keeps what it finds as Problems, each
// of the table being walked unless it names one. Check and Recover share
// it.
type walker struct {
	*boltfile.Walker
	table    string        // the table being walked, "" for the file's own records
	l        values.Layout // of the file's keys, once its own records are read
	problems []Problem
	notes    []string        // see note
	copies   []dictcopy.Copy // the copies of the dictionaries in the header's pages (the store's spare.go)
	// copiedNames are the names as created that only the copies gave.
	copiedNames map[string]string
}

// newWalker reads the file's header and free-page list (see
// boltfile.NewWalker). When neither copy of the header can be used, or one
// cannot, the walker reads the newest state the file's pages hold (see
// states.go), saying so.
func newWalker(ctx context.Context, f io.ReaderAt, size int64, progress func(done, total int64)) *walker {
	w := &walker{}
	w.Walker = boltfile.NewWalker(ctx, f, size, progress, w.found)
	switch h := w.H; {
	case h.Use < 0 && size > boltfile.PageHeaderSize+boltfile.MetaSize:
		w.withoutHeader(ctx, f, size, progress)
	case h.Use >= 0 && h.Metas[1-h.Use].Fault != "":
		w.besideADamagedHeader(ctx, f, size, progress)
	}
	w.readCopies(f, size)
	return w
}

// withoutHeader has the walker read the newest state the file holds, when
// no copy of its header can be used.
func (w *walker) withoutHeader(ctx context.Context, f io.ReaderAt, size int64, progress func(done, total int64)) {
	ps := w.H.PageSize
	if !boltfile.PossiblePageSize(ps) {
		ps = boltfile.GuessPageSize(f, size)
	}
	if ps == 0 {
		return
	}
	s, rivals, ok := newestState(f, size, ps)
	if !ok {
		return
	}
	lost := w.problems[len(w.problems)-1] // the header's
	w.problems = w.problems[:len(w.problems)-1]
	w.Walker = boltfile.NewWalkerAt(ctx, f, size, ps, s.meta(ps), progress, w.found)
	lost.Lost = false
	lost.What += "; its other pages still hold its tables, read here from the newest state they show (" + s.where(ps) + ")"
	w.problem(lost)
	w.note("no copy of the file's header could be read: the tables were read from the newest state of the file its pages show (" + s.where(ps) + ")")
	w.rivalsLeft(rivals)
}

// besideADamagedHeader has the walker read the newest state the file
// holds when it is newer than the one the readable copy of the header
// describes: the unreadable copy may have been the newer one.
func (w *walker) besideADamagedHeader(ctx context.Context, f io.ReaderAt, size int64, progress func(done, total int64)) {
	ps, cur := w.H.PageSize, w.meta()
	s, rivals, ok := newestState(f, size, ps)
	if !ok || !s.sound {
		return
	}
	r := &boltfile.Reader{F: f, Size: size, PageSize: ps, HWM: uint64(size / ps)}
	clock := stateClock(r, cur.Root)
	switch {
	case s.root == cur.Root:
		return
	case s.clock > clock:
		kept := w.problems
		w.problems = nil
		w.Walker = boltfile.NewWalkerAt(ctx, f, size, ps, s.meta(ps), progress, w.found)
		w.problems = append(append(kept, w.problems...), Problem{Page: -1, What: "the readable copy of the file's header describes an older state of the file than its pages hold: the newest state (" + s.where(ps) + ") was read instead"})
		w.note("a copy of the file's header could not be read, and the other describes an older state of the file: the tables were read from the newest state its pages show (" + s.where(ps) + ")")
		return
	case s.clock == clock:
		rivals = append(rivals, s)
	}
	for _, r := range rivals {
		if r.root != cur.Root && r.clock == clock {
			w.rivalsLeft([]fileState{r})
			return
		}
	}
}

// rivalsLeft reports states as new as the one read, which were not.
func (w *walker) rivalsLeft(rivals []fileState) {
	for _, r := range rivals {
		w.problem(Problem{Page: int64(r.root), What: "the file holds another complete state of its tables, with the same clock as the one read, and a copy of its header is unreadable, so which is the newest cannot be told: this state was not read, and what it holds that the other does not (the last transaction, if it is the newest) is lost", Lost: true})
	}
}

// note records what a reader of the walk's report should know that lost
// nothing.
func (w *walker) note(what string) { w.notes = append(w.notes, what) }

// where says where the state is.
func (s fileState) where(pageSize int64) string {
	where := fmt.Sprintf("its list of tables at page %d", s.root)
	if s.freelist != boltfile.NoFreelist {
		where += fmt.Sprintf(", its list of free pages at page %d", s.freelist)
	}
	return where + fmt.Sprintf(", pages of %d bytes", pageSize)
}

// found keeps a problem the page walk found.
func (w *walker) found(p boltfile.Problem) {
	q := Problem{Page: p.Page, What: p.What, Lost: p.Lost}
	if p.Key != nil {
		q.Keys = w.oneKey(p.Key)
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

// printable shows a stored key for people: PartitionKey and RowKey
// joined by "/" when it has both.
func printable(k []byte) string {
	pk, rk := values.SplitKey(k)
	if len(pk) == len(k) {
		return string(k)
	}
	return string(pk) + "/" + string(rk)
}
