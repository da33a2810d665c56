package boltfile

import (
	"errors"
	"fmt"
	"io"
	"slices"

	"github.com/tstable/tstable/backend"
)

// ErrDamaged marks every error that reports damage found in the file:
// errors.Is(err, ErrDamaged) tells damage from every other failure. Each
// error of this package that reports damage wraps it, and so does every
// error built on one.
var ErrDamaged = errors.New("the database file is damaged")

// PageError is a page that cannot be read as what it should be: damage.
type PageError struct {
	ID   uint64
	What string // what is wrong with it, said of the page: "is a leaf page where …"
	Free bool   // the page is in use and on the free-page list a write began from
}

func (e *PageError) Error() string { return fmt.Sprintf("page %d %s", e.ID, e.What) }

// Unwrap marks the error as damage.
func (e *PageError) Unwrap() error { return ErrDamaged }

// Reader reads pages from the file with pread, never through a memory
// map, so a page past the end of the file is an error, not a fault.
type Reader struct {
	F        io.ReaderAt
	Size     int64  // the file's length, or what of it the snapshot holds
	PageSize int64  // from the header in use
	HWM      uint64 // pages the header counts
}

// Head reads and checks the header of page id: inside the pages the
// header counts and inside the file, calling itself id.
func (r *Reader) Head(id uint64) (PageHead, error) {
	if err := r.locate(id); err != nil {
		return PageHead{}, err
	}
	var b [PageHeaderSize]byte
	if _, err := r.F.ReadAt(b[:], int64(id)*r.PageSize); err != nil {
		return PageHead{}, ReadError(id, err)
	}
	return r.own(id, b[:])
}

// locate checks that page id lies inside the pages the header counts and
// inside the file.
func (r *Reader) locate(id uint64) error {
	if id < 2 || id >= r.HWM {
		return &PageError{ID: id, What: fmt.Sprintf("is outside the %d pages the file's header counts", r.HWM)}
	}
	if int64(id)*r.PageSize+r.PageSize > r.Size {
		return &PageError{ID: id, What: "lies past the end of the file (the file was cut short)"}
	}
	return nil
}

// own reads the header at the start of b, which must call itself id.
func (r *Reader) own(id uint64, b []byte) (PageHead, error) {
	h := ParseHead(b)
	if h.ID != id {
		return h, &PageError{ID: id, What: "holds something else (it does not carry its own page number)"}
	}
	return h, nil
}

// ReadError says why page id could not be read.
func ReadError(id uint64, err error) error {
	if errors.Is(err, io.EOF) || errors.Is(err, io.ErrUnexpectedEOF) {
		return &PageError{ID: id, What: "lies past the end of the file (the file was cut short)"}
	}
	return &PageError{ID: id, What: "cannot be read: " + backend.DescribeIOError(err)}
}

// Span returns the page count of a page and its overflow, checked
// against the file.
func (r *Reader) Span(h PageHead) (uint64, error) {
	n := uint64(h.Overflow) + 1
	if h.ID+n > r.HWM || h.ID+n < h.ID {
		return 0, &PageError{ID: h.ID, What: fmt.Sprintf("claims %d pages, past the %d the file's header counts", n, r.HWM)}
	}
	if int64(h.ID+n)*r.PageSize > r.Size {
		return 0, &PageError{ID: h.ID, What: "continues past the end of the file (the file was cut short)"}
	}
	return n, nil
}

// Page reads a whole page (with its overflow) of one of the given kinds,
// checked as Head and Read check it, in one read when it has no overflow.
func (r *Reader) Page(id uint64, kinds ...uint16) (PageHead, []byte, error) {
	if err := r.locate(id); err != nil {
		return PageHead{}, nil, err
	}
	b := make([]byte, r.PageSize)
	if _, err := r.F.ReadAt(b, int64(id)*r.PageSize); err != nil {
		return PageHead{}, nil, ReadError(id, err)
	}
	h, err := r.own(id, b)
	if err != nil || h.Overflow > 0 {
		if err == nil {
			return r.Read(h, kinds...)
		}
		return h, nil, err
	}
	if err := kindIn(h, kinds); err != nil {
		return h, nil, err
	}
	return h, b, nil
}

// FirstPageAlone reads leaf page id without the overflow its header
// claims, when that count runs past the file (Span fails) but every
// entry lies in the page itself: the engine's cursor never looks at the
// count, and reads the entries. The head returned claims no overflow.
func (r *Reader) FirstPageAlone(id uint64) (PageHead, []byte, bool) {
	if r.locate(id) != nil {
		return PageHead{}, nil, false
	}
	b := make([]byte, r.PageSize)
	if _, err := r.F.ReadAt(b, int64(id)*r.PageSize); err != nil {
		return PageHead{}, nil, false
	}
	h, err := r.own(id, b)
	if err != nil || h.Flags != FlagLeaf || h.Overflow == 0 {
		return PageHead{}, nil, false
	}
	if _, err := r.Span(h); err == nil {
		return PageHead{}, nil, false
	}
	if _, err := ParseElems(h, b); err != nil {
		return PageHead{}, nil, false
	}
	h.Overflow = 0
	return h, b, true
}

// kindIn checks that the page is of one of the kinds.
func kindIn(h PageHead, kinds []uint16) error {
	if !slices.Contains(kinds, h.Flags) {
		return &PageError{ID: h.ID, What: "is a " + h.Kind() + " page where a data page belongs"}
	}
	return nil
}

// Read reads the page (and overflow) whose header Head has read and
// checked, checking its kind as Page does.
func (r *Reader) Read(h PageHead, kinds ...uint16) (PageHead, []byte, error) {
	id := h.ID
	if err := kindIn(h, kinds); err != nil {
		return h, nil, err
	}
	n, err := r.Span(h)
	if err != nil {
		return h, nil, err
	}
	b := make([]byte, int64(n)*r.PageSize)
	if _, err := r.F.ReadAt(b, int64(id)*r.PageSize); err != nil {
		return h, nil, ReadError(id, err)
	}
	return h, b, nil
}

// Freelist reads the list of free pages at page id, checking every id.
func (r *Reader) Freelist(id uint64) ([]uint64, error) {
	h, b, err := r.Page(id, FlagFreelist)
	if err != nil {
		if pe, ok := err.(*PageError); ok && h.ID == id && h.Flags != FlagFreelist && h.Flags != 0 {
			pe.What = "is a " + h.Kind() + " page where the free-page list belongs"
		}
		return nil, err
	}
	start, count := PageHeaderSize, uint64(h.Count)
	if h.Count == 0xFFFF {
		count = Order.Uint64(b[PageHeaderSize:])
		start += 8
	}
	if count > uint64(len(b)-start)/8 {
		return nil, &PageError{ID: id, What: fmt.Sprintf("(the free-page list) claims %d entries, more than fit in it", count)}
	}
	ids := make([]uint64, count)
	for i := range ids {
		ids[i] = Order.Uint64(b[start+8*i:])
		switch {
		case ids[i] < 2 || ids[i] >= r.HWM:
			return nil, &PageError{ID: id, What: fmt.Sprintf("(the free-page list) names page %d, outside the %d pages the file counts", ids[i], r.HWM)}
		case i > 0 && ids[i] <= ids[i-1]:
			return nil, &PageError{ID: id, What: fmt.Sprintf("(the free-page list) is out of order at page %d", ids[i])}
		}
	}
	return ids, nil
}
