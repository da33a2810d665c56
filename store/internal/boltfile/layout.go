package boltfile

import (
	"encoding/binary"
	"fmt"
	"hash/fnv"
	"slices"
)

// The file's layout, as bbolt writes it (format Version), read here
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
// Integers are in the machine's byte order (Order).
const (
	PageHeaderSize   = 16
	ElemSize         = 16
	MetaSize         = 64
	MetaSumOffset    = 56
	BucketHeaderSize = 16

	FlagBranch   = 0x01
	FlagLeaf     = 0x02
	FlagMeta     = 0x04
	FlagFreelist = 0x10

	// BucketLeafFlag marks a leaf entry whose value is a bucket.
	BucketLeafFlag = 0x01

	Magic   = 0xED0CDAED
	Version = 2
	// NoFreelist is the free-page list's id when the file keeps none.
	NoFreelist = ^uint64(0)

	// MaxTreeDepth bounds any walk down a tree: a tree of 2^64 keys with
	// two keys a page is 64 deep, so deeper means a page leads back up.
	MaxTreeDepth = 64
)

// Order is the byte order of the file's integers: the machine's.
var Order = binary.NativeEndian

// Meta is one of the two copies of the file's header.
type Meta struct {
	Magic, Version, PageSize uint32
	Root, Freelist, Pgid     uint64
	TxID                     uint64
	Sum, Want                uint64 // the checksum stored, and the one its bytes have
}

// ParseMeta reads a meta from the bytes after a meta page's header.
func ParseMeta(b []byte) (Meta, bool) {
	if len(b) < MetaSize {
		return Meta{}, false
	}
	h := fnv.New64a()
	h.Write(b[:MetaSumOffset])
	return Meta{
		Magic: Order.Uint32(b[0:]), Version: Order.Uint32(b[4:]), PageSize: Order.Uint32(b[8:]),
		Root: Order.Uint64(b[16:]), Freelist: Order.Uint64(b[32:]), Pgid: Order.Uint64(b[40:]),
		TxID: Order.Uint64(b[48:]), Sum: Order.Uint64(b[56:]), Want: h.Sum64(),
	}, true
}

// Valid is the engine's own test of a meta: signature, version, checksum.
// It says what is wrong, or "" when the meta passes.
func (m Meta) Valid() string {
	switch {
	case m.Magic != Magic:
		return "it does not carry the database signature"
	case m.Version != Version:
		return fmt.Sprintf("it is format version %d, and tstable reads version %d", m.Version, Version)
	case m.Sum != m.Want:
		return "its checksum does not match its contents"
	}
	return ""
}

// Fault says what is wrong with a meta, or "" when it is sound: valid,
// with a possible page size, and a root and free-page list among the
// pages it counts.
func (m Meta) Fault() string {
	if what := m.Valid(); what != "" {
		return what
	}
	switch {
	case !PossiblePageSize(int64(m.PageSize)):
		return fmt.Sprintf("it names an impossible page size, %d bytes", m.PageSize)
	case m.Pgid < 4 || m.Root < 2 || m.Root >= m.Pgid:
		return fmt.Sprintf("its root page %d is outside the %d pages it counts", m.Root, m.Pgid)
	case m.Freelist != NoFreelist && (m.Freelist < 2 || m.Freelist >= m.Pgid):
		return fmt.Sprintf("its free-page list, page %d, is outside the %d pages it counts", m.Freelist, m.Pgid)
	}
	return ""
}

// PossiblePageSize reports whether n bytes can be a file's page size: a
// power of two from 1 KiB to 16 MiB.
func PossiblePageSize(n int64) bool { return n >= 1024 && n <= 1<<24 && n&(n-1) == 0 }

// PageHead is a page's header.
type PageHead struct {
	ID       uint64
	Flags    uint16
	Count    uint16
	Overflow uint32
}

// ParseHead reads a page header from the first PageHeaderSize bytes of b.
func ParseHead(b []byte) PageHead {
	return PageHead{ID: Order.Uint64(b[0:]), Flags: Order.Uint16(b[8:]), Count: Order.Uint16(b[10:]), Overflow: Order.Uint32(b[12:])}
}

// Kind names the page's kind for people.
func (h PageHead) Kind() string {
	switch h.Flags {
	case FlagBranch:
		return "branch"
	case FlagLeaf:
		return "leaf"
	case FlagMeta:
		return "header"
	case FlagFreelist:
		return "free-page list"
	}
	return fmt.Sprintf("unknown (type %#x)", h.Flags)
}

// Elem is one entry of a leaf or branch page. For a leaf, Value and
// Bucket are set; for a branch, Child.
type Elem struct {
	Key, Value []byte
	Bucket     bool
	Child      uint64
}

// ParseElems reads the entries of a leaf or branch page held in b (its
// whole span, header included), checking that each lies inside b.
func ParseElems(h PageHead, b []byte) ([]Elem, error) { return AppendElems(nil, h, b) }

// AppendElems is ParseElems reusing dst's room for the entries.
func AppendElems(dst []Elem, h PageHead, b []byte) ([]Elem, error) {
	n := int(h.Count)
	if PageHeaderSize+n*ElemSize > len(b) {
		return nil, fmt.Errorf("it claims %d entries, more than fit in it", n)
	}
	out := slices.Grow(dst[:0], n)[:n]
	clear(out)
	for i := range out {
		at := PageHeaderSize + i*ElemSize
		e := b[at : at+ElemSize]
		var pos, ksize, vsize uint64
		if h.Flags == FlagLeaf {
			flags := Order.Uint32(e[0:])
			pos, ksize, vsize = uint64(Order.Uint32(e[4:])), uint64(Order.Uint32(e[8:])), uint64(Order.Uint32(e[12:]))
			out[i].Bucket = flags&BucketLeafFlag != 0
		} else {
			pos, ksize = uint64(Order.Uint32(e[0:])), uint64(Order.Uint32(e[4:]))
			out[i].Child = Order.Uint64(e[8:])
		}
		start := uint64(at) + pos
		end := start + ksize + vsize
		if end > uint64(len(b)) || (start < uint64(PageHeaderSize+n*ElemSize) && ksize+vsize > 0) {
			return nil, fmt.Errorf("its entry %d points outside the page", i)
		}
		out[i].Key = b[start : start+ksize : start+ksize]
		if h.Flags == FlagLeaf {
			out[i].Value = b[start+ksize : end : end]
		}
	}
	return out, nil
}

// BucketSequence returns the sequence a bucket's value holds (the
// engine's Bucket.Sequence), 0 when the value is too short to hold one.
func BucketSequence(v []byte) uint64 {
	if len(v) < BucketHeaderSize {
		return 0
	}
	return Order.Uint64(v[8:])
}

// InlinePage returns the page held inside a bucket's value, when the
// bucket has no page of its own (root 0), or an error saying why the
// value cannot be a bucket.
func InlinePage(v []byte) (root uint64, h PageHead, b []byte, err error) {
	if len(v) < BucketHeaderSize {
		return 0, h, nil, fmt.Errorf("its bucket header is %d bytes long, not %d", len(v), BucketHeaderSize)
	}
	root = Order.Uint64(v)
	if root != 0 {
		return root, h, nil, nil
	}
	b = v[BucketHeaderSize:]
	if len(b) < PageHeaderSize {
		return 0, h, nil, fmt.Errorf("its inline page is cut short")
	}
	h = ParseHead(b)
	if h.Flags != FlagLeaf {
		return 0, h, nil, fmt.Errorf("its inline page is a %s page, not a leaf", h.Kind())
	}
	return 0, h, b, nil
}
