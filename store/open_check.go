package store

import (
	"fmt"
	"io"

	"github.com/tstable/tstable/store/internal/boltfile"
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
// mark, the file holds every page that mark counts, the root page is a
// data page, and (for writing, because the engine then allocates pages
// from it) the list of free pages names only pages that exist, in order.
// It reports whether the file is empty.
func vetFile(f io.ReaderAt, size int64, path string, write bool) (empty bool, err error) {
	if size == 0 {
		if write {
			return true, nil
		}
		return true, damagef("%s is empty, so it is not a tstable database yet: give another file with --db, or create a table in it (tstable --db %s table create NAME) to make it one", path, path)
	}
	if size < boltfile.PageHeaderSize+boltfile.MetaSize {
		return false, notDatabase(path, fmt.Sprintf("it is only %d bytes long", size), false)
	}
	h := boltfile.ReadHeader(f, size)
	if h.Use < 0 {
		if !h.Magic {
			return false, notDatabase(path, "it does not start with a database header", true)
		}
		return false, damagedError(path, fmt.Sprintf("both copies of its header are unreadable (the first: %s; the second: %s)", h.Metas[0].Fault, h.Metas[1].Fault))
	}
	m := h.Meta()
	if fault := m.Fault(); fault != "" {
		return false, damagedError(path, "its header is unsound: "+fault)
	}
	if need := int64(m.Pgid) * h.PageSize; size < need {
		return false, damagedError(path, fmt.Sprintf("the file is %d bytes long, but its header counts %d pages of %d bytes (%d bytes): it was cut short", size, m.Pgid, h.PageSize, need))
	}
	r := h.Reader(f)
	if _, _, err := r.Page(m.Root, boltfile.FlagLeaf, boltfile.FlagBranch); err != nil {
		return false, damagedError(path, "its root "+err.Error())
	}
	if write && m.Freelist != boltfile.NoFreelist {
		if _, err := r.Freelist(m.Freelist); err != nil {
			return false, damagedError(path, err.Error())
		}
	}
	return false, nil
}
