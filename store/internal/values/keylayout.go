package values

import (
	"unsafe"

	"github.com/tstable/tstable/odata"
)

// Layout is how a file of one format stores its keys: the format
// version itself (see fileformat.go). Format 1 stores PartitionKey 0x00
// RowKey as UTF-8, so its tables are in code point order; format 2 maps
// every byte of both keys by odata.UTF16Byte (0xEE and 0xEF, the lead
// bytes of U+E000 to U+FFFF, become 0xF5 and 0xF6, which UTF-8 never
// holds, and back), so that the engine's byte order of the stored keys
// is the service's order of the keys, UTF-16 code units, at the same
// length. 0x00 cannot occur in a key, so it still separates the two;
// byte order is table order either way.
type Layout uint64

// Order is the order of the file's tables.
func (l Layout) Order() odata.Order {
	if !l.Mapped() {
		return odata.CodePoint
	}
	return odata.UTF16
}

// Mapped reports whether the layout maps the keys' bytes (format 2 and
// later; the zero layout is format 1's).
func (l Layout) Mapped() bool { return l >= 2 }

// AppendPart appends one key, as stored.
func (l Layout) AppendPart(dst []byte, s string) []byte {
	if !l.Mapped() {
		return append(dst, s...)
	}
	for i := 0; i < len(s); i++ {
		dst = append(dst, odata.UTF16Byte(s[i]))
	}
	return dst
}

// Key is the stored key of (pk, rk).
func (l Layout) Key(pk, rk string) []byte {
	return l.AppendKey(make([]byte, 0, len(pk)+1+len(rk)), pk, rk)
}

// AppendKey appends the stored key of (pk, rk).
func (l Layout) AppendKey(dst []byte, pk, rk string) []byte {
	dst = l.AppendPart(dst, pk)
	dst = append(dst, 0)
	return l.AppendPart(dst, rk)
}

// PartitionStart and PartitionEnd bound the stored keys of partition pk:
// every one lies in [pk 0x00, pk 0x01).
func (l Layout) PartitionStart(pk string) []byte { return append(l.AppendPart(nil, pk), 0) }
func (l Layout) PartitionEnd(pk string) []byte   { return append(l.AppendPart(nil, pk), 1) }

// Keys returns the two keys of a stored key, as text.
func (l Layout) Keys(k []byte) (pk, rk string) {
	p, r := SplitKey(k)
	return l.text(p), l.text(r)
}

// text is one stored key part as text, a copy.
func (l Layout) text(part []byte) string {
	if !l.Mapped() {
		return string(part)
	}
	b := make([]byte, len(part))
	for i, c := range part {
		b[i] = odata.UTF16Byte(c)
	}
	return unsafe.String(unsafe.SliceData(b), len(b))
}

// ODataKey returns the two keys of a stored key as an odata.Key.
func (l Layout) ODataKey(k []byte) odata.Key {
	pk, rk := l.Keys(k)
	return odata.Key{PartitionKey: pk, RowKey: rk}
}

// View is one stored key part as text without copying when it can be:
// the part itself when the layout maps nothing in it (most keys), else
// the text written into *buf. The text is valid while the part and *buf
// are.
func (l Layout) View(part []byte, buf *[]byte) string {
	if l.Mapped() {
		for i, c := range part {
			if c >= 0xEE && odata.UTF16Byte(c) != c {
				return l.viewMapped(part, i, buf)
			}
		}
	}
	return bytesString(part)
}

// viewMapped is view's slow way, for a part whose byte at i is mapped.
func (l Layout) viewMapped(part []byte, i int, buf *[]byte) string {
	b := append((*buf)[:0], part[:i]...)
	for _, c := range part[i:] {
		b = append(b, odata.UTF16Byte(c))
	}
	*buf = b
	return bytesString(b)
}
