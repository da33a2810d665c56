package repair

import (
	"bytes"
	"cmp"
	"encoding/binary"
	"fmt"
	"io"
	"math/bits"
	"slices"

	"github.com/tstable/tstable/store/internal/boltfile"
	"github.com/tstable/tstable/store/internal/values"
)

// A file's states. Each commit of the engine writes the list of tables
// (the top-level tree) and the free-page list anew, on pages the list of
// the state before calls free, and points a copy of the header at them;
// the pages of the states before stay in the file until a later commit
// reuses them. When the headers cannot say which state is the newest
// (both are unreadable, or the one that was newer is), Check and Recover
// find the states by scanning the file's pages: a state is sound when
// every tree it leads to is readable and a free-page list names exactly
// the pages it does not use, and of the sound ones the newest is the one
// whose clock is latest (every commit advances it; see values.FormatVersion).

// fileState is one state of the file, found by scanning it.
type fileState struct {
	root     uint64 // its list of tables
	freelist uint64 // its free-page list, boltfile.NoFreelist when none fits
	pgid     uint64 // the pages it counts (the file's, when no list fits)
	clock    int64  // the last Timestamp it issued, -1 when unknown
	sound    bool   // its trees are readable, and a free-page list fits
}

// meta is the state as a header would describe it.
func (s fileState) meta(pageSize int64) boltfile.Meta {
	return boltfile.Meta{Magic: boltfile.Magic, Version: boltfile.Version, PageSize: uint32(pageSize),
		Root: s.root, Freelist: s.freelist, Pgid: s.pgid}
}

// maxWeighed bounds the states newestState weighs, each a walk of its
// trees: the states of the latest clocks.
const maxWeighed = 16

// newestState finds the newest state of a file of pages of pageSize
// bytes: the sound state with the latest clock, else (no state is sound)
// the state with the latest clock, whose trees are read as far as they
// can be. rivals are the other sound states with that clock, which may be
// as new. ok is false when the file holds no list of tables at all.
func newestState(f io.ReaderAt, size, pageSize int64) (newest fileState, rivals []fileState, ok bool) {
	r := &boltfile.Reader{F: f, Size: size, PageSize: pageSize, HWM: uint64(size / pageSize)}
	roots, lists := scanPages(r)
	if len(roots) == 0 {
		return fileState{}, nil, false
	}
	var states []fileState
	for _, root := range roots {
		states = append(states, fileState{root: root, freelist: boltfile.NoFreelist, pgid: r.HWM, clock: stateClock(r, root)})
	}
	slices.SortStableFunc(states, func(a, b fileState) int { return cmp.Compare(b.clock, a.clock) })
	found := -1
	for i := range states {
		if (found >= 0 && states[i].clock != states[found].clock) || i == maxWeighed {
			break
		}
		if weigh(r, &states[i], lists); !states[i].sound {
			continue
		}
		if found < 0 {
			found = i
		} else {
			rivals = append(rivals, states[i])
		}
	}
	if found < 0 {
		return states[0], nil, true
	}
	return states[found], rivals, true
}

// scanPages reads every page of the file and returns the pages that can
// be the root of a list of tables (and are not below another such page),
// and the free-page lists.
func scanPages(r *boltfile.Reader) (roots, lists []uint64) {
	var leaves, branches []uint64
	below := map[uint64]bool{}
	for id := uint64(2); id < r.HWM; id++ {
		h, b, err := r.Page(id, boltfile.FlagLeaf, boltfile.FlagBranch, boltfile.FlagFreelist)
		if err != nil {
			continue
		}
		switch h.Flags {
		case boltfile.FlagFreelist:
			lists = append(lists, id)
		case boltfile.FlagBranch:
			branches = append(branches, id)
		case boltfile.FlagLeaf:
			if es, err := boltfile.ParseElems(h, b); err == nil && listOfTables(es) {
				leaves = append(leaves, id)
			}
		}
		id += uint64(h.Overflow)
	}
	for _, id := range branches {
		if ListOfTablesFault(r, id) == "" {
			roots = append(roots, id)
			h, b, _ := r.Page(id, boltfile.FlagBranch)
			es, _ := boltfile.ParseElems(h, b)
			for _, e := range es {
				below[e.Child] = true
			}
		}
	}
	for _, id := range leaves {
		if hasRecords(r, id) {
			roots = append(roots, id)
		}
	}
	return slices.DeleteFunc(roots, func(id uint64) bool { return below[id] }), lists
}

// listOfTables reports whether a leaf's entries can be (part of) a list of
// tables: buckets only.
func listOfTables(es []boltfile.Elem) bool {
	for _, e := range es {
		if !e.Bucket {
			return false
		}
	}
	return len(es) > 0
}

// hasRecords reports whether the leaf id holds the file's own records.
func hasRecords(r *boltfile.Reader, id uint64) bool {
	h, b, err := r.Page(id, boltfile.FlagLeaf)
	if err != nil {
		return false
	}
	es, err := boltfile.ParseElems(h, b)
	return err == nil && slices.ContainsFunc(es, func(e boltfile.Elem) bool { return bytes.Equal(e.Key, values.MetaBucket) })
}

// stateClock reads the clock of the state whose list of tables is at
// root, or -1.
func stateClock(r *boltfile.Reader, root uint64) int64 {
	meta := findEntry(r, root, nil, values.MetaBucket, 0)
	if meta == nil || !meta.Bucket {
		return -1
	}
	mroot, _, inline, err := boltfile.InlinePage(meta.Value)
	if err != nil {
		return -1
	}
	clock := findEntry(r, mroot, inline, values.ClockKey, 0)
	if clock == nil || clock.Bucket || len(clock.Value) != 8 {
		return -1
	}
	return int64(binary.BigEndian.Uint64(clock.Value))
}

// findEntry looks key up in the tree at root (or its inline page), with
// the engine's rule for the way down.
func findEntry(r *boltfile.Reader, root uint64, inline, key []byte, depth int) *boltfile.Elem {
	var h boltfile.PageHead
	var b []byte
	if root == 0 {
		if inline == nil {
			return nil
		}
		h, b = boltfile.ParseHead(inline), inline
	} else {
		var err error
		if h, b, err = r.Page(root, boltfile.FlagLeaf, boltfile.FlagBranch); err != nil {
			return nil
		}
	}
	es, err := boltfile.ParseElems(h, b)
	if err != nil || len(es) == 0 || depth > boltfile.MaxTreeDepth {
		return nil
	}
	if h.Flags == boltfile.FlagBranch {
		keys := make([][]byte, len(es))
		for i, e := range es {
			keys[i] = e.Key
		}
		return findEntry(r, es[boltfile.Slot(keys, key)].Child, nil, key, depth+1)
	}
	for i := range es {
		if bytes.Equal(es[i].Key, key) {
			return &es[i]
		}
	}
	return nil
}

// weigh walks the state's trees and looks for its free-page list among
// lists: one that names no page the state uses, and, with the pages the
// state uses and its own, every page below the highest of them. The state
// is sound when its trees are readable and such a list exists.
func weigh(r *boltfile.Reader, s *fileState, lists []uint64) {
	rc := r.Reach(s.root, values.HoldsBuckets, 0)
	if len(rc.Bad) > 0 {
		return
	}
	used, err := rc.Used()
	if err != nil {
		return
	}
	for _, id := range lists {
		if pgid, ok := fits(r, used, id); ok {
			s.freelist, s.pgid, s.sound = id, pgid, true
			return
		}
	}
}

// fits reports whether the free-page list at page id is the one of the
// state that uses the pages used, and the pages that state counts.
func fits(r *boltfile.Reader, used []uint64, id uint64) (uint64, bool) {
	ids, err := r.Freelist(id)
	if err != nil {
		return 0, false
	}
	h, _ := r.Head(id)
	all := slices.Clone(used)
	mark := func(p uint64) bool {
		w, bit := p/64, uint64(1)<<(p%64)
		if p >= r.HWM || all[w]&bit != 0 {
			return false
		}
		all[w] |= bit
		return true
	}
	for p := id; p <= id+uint64(h.Overflow); p++ {
		if !mark(p) {
			return 0, false
		}
	}
	for _, p := range ids {
		if !mark(p) {
			return 0, false
		}
	}
	// Every page from 2 up to the highest marked is marked.
	top := uint64(0)
	for w := len(all) - 1; w >= 0; w-- {
		if all[w] != 0 {
			top = uint64(w)*64 + uint64(63-bits.LeadingZeros64(all[w]))
			break
		}
	}
	for p := uint64(2); p <= top; p++ {
		if all[p/64]&(1<<(p%64)) == 0 {
			return 0, false
		}
	}
	return top + 1, true
}

// ListOfTablesFault says why the tree at root is not the list of tables,
// or "". Every entry of its leaves is a bucket (of a table, of the file's
// own records, of an import's staging), and unless it is empty (a new
// file), the file's own records are among them.
func ListOfTablesFault(r *boltfile.Reader, root uint64) string {
	seen := map[uint64]bool{}
	entries, records := 0, false
	var walk func(id uint64, depth int) string
	walk = func(id uint64, depth int) string {
		if depth > boltfile.MaxTreeDepth || seen[id] {
			return fmt.Sprintf("its list of tables leads back to page %d", id)
		}
		seen[id] = true
		h, b, err := r.Page(id, boltfile.FlagLeaf, boltfile.FlagBranch)
		if err != nil {
			return "its list of tables: " + err.Error()
		}
		es, err := boltfile.ParseElems(h, b)
		if err != nil {
			return fmt.Sprintf("its list of tables, page %d, cannot be read: %s", id, err)
		}
		for _, e := range es {
			if h.Flags == boltfile.FlagBranch {
				if what := walk(e.Child, depth+1); what != "" {
					return what
				}
				continue
			}
			entries++
			if !e.Bucket {
				return fmt.Sprintf("its root page %d is not the list of tables: page %d holds %q, which is not a bucket (the header leads to a page of a table's, or of the file's own records)", root, id, printable(e.Key))
			}
			records = records || bytes.Equal(e.Key, values.MetaBucket)
		}
		return ""
	}
	if what := walk(root, 0); what != "" {
		return what
	}
	if entries > 0 && !records {
		return fmt.Sprintf("its root page %d is not the list of tables: the file's own records are not in it", root)
	}
	return ""
}
