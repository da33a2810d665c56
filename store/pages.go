package store

import (
	"encoding/binary"
	"errors"
	"fmt"
	"hash/fnv"
	"io"
	"slices"
)

// The file's layout, as bbolt writes it (format version 2), read here
// without trusting it: every offset and length is checked before use.
//
//	page header (16 bytes): id u64, flags u16, count u16, overflow u32
//	a page spans 1+overflow pages of pageSize bytes
//	meta (after the header of pages 0 and 1): magic u32, version u32,
//	  pageSize u32, flags u32, root bucket {root u64, sequence u64},
//	  freelist u64, pgid u64 (pages in use: the high-water mark), txid u64,
//	  checksum u64 (FNV-64a of the 56 bytes before it)
//	leaf element (16 bytes): flags u32, pos u32, ksize u32, vsize u32
//	branch element (16 bytes): pos u32, ksize u32, child page u64
//	  pos counts from the element's own first byte
//	freelist: count page ids u64 (count 0xFFFF: the first u64 is the count)
//	a bucket's value: root u64, sequence u64, then, when root is 0, the
//	  bucket's only page inline
//
// Integers are in the machine's byte order.
const (
	pageHeaderSize   = 16
	elemSize         = 16
	metaSize         = 64
	metaSumOffset    = 56
	bucketHeaderSize = 16

	flagBranch   = 0x01
	flagLeaf     = 0x02
	flagMeta     = 0x04
	flagFreelist = 0x10

	bucketLeafFlag = 0x01

	fileMagic   = 0xED0CDAED
	fileVersion = 2
	noFreelist  = ^uint64(0)

	// maxTreeDepth bounds any walk down a tree: a tree of 2^64 keys with
	// two keys a page is 64 deep, so deeper means a page leads back up.
	maxTreeDepth = 64
)

var order = binary.NativeEndian

// meta is one of the two copies of the file's header.
type meta struct {
	magic, version, pageSize uint32
	root, freelist, pgid     uint64
	txid                     uint64
	sum, want                uint64
}

// parseMeta reads a meta from the bytes after a meta page's header.
func parseMeta(b []byte) (meta, bool) {
	if len(b) < metaSize {
		return meta{}, false
	}
	h := fnv.New64a()
	h.Write(b[:metaSumOffset])
	return meta{
		magic: order.Uint32(b[0:]), version: order.Uint32(b[4:]), pageSize: order.Uint32(b[8:]),
		root: order.Uint64(b[16:]), freelist: order.Uint64(b[32:]), pgid: order.Uint64(b[40:]),
		txid: order.Uint64(b[48:]), sum: order.Uint64(b[56:]), want: h.Sum64(),
	}, true
}

// fault says what is wrong with a meta, or "" when it is sound.
func (m meta) fault() string {
	if what := m.valid(); what != "" {
		return what
	}
	switch {
	case m.pageSize < 1024 || m.pageSize > 1<<24 || m.pageSize&(m.pageSize-1) != 0:
		return fmt.Sprintf("it names an impossible page size, %d bytes", m.pageSize)
	case m.pgid < 4 || m.root < 2 || m.root >= m.pgid:
		return fmt.Sprintf("its root page %d is outside the %d pages it counts", m.root, m.pgid)
	case m.freelist != noFreelist && (m.freelist < 2 || m.freelist >= m.pgid):
		return fmt.Sprintf("its free-page list, page %d, is outside the %d pages it counts", m.freelist, m.pgid)
	}
	return ""
}

// pageHead is a page's header.
type pageHead struct {
	id       uint64
	flags    uint16
	count    uint16
	overflow uint32
}

func parseHead(b []byte) pageHead {
	return pageHead{id: order.Uint64(b[0:]), flags: order.Uint16(b[8:]), count: order.Uint16(b[10:]), overflow: order.Uint32(b[12:])}
}

func (h pageHead) kind() string {
	switch h.flags {
	case flagBranch:
		return "branch"
	case flagLeaf:
		return "leaf"
	case flagMeta:
		return "header"
	case flagFreelist:
		return "free-page list"
	}
	return fmt.Sprintf("unknown (type %#x)", h.flags)
}

// elem is one entry of a leaf or branch page. For a leaf, value and
// bucket are set; for a branch, child.
type elem struct {
	key, value []byte
	bucket     bool
	child      uint64
}

// parseElems reads the entries of a leaf or branch page held in b (its
// whole span, header included), checking that each lies inside b.
func parseElems(h pageHead, b []byte) ([]elem, error) { return appendElems(nil, h, b) }

// appendElems is parseElems reusing dst's room for the entries.
func appendElems(dst []elem, h pageHead, b []byte) ([]elem, error) {
	n := int(h.count)
	if pageHeaderSize+n*elemSize > len(b) {
		return nil, fmt.Errorf("it claims %d entries, more than fit in it", n)
	}
	out := slices.Grow(dst[:0], n)[:n]
	clear(out)
	for i := range out {
		at := pageHeaderSize + i*elemSize
		e := b[at : at+elemSize]
		var pos, ksize, vsize uint64
		if h.flags == flagLeaf {
			flags := order.Uint32(e[0:])
			pos, ksize, vsize = uint64(order.Uint32(e[4:])), uint64(order.Uint32(e[8:])), uint64(order.Uint32(e[12:]))
			out[i].bucket = flags&bucketLeafFlag != 0
		} else {
			pos, ksize = uint64(order.Uint32(e[0:])), uint64(order.Uint32(e[4:]))
			out[i].child = order.Uint64(e[8:])
		}
		start := uint64(at) + pos
		end := start + ksize + vsize
		if end > uint64(len(b)) || (start < uint64(pageHeaderSize+n*elemSize) && ksize+vsize > 0) {
			return nil, fmt.Errorf("its entry %d points outside the page", i)
		}
		out[i].key = b[start : start+ksize : start+ksize]
		if h.flags == flagLeaf {
			out[i].value = b[start+ksize : end : end]
		}
	}
	return out, nil
}

// pageReader reads pages from the file with pread, never through a
// memory map, so a page past the end of the file is an error, not a fault.
type pageReader struct {
	f        io.ReaderAt
	size     int64  // the file's length
	pageSize int64  // from the header in use
	hwm      uint64 // pages the header counts
}

// pageError is a page that cannot be read as what it should be.
type pageError struct {
	id   uint64
	what string
}

func (e *pageError) Error() string { return fmt.Sprintf("page %d %s", e.id, e.what) }

// head reads and checks the header of page id: inside the pages the
// header counts and inside the file, calling itself id.
func (r *pageReader) head(id uint64) (pageHead, error) {
	if id < 2 || id >= r.hwm {
		return pageHead{}, &pageError{id, fmt.Sprintf("is outside the %d pages the file's header counts", r.hwm)}
	}
	off := int64(id) * r.pageSize
	if off+r.pageSize > r.size {
		return pageHead{}, &pageError{id, "lies past the end of the file (the file was cut short)"}
	}
	var b [pageHeaderSize]byte
	if _, err := r.f.ReadAt(b[:], off); err != nil {
		return pageHead{}, readError(id, err)
	}
	h := parseHead(b[:])
	if h.id != id {
		return h, &pageError{id, "holds something else (it does not carry its own page number)"}
	}
	return h, nil
}

// readError says why page id could not be read.
func readError(id uint64, err error) error {
	if errors.Is(err, io.EOF) || errors.Is(err, io.ErrUnexpectedEOF) {
		return &pageError{id, "lies past the end of the file (the file was cut short)"}
	}
	return &pageError{id, "cannot be read: " + describeIOError(err)}
}

// span returns the page count of a page and its overflow, checked
// against the file.
func (r *pageReader) span(h pageHead) (uint64, error) {
	n := uint64(h.overflow) + 1
	if h.id+n > r.hwm || h.id+n < h.id {
		return 0, &pageError{h.id, fmt.Sprintf("claims %d pages, past the %d the file's header counts", n, r.hwm)}
	}
	if int64(h.id+n)*r.pageSize > r.size {
		return 0, &pageError{h.id, "continues past the end of the file (the file was cut short)"}
	}
	return n, nil
}

// page reads a whole page (with its overflow) of one of the given kinds.
func (r *pageReader) page(id uint64, kinds ...uint16) (pageHead, []byte, error) {
	h, err := r.head(id)
	if err != nil {
		return h, nil, err
	}
	return r.read(h, kinds...)
}

// read reads the page (and overflow) whose header head has read and
// checked, checking its kind as page does.
func (r *pageReader) read(h pageHead, kinds ...uint16) (pageHead, []byte, error) {
	id := h.id
	ok := false
	for _, k := range kinds {
		ok = ok || h.flags == k
	}
	if !ok {
		return h, nil, &pageError{id, "is a " + h.kind() + " page where a data page belongs"}
	}
	n, err := r.span(h)
	if err != nil {
		return h, nil, err
	}
	b := make([]byte, int64(n)*r.pageSize)
	if _, err := r.f.ReadAt(b, int64(id)*r.pageSize); err != nil {
		return h, nil, readError(id, err)
	}
	return h, b, nil
}

// freelist reads the list of free pages, checking every id.
func (r *pageReader) freelist(id uint64) ([]uint64, error) {
	h, b, err := r.page(id, flagFreelist)
	if err != nil {
		if pe, ok := err.(*pageError); ok && h.id == id && h.flags != flagFreelist && h.flags != 0 {
			pe.what = "is a " + h.kind() + " page where the free-page list belongs"
		}
		return nil, err
	}
	start, count := pageHeaderSize, uint64(h.count)
	if h.count == 0xFFFF {
		count = order.Uint64(b[pageHeaderSize:])
		start += 8
	}
	if count > uint64(len(b)-start)/8 {
		return nil, &pageError{id, fmt.Sprintf("(the free-page list) claims %d entries, more than fit in it", count)}
	}
	ids := make([]uint64, count)
	for i := range ids {
		ids[i] = order.Uint64(b[start+8*i:])
		switch {
		case ids[i] < 2 || ids[i] >= r.hwm:
			return nil, &pageError{id, fmt.Sprintf("(the free-page list) names page %d, outside the %d pages the file counts", ids[i], r.hwm)}
		case i > 0 && ids[i] <= ids[i-1]:
			return nil, &pageError{id, fmt.Sprintf("(the free-page list) is out of order at page %d", ids[i])}
		}
	}
	return ids, nil
}

// inlinePage returns the page held inside a bucket's value, when the
// bucket has no page of its own (root 0), or an error saying why the
// value cannot be a bucket.
func inlinePage(v []byte) (root uint64, h pageHead, b []byte, err error) {
	if len(v) < bucketHeaderSize {
		return 0, h, nil, fmt.Errorf("its bucket header is %d bytes long, not %d", len(v), bucketHeaderSize)
	}
	root = order.Uint64(v)
	if root != 0 {
		return root, h, nil, nil
	}
	b = v[bucketHeaderSize:]
	if len(b) < pageHeaderSize {
		return 0, h, nil, fmt.Errorf("its inline page is cut short")
	}
	h = parseHead(b)
	if h.flags != flagLeaf {
		return 0, h, nil, fmt.Errorf("its inline page is a %s page, not a leaf", h.kind())
	}
	return 0, h, b, nil
}
