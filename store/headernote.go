package store

import (
	"fmt"
	"io"

	"github.com/tstable/tstable/store/internal/boltfile"
	"github.com/tstable/tstable/store/internal/dictcopy"
)

// A damaged newest header. The engine keeps two copies of the file's
// header, one per commit in turn, and uses the valid one of the higher
// commit: when the newest is damaged (a crash while the engine writes
// it tears it, and that commit was never confirmed to its writer; other
// damage too), the file opens at the commit before, and the pages the
// newest commit wrote are still in the file until the next write reuses
// them. Recover brings them back (it reads the newest state the pages
// hold, see package repair, states.go). Opening says so (HeaderNote), once.

// HeaderNote says, when the file was opened at the commit before its
// newest because the newest commit's header is damaged (or may have
// been: the damaged copy does not say which commit it was), what
// happened and what to do; "" otherwise.
func (db *DB) HeaderNote() string {
	if p := db.headerNote.Load(); p != nil {
		return *p
	}
	return ""
}

// olderCommitNote is HeaderNote's sentence for the file at path, of size
// bytes, whose header h reads; copies tells that the file keeps a copy of
// its dictionaries in the header (format 3), written beside the header
// in use before each commit.
func olderCommitNote(f io.ReaderAt, size int64, h *boltfile.Header, path string, copies bool) string {
	if h.Use < 0 {
		return ""
	}
	other := h.Metas[1-h.Use]
	if other.Fault == "" || !other.Found {
		return ""
	}
	used := h.Meta().TxID
	newer := uint64(0)
	switch {
	case other.M.Magic == boltfile.Magic && other.M.TxID == used+1:
		newer = other.M.TxID // its commit number reads, though the rest does not
	case copyFor(f, size, h.PageSize, h.Use) == used+1:
		newer = used + 1 // the copy written before that commit, beside the header in use
	case copies || copyFor(f, size, h.PageSize, 1-h.Use) == used:
		return "" // no commit after the one in use was begun: the damaged copy is the older one's
	}
	if newer == 0 {
		return fmt.Sprintf("database %s opened at commit %d: the other copy of its header is damaged, and may have been the newest (commit %d). tstable check %s says more; tstable recover %s NEW brings back what a newer commit wrote, if there was one, as long as no write has reused its pages", path, used, used+1, path, path)
	}
	return fmt.Sprintf("database %s opened at commit %d, the one before its newest: the header of commit %d is damaged, as a crash while committing leaves it (a commit is confirmed to its writer only once its header is whole). What commit %d wrote is still in the file until the next write: tstable recover %s NEW brings it back, and tstable check %s says more", path, used, newer, newer, path, path)
}

// copyFor is the commit the copy in the header's page i was written for
// (spare.go), 0 when it holds none that reads.
func copyFor(f io.ReaderAt, size, pageSize int64, i int) uint64 {
	c, err := dictcopy.Parse(boltfile.Spare(f, size, pageSize, i))
	if err != nil {
		return 0
	}
	return c.TxID
}
