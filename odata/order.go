package odata

import (
	"cmp"
	"strings"
)

// Order is how text is ordered: the keys of a table (so its scans, key
// ranges and continuation tokens) and the string comparisons of a filter
// (gt, ge, lt, le on Edm.String, PartitionKey and RowKey).
//
// The service orders text as .NET's ordinal comparison does, by UTF-16
// code units (Azurite does the same, comparing JavaScript strings), so a
// character past U+FFFF, stored as two surrogates from U+D800 to U+DFFF,
// sorts before the characters U+E000 to U+FFFF: '😀' (U+1F600) lt '\uFFFD'.
// That is UTF16, the order of every table of a tstable file of format 2
// or later and the zero Order. Files of format 1 keep their tables in
// CodePoint order (UTF-8 byte order), in which '😀' sorts after U+FFFD;
// tstable compact rewrites them in the new order.
//
// The two differ only where a text holds a character from U+E000 to
// U+FFFF (the private use area, the presentation forms, the halfwidth and
// fullwidth forms, U+FFFD) where the other holds one past U+FFFF.
type Order uint8

const (
	// UTF16 orders by UTF-16 code units, as the service does.
	UTF16 Order = iota
	// CodePoint orders by Unicode code point, the byte order of UTF-8:
	// the order of files of format 1.
	CodePoint
)

// String names the order.
func (o Order) String() string {
	if o == CodePoint {
		return "code point"
	}
	return "UTF-16"
}

// Compare orders two texts: -1, 0 or +1.
func (o Order) Compare(a, b string) int {
	if o == CodePoint {
		return strings.Compare(a, b)
	}
	return CompareUTF16(a, b)
}

// CompareKeys orders two keys as a table in this order does: by
// PartitionKey, then RowKey.
func (o Order) CompareKeys(a, b Key) int {
	if c := o.Compare(a.PartitionKey, b.PartitionKey); c != 0 {
		return c
	}
	return o.Compare(a.RowKey, b.RowKey)
}

// CompareUTF16 orders two texts by their UTF-16 code units, reading each
// as UTF-8 in place: UTF-8's byte order is code point order, and the two
// orders differ only in where the characters U+E000 to U+FFFF go (after
// the surrogates that encode the characters past U+FFFF, not before), so
// at the first byte where a and b differ it is enough to move the lead
// bytes of those characters, 0xEE and 0xEF, past the lead bytes of the
// four-byte forms (0xF0 to 0xF4), as UTF16Byte does. Bytes that are not
// UTF-8 have a place too: the order is the byte order of the texts with
// every byte mapped by UTF16Byte, so Compare is 0 only for equal texts.
func CompareUTF16(a, b string) int {
	n := min(len(a), len(b))
	i := 0
	for i < n && a[i] == b[i] {
		i++
	}
	if i == n {
		return cmp.Compare(len(a), len(b))
	}
	return cmp.Compare(UTF16Byte(a[i]), UTF16Byte(b[i]))
}

// UTF16Byte maps a byte of UTF-8 to one whose byte order, applied to
// every byte of a text, is the text's UTF-16 order: the lead bytes 0xEE
// and 0xEF (U+E000 to U+FFFF) become 0xF5 and 0xF6, which UTF-8 never
// holds, past the lead bytes of the four-byte forms, and 0xF5 and 0xF6
// become 0xEE and 0xEF; every other byte stays. It is its own inverse. A
// tstable file of format 2 stores its keys so mapped.
func UTF16Byte(c byte) byte {
	switch c {
	case 0xEE, 0xEF:
		return c + 7
	case 0xF5, 0xF6:
		return c - 7
	}
	return c
}
