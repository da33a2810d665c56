package store

import (
	"fmt"
	"io"
	"maps"
	"slices"

	"github.com/tstable/tstable/store/internal/boltfile"
	"github.com/tstable/tstable/store/internal/repair"
	"github.com/tstable/tstable/store/internal/values"
)

// notDatabase says that the file at path is not a tstable database.
func notDatabase(path, why string, maybeDamaged bool) error {
	msg := fmt.Sprintf("%s is not a tstable database: %s", path, why)
	if maybeDamaged {
		msg += fmt.Sprintf(". If it was one, its first pages are destroyed: tstable recover %s NEW copies what can still be read into a new file", path)
	}
	return damagef("%s", msg)
}

// vetFile checks what is cheap to check before the engine maps a file
// into memory and trusts it: the file is not empty (unless it is opened
// for writing, which makes it a new database) nor too short, a valid copy
// of the meta exists and names a sound page size, root and high-water
// mark, the file holds every page that mark counts, the root page is the
// list of tables (see listOfTablesFault), and (for writing, because the
// engine then allocates pages from it) what vetForWriting checks. It reports whether the file is
// empty, and, for writing, damage elsewhere in the file's trees.
func vetFile(f io.ReaderAt, size int64, path string, write bool) (empty bool, elsewhere string, err error) {
	if size == 0 {
		if write {
			return true, "", nil
		}
		return true, "", damagef("%s is empty, so it is not a tstable database yet: give another file with --db, or create a table in it (tstable --db %s table create NAME) to make it one", path, path)
	}
	if size < boltfile.PageHeaderSize+boltfile.MetaSize {
		return false, "", notDatabase(path, fmt.Sprintf("it is only %d bytes long", size), false)
	}
	h := boltfile.ReadHeader(f, size)
	if h.Use < 0 {
		if !h.Magic {
			return false, "", notDatabase(path, "it does not start with a database header", true)
		}
		return false, "", damagedError(path, fmt.Sprintf("both copies of its header are unreadable (the first: %s; the second: %s)", h.Metas[0].Fault, h.Metas[1].Fault))
	}
	m := h.Meta()
	if fault := m.Fault(); fault != "" {
		return false, "", damagedError(path, "its header is unsound: "+fault)
	}
	if need := int64(m.Pgid) * h.PageSize; size < need {
		return false, "", damagedError(path, fmt.Sprintf("the file is %d bytes long, but its header counts %d pages of %d bytes (%d bytes): it was cut short", size, m.Pgid, h.PageSize, need))
	}
	r := h.Reader(f)
	if _, _, err := r.Page(m.Root, boltfile.FlagLeaf, boltfile.FlagBranch); err != nil {
		return false, "", damagedError(path, "its root "+err.Error())
	}
	if write {
		elsewhere, err = vetForWriting(r, m, path)
	} else if what := repair.ListOfTablesFault(r, m.Root); what != "" {
		err = damagedError(path, what) // a read would find no table, or take a table's page for the list
	}
	return false, elsewhere, err
}

// vetForWriting checks, before the engine writes a file, what its writes
// rely on: the header's root page is the list of tables (every entry of
// its leaves a bucket, the file's own records among them), the free-page
// list is readable and names no page in use (the engine would write over
// it: a live entity, a branch page). It returns damage found elsewhere in
// the file's trees (branch pages, the way down to the leaves): the DB
// opens, refuses every write, and reads the sound parts.
func vetForWriting(r *boltfile.Reader, m boltfile.Meta, path string) (elsewhere string, err error) {
	if what := repair.ListOfTablesFault(r, m.Root); what != "" {
		return "", damagedError(path, what)
	}
	var free []uint64
	var listPages uint64
	if m.Freelist != boltfile.NoFreelist {
		if free, err = r.Freelist(m.Freelist); err != nil {
			return "", damagedError(path, err.Error())
		}
		h, _ := r.Head(m.Freelist)
		listPages = uint64(h.Overflow) + 1
	}
	rc := r.Reach(m.Root, values.HoldsBuckets, 0)
	for _, id := range free {
		used, err := rc.InUse(id)
		if err != nil {
			return err.Error(), nil
		}
		if used || (id >= m.Freelist && id < m.Freelist+listPages) {
			return "", damagedError(path, fmt.Sprintf("page %d is in use but also on the list of free pages, so a write would overwrite it", id))
		}
	}
	if len(rc.Bad) > 0 {
		id := slices.Min(slices.Collect(maps.Keys(rc.Bad)))
		return fmt.Sprintf("page %d %s", id, rc.Bad[id]), nil
	}
	return "", nil
}
