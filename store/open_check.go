package store

import (
	"fmt"
	"io"

	"github.com/tstable/tstable/odata"
)

// header is what the start of a file says about it: both copies of the
// meta, and which one the engine will use.
type header struct {
	size     int64
	metas    [2]metaCopy
	use      int // the copy in use, -1 when neither is valid
	pageSize int64
	magic    bool // some copy carries the database signature
}

// metaCopy is one copy of the meta as found in the file.
type metaCopy struct {
	m     meta
	found bool   // the file is long enough to hold it
	fault string // why it is not valid, "" when it is
}

// meta returns the meta in use.
func (h *header) meta() meta { return h.metas[h.use].m }

// valid is the engine's own test of a meta: signature, version, checksum.
func (m meta) valid() string {
	switch {
	case m.magic != fileMagic:
		return "it does not carry the database signature"
	case m.version != fileVersion:
		return fmt.Sprintf("it is format version %d, and tstable reads version %d", m.version, fileVersion)
	case m.sum != m.want:
		return "its checksum does not match its contents"
	}
	return ""
}

// readMetaAt reads the copy of the meta in the page at off.
func readMetaAt(f io.ReaderAt, size, off int64) metaCopy {
	if off+pageHeaderSize+metaSize > size {
		return metaCopy{fault: "the file ends before it"}
	}
	var b [pageHeaderSize + metaSize]byte
	if _, err := f.ReadAt(b[:], off); err != nil {
		return metaCopy{fault: "it cannot be read: " + describeIOError(err)}
	}
	m, _ := parseMeta(b[pageHeaderSize:])
	return metaCopy{m: m, found: true, fault: m.valid()}
}

// readHeader finds the page size and both metas the way the engine does:
// the page size from the first valid copy (the first page, else the
// second, looked for at each possible page size), and the valid copy with
// the higher transaction id in use.
func readHeader(f io.ReaderAt, size int64) *header {
	h := &header{size: size, use: -1}
	h.metas[0] = readMetaAt(f, size, 0)
	if h.metas[0].fault == "" {
		h.pageSize = int64(h.metas[0].m.pageSize)
	} else {
		for i := 0; i < 15; i++ {
			pos := int64(1024) << i
			if pos >= size-1024 {
				break
			}
			if c := readMetaAt(f, size, pos); c.fault == "" {
				h.pageSize = int64(c.m.pageSize)
				break
			} else if c.m.magic == fileMagic {
				h.magic = true
			}
		}
	}
	if h.pageSize > 0 {
		h.metas[1] = readMetaAt(f, size, h.pageSize)
	} else {
		h.metas[1] = metaCopy{fault: "the page size is unknown, so it cannot be found"}
	}
	for i, c := range h.metas {
		h.magic = h.magic || c.m.magic == fileMagic
		if c.fault == "" && (h.use < 0 || c.m.txid > h.meta().txid) {
			h.use = i
		}
	}
	return h
}

// notDatabase says that the file at path is not a tstable database.
func notDatabase(path, why string, maybeDamaged bool) *odata.Error {
	msg := fmt.Sprintf("%s is not a tstable database: %s", path, why)
	if maybeDamaged {
		msg += fmt.Sprintf(". If it was one, its first pages are destroyed: tstable recover %s NEW copies what can still be read into a new file", path)
	}
	return odata.Errorf(odata.CodeDatabaseDamaged, "%s", msg)
}

// damagedError says that the database at path is damaged, what is wrong,
// and what to do.
func damagedError(path, what string) *odata.Error {
	return odata.Errorf(odata.CodeDatabaseDamaged, "database %s is damaged: %s. tstable makes no further change to it: run tstable check %s to list the damage, then tstable recover %s NEW to copy what can still be read into a new file", path, what, path, path)
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
		return true, odata.Errorf(odata.CodeDatabaseDamaged, "%s is empty, so it is not a tstable database yet: give another file with --db, or create a table in it (tstable --db %s table create NAME) to make it one", path, path)
	}
	if size < pageHeaderSize+metaSize {
		return false, notDatabase(path, fmt.Sprintf("it is only %d bytes long", size), false)
	}
	h := readHeader(f, size)
	if h.use < 0 {
		if !h.magic {
			return false, notDatabase(path, "it does not start with a database header", true)
		}
		return false, damagedError(path, fmt.Sprintf("both copies of its header are unreadable (the first: %s; the second: %s)", h.metas[0].fault, h.metas[1].fault))
	}
	m := h.meta()
	if fault := m.fault(); fault != "" {
		return false, damagedError(path, "its header is unsound: "+fault)
	}
	if need := int64(m.pgid) * h.pageSize; size < need {
		return false, damagedError(path, fmt.Sprintf("the file is %d bytes long, but its header counts %d pages of %d bytes (%d bytes): it was cut short", size, m.pgid, h.pageSize, need))
	}
	r := &pageReader{f: f, size: size, pageSize: h.pageSize, hwm: m.pgid}
	if _, _, err := r.page(m.root, flagLeaf, flagBranch); err != nil {
		return false, damagedError(path, "its root "+err.Error())
	}
	if write && m.freelist != noFreelist {
		if _, err := r.freelist(m.freelist); err != nil {
			return false, damagedError(path, err.Error())
		}
	}
	return false, nil
}
