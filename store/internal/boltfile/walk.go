package boltfile

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"time"
)

// Walker reads a database file page by page, with pread and without the
// engine, trusting nothing in it: every page is checked before it is
// used, each is used once, and what cannot be read is reported with the
// range of keys it held. It reads one state of the file: the one its
// header leads to (NewWalker), or one found otherwise (NewWalkerAt).
type Walker struct {
	ctx  context.Context
	R    *Reader
	H    *Header
	File int64 // whole pages in the file

	used  []bool          // pages reached, for ids below File
	usedX map[uint64]bool // the same past the file's end
	// Free is the free-page list; nil when it is unreadable.
	Free map[uint64]bool

	done     int64
	progress func(done, total int64)
	last     time.Time
	report   func(Problem)

	// While quiet is set, pages are not claimed, only kept from being
	// read twice.
	quiet     bool
	quietSeen map[uint64]bool
}

// Problem is one thing wrong that a Walker found.
type Problem struct {
	Page int64  // the page it concerns, -1 for none
	Key  []byte // the key it concerns, or nil
	What string
	Lost bool // data cannot be read because of it
}

// NewWalker reads the file's header and free-page list, reporting what is
// wrong with them. When neither copy of the header is usable, the walker
// has no meta (H.Use < 0) and can read no tree.
func NewWalker(ctx context.Context, f io.ReaderAt, size int64, progress func(done, total int64), report func(Problem)) *Walker {
	h := ReadHeader(f, size)
	w := &Walker{ctx: ctx, H: h, progress: progress, report: report, usedX: map[uint64]bool{}}
	if h.PageSize > 0 {
		w.File = size / h.PageSize
	}
	w.used = make([]bool, w.File)
	switch {
	case size == 0:
		w.problem(-1, "the file is empty: it holds no database", true)
	case size < PageHeaderSize+MetaSize:
		w.problem(-1, fmt.Sprintf("the file is only %d bytes long: it holds no database", size), true)
	case h.Use < 0 && !h.Magic:
		w.problem(-1, "the file does not start with a database header: it is not a tstable database, or its first pages are destroyed", true)
	case h.Use < 0:
		w.problem(0, fmt.Sprintf("both copies of the file's header are unreadable (the first: %s; the second: %s)", h.Metas[0].Fault, h.Metas[1].Fault), true)
	}
	if h.Use < 0 {
		return w
	}
	for i, c := range h.Metas {
		if c.Fault != "" {
			w.problem(int64(i), fmt.Sprintf("this copy of the file's header is unreadable (%s); the other copy is in use, and the next write rewrites this one", c.Fault), false)
		}
	}
	if fault := h.Meta().Fault(); fault != "" {
		w.problem(int64(h.Use), "the file's header is unsound: "+fault, true)
		h.Use = -1
		return w
	}
	w.start(f)
	return w
}

// NewWalkerAt is a walker of the state of the file that m describes (found
// by the caller, not in a header the engine can use), in a file of pages
// of pageSize bytes.
func NewWalkerAt(ctx context.Context, f io.ReaderAt, size, pageSize int64, m Meta, progress func(done, total int64), report func(Problem)) *Walker {
	h := &Header{Size: size, Use: 0, PageSize: pageSize, Magic: true}
	h.Metas[0] = MetaCopy{M: m, Found: true}
	h.Metas[1] = MetaCopy{M: m, Found: true}
	w := &Walker{ctx: ctx, H: h, progress: progress, report: report, usedX: map[uint64]bool{}, File: size / pageSize}
	w.used = make([]bool, w.File)
	w.start(f)
	return w
}

// start reads the free-page list of the meta in use.
func (w *Walker) start(f io.ReaderAt) {
	m := w.H.Meta()
	w.R = w.H.Reader(f)
	if uint64(w.File) < m.Pgid {
		w.problem(-1, fmt.Sprintf("the file is cut short: its header counts %d pages of %d bytes, and it holds %d (pages %d to %d are missing)", m.Pgid, w.H.PageSize, w.File, w.File, m.Pgid-1), true)
	}
	w.Claim(0, 2)
	w.Tick(2)
	if m.Freelist == NoFreelist {
		return
	}
	ids, err := w.R.Freelist(m.Freelist)
	if err != nil {
		w.problem(int64(m.Freelist), "the list of free pages cannot be read: "+WhatOf(err), false)
		if hd, err := w.R.Head(m.Freelist); err == nil && hd.Flags == FlagFreelist {
			if n, err := w.R.Span(hd); err == nil {
				w.Claim(m.Freelist, n)
			}
		}
		return
	}
	hd, _ := w.R.Head(m.Freelist)
	n, _ := w.R.Span(hd)
	w.Claim(m.Freelist, n)
	w.Tick(n)
	w.Free = map[uint64]bool{}
	for _, id := range ids {
		w.Free[id] = true
	}
	w.Tick(uint64(len(ids)))
}

func (w *Walker) problem(page int64, what string, lost bool) {
	w.report(Problem{Page: page, What: what, Lost: lost})
}

// Tick counts n pages read and reports progress now and then.
func (w *Walker) Tick(n uint64) {
	if w.quiet {
		return
	}
	w.done += int64(n)
	if w.progress != nil && time.Since(w.last) > 50*time.Millisecond {
		w.last = time.Now()
		w.progress(min(w.done, w.Total()), w.Total())
	}
}

// Total is the count of pages progress runs to.
func (w *Walker) Total() int64 {
	if w.H.Use < 0 {
		return w.File
	}
	return int64(min(w.H.Meta().Pgid, uint64(w.File)))
}

// Claim marks pages id to id+n-1 as reached, reporting whether none was
// reached before.
func (w *Walker) Claim(id, n uint64) bool {
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

// Used reports whether page id (below File) was reached.
func (w *Walker) Used(id uint64) bool { return id < uint64(len(w.used)) && w.used[id] }

// Quiet turns quiet reading on or off: while it is on (reading an older
// copy of the file's records for names only), pages are not claimed, only
// kept from being read twice, and progress does not move.
func (w *Walker) Quiet(on bool) {
	w.quiet = on
	w.quietSeen = nil
	if on {
		w.quietSeen = map[uint64]bool{}
	}
}

// WhatOf is a page error without its page number (the problem carries
// it): "it lies past the end of the file …".
func WhatOf(err error) string {
	var pe *PageError
	if errors.As(err, &pe) {
		return "it " + pe.What
	}
	return err.Error()
}

// PageWhat is a page error as said of "the page".
func PageWhat(err error) string {
	var pe *PageError
	if errors.As(err, &pe) {
		return "the page " + pe.What
	}
	return "the page cannot be read: " + err.Error()
}

// VisitFn gets each leaf entry of a tree, in order, with its page; false
// stops the walk.
type VisitFn func(page uint64, e Elem) bool

// LostFn gets each part of a tree that cannot be read: the keys from lo
// (inclusive; nil: the start) up to hi (exclusive; nil: the end), the page
// where reading stopped, and why.
type LostFn func(page uint64, lo, hi []byte, why string)

// Tree walks the tree of a bucket (its root page, or its inline page when
// root is 0, found on page at) in key order, for keys from lo up to hi.
// It reports whether it went to the end (the context did not end it, nor
// visit).
func (w *Walker) Tree(root uint64, inline []byte, at uint64, lo, hi []byte, visit VisitFn, lost LostFn) bool {
	if root != 0 {
		return w.page(root, lo, hi, 0, visit, lost)
	}
	h := ParseHead(inline)
	es, err := ParseElems(h, inline)
	if err != nil {
		lost(at, lo, hi, "the bucket's inline page on this page cannot be read: "+err.Error())
		return true
	}
	return w.leaf(at, es, lo, hi, visit, lost)
}

// page walks the subtree at page id, whose keys lie from lo up to hi.
func (w *Walker) page(id uint64, lo, hi []byte, depth int, visit VisitFn, lost LostFn) bool {
	if w.ctx.Err() != nil {
		return false
	}
	if depth > MaxTreeDepth {
		lost(id, lo, hi, fmt.Sprintf("the page lies more than %d pages deep in its tree (a page leads back up)", MaxTreeDepth))
		return true
	}
	h, b, err := w.R.Page(id, FlagLeaf, FlagBranch)
	if err != nil {
		if oh, ob, ok := w.R.FirstPageAlone(id); ok {
			w.problem(int64(id), PageWhat(err)+"; its entries all lie in the page itself, and are read (the page's own count of pages is wrong)", false)
			h, b, err = oh, ob, nil
		}
	}
	if err != nil {
		if id < w.R.HWM {
			w.Claim(id, 1) // in use, though unreadable
		}
		lost(id, lo, hi, PageWhat(err))
		return true
	}
	n := uint64(h.Overflow) + 1
	if !w.Claim(id, n) {
		lost(id, lo, hi, "the page is reached a second time, from another place in the file; it is read only the first time")
		return true
	}
	w.Tick(n)
	if w.Free != nil && w.Free[id] {
		w.problem(int64(id), "the page is in use but also on the list of free pages, so a write could overwrite it", false)
	}
	es, err := ParseElems(h, b)
	if err != nil {
		lost(id, lo, hi, "the page cannot be read: "+err.Error())
		return true
	}
	if h.Flags == FlagLeaf {
		return w.leaf(id, es, lo, hi, visit, lost)
	}
	if len(es) == 0 {
		lost(id, lo, hi, "the page is a branch page with no entries")
		return true
	}
	for i, e := range es {
		clo, chi := e.Key, hi
		if i+1 < len(es) {
			chi = es[i+1].Key
		}
		if (i > 0 && bytes.Compare(e.Key, es[i-1].Key) <= 0) || (lo != nil && bytes.Compare(e.Key, lo) < 0) || (hi != nil && bytes.Compare(e.Key, hi) >= 0) {
			w.problem(int64(id), fmt.Sprintf("the branch page's key %d is out of order, so lookups may miss the keys below it", i), false)
		}
		if i == 0 && lo != nil && bytes.Compare(clo, lo) > 0 {
			clo = lo
		}
		if !w.page(e.Child, clo, chi, depth+1, visit, lost) {
			return false
		}
	}
	return true
}

// leaf visits the entries of a leaf page, checking their order.
func (w *Walker) leaf(id uint64, es []Elem, lo, hi []byte, visit VisitFn, lost LostFn) bool {
	for i, e := range es {
		if (i > 0 && bytes.Compare(e.Key, es[i-1].Key) <= 0) || (lo != nil && bytes.Compare(e.Key, lo) < 0) || (hi != nil && bytes.Compare(e.Key, hi) >= 0) {
			w.report(Problem{Page: int64(id), Key: e.Key, What: "the key is out of order on its page, so lookups may not find it"})
		}
		if !visit(id, e) {
			return false
		}
	}
	return true
}

// Unreached lists, as ranges, the pages below the high-water mark (and in
// the file) that were neither reached nor free.
func (w *Walker) Unreached() [][2]uint64 {
	var out [][2]uint64
	for id := uint64(2); id < uint64(w.Total()); id++ {
		if w.used[id] || (w.Free != nil && w.Free[id]) {
			continue
		}
		w.Tick(1)
		if n := len(out); n > 0 && out[n-1][1] == id-1 {
			out[n-1][1] = id
		} else {
			out = append(out, [2]uint64{id, id})
		}
	}
	return out
}
