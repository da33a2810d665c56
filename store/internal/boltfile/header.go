package boltfile

import (
	"io"

	"github.com/tstable/tstable/backend"
)

// Header is what the start of a file says about it: both copies of the
// meta, and which one the engine uses.
type Header struct {
	Size     int64
	Metas    [2]MetaCopy
	Use      int // the copy in use, -1 when neither is valid
	PageSize int64
	Magic    bool // some copy carries the database signature
}

// MetaCopy is one copy of the meta as found in the file.
type MetaCopy struct {
	M     Meta
	Found bool   // the file is long enough to hold it
	Fault string // why it is not valid, "" when it is
}

// Meta returns the meta in use.
func (h *Header) Meta() Meta { return h.Metas[h.Use].M }

// ReadMetaAt reads the copy of the meta in the page at off.
func ReadMetaAt(f io.ReaderAt, size, off int64) MetaCopy {
	if off+PageHeaderSize+MetaSize > size {
		return MetaCopy{Fault: "the file ends before it"}
	}
	var b [PageHeaderSize + MetaSize]byte
	if _, err := f.ReadAt(b[:], off); err != nil {
		return MetaCopy{Fault: "it cannot be read: " + backend.DescribeIOError(err)}
	}
	m, _ := ParseMeta(b[PageHeaderSize:])
	return MetaCopy{M: m, Found: true, Fault: m.Valid()}
}

// ReadHeader finds the page size and both metas the way the engine does:
// the page size from the first valid copy (the first page, else the
// second, looked for at each possible page size), and the valid copy with
// the higher transaction id in use.
func ReadHeader(f io.ReaderAt, size int64) *Header {
	h := &Header{Size: size, Use: -1}
	h.Metas[0] = ReadMetaAt(f, size, 0)
	if h.Metas[0].Fault == "" {
		h.PageSize = int64(h.Metas[0].M.PageSize)
	} else {
		for i := 0; i < 15; i++ {
			pos := int64(1024) << i
			if pos >= size-1024 {
				break
			}
			if c := ReadMetaAt(f, size, pos); c.Fault == "" {
				h.PageSize = int64(c.M.PageSize)
				break
			} else if c.M.Magic == Magic {
				h.Magic = true
			}
		}
	}
	if h.PageSize > 0 {
		h.Metas[1] = ReadMetaAt(f, size, h.PageSize)
	} else {
		h.Metas[1] = MetaCopy{Fault: "the page size is unknown, so it cannot be found"}
	}
	for i, c := range h.Metas {
		h.Magic = h.Magic || c.M.Magic == Magic
		if c.Fault == "" && (h.Use < 0 || c.M.TxID > h.Meta().TxID) {
			h.Use = i
		}
	}
	return h
}

// Reader returns a reader of the pages the meta in use counts, in a file
// of h.Size bytes.
func (h *Header) Reader(f io.ReaderAt) *Reader {
	return &Reader{F: f, Size: h.Size, PageSize: h.PageSize, HWM: h.Meta().Pgid}
}

// SpareOffset is where the spare bytes of a meta page (pages 0 and 1)
// begin: past its page header and the meta (80 bytes), with room to
// spare. The engine reads nothing of a meta page past the meta, and
// writes the whole page, the rest zeros, each time it writes a meta (see
// the engine's rules in the package doc), so the spare bytes of the copy
// it is not writing keep what is written there until its next commit.
const SpareOffset = 256

// Spare returns the spare bytes of meta page i (0 or 1) of a file of
// size bytes with pages of pageSize; nil when the file does not hold
// them.
func Spare(f io.ReaderAt, size, pageSize int64, i int) []byte {
	if !PossiblePageSize(pageSize) || i < 0 || i > 1 {
		return nil
	}
	off := int64(i)*pageSize + SpareOffset
	if off+pageSize-SpareOffset > size {
		return nil
	}
	b := make([]byte, pageSize-SpareOffset)
	if _, err := f.ReadAt(b, off); err != nil {
		return nil
	}
	return b
}
