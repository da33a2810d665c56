package store

import (
	"os"

	"github.com/tstable/tstable/store/internal/boltfile"
)

// trimTail cuts the file f, of a writer about to close after a load, to
// the pages its header counts (the larger count of its two copies): the
// engine grows the file by allocStep at a time, and leaves what it did not
// use at the end. (Only after a load: a file cut after each small write
// would grow again, with a sync, at the next.) Nothing reads past those
// pages (Open checks the file is at least that long), and the next writer
// grows the file again as it needs. Where the system cannot cut a file
// that is mapped (Windows), or the cut fails, the file keeps its length.
func trimTail(f *os.File) {
	if !trimOnClose || f == nil {
		return
	}
	st, err := f.Stat()
	if err != nil {
		return
	}
	h := boltfile.ReadHeader(f, st.Size())
	if h.Use < 0 || h.PageSize <= 0 {
		return
	}
	size := int64(h.Meta().Pgid) * h.PageSize
	for _, c := range h.Metas {
		if c.Fault == "" {
			size = max(size, int64(c.M.Pgid)*h.PageSize)
		}
	}
	if size > 0 && st.Size() > size {
		f.Truncate(size)
	}
}
