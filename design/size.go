package design

import (
	"unicode/utf8"

	"github.com/tstable/tstable/odata"
)

// The service's limits that the size checks compare against.
const (
	// MaxEntityBytes is the most property data one entity may hold (1 MiB).
	MaxEntityBytes = 1 << 20
	// MaxProperties is the most user properties one entity may have.
	MaxProperties = 252
	// MaxValueBytes is the most a String (as UTF-16) or Binary value may hold (64 KiB).
	MaxValueBytes = 64 << 10
)

// EntitySize is an entity's size by the service's formula: 4 bytes, plus
// the two keys as UTF-16, plus for each property 8 bytes, its name as
// UTF-16 and its value's size (see ValueSize).
func EntitySize(e *odata.Entity) int64 {
	n := int64(4 + (utf16Len(e.PartitionKey)+utf16Len(e.RowKey))*2)
	for i := range e.Properties {
		p := &e.Properties[i]
		n += int64(8+utf16Len(p.Name)*2) + int64(ValueSize(p.Value))
	}
	return n
}

// ValueSize is the bytes a value takes in the service's formula: String
// 4 + its UTF-16 bytes, Binary 4 + its bytes, Int32 4, Int64, Double and
// DateTime 8, Guid 16, Boolean 1.
func ValueSize(v odata.Value) int {
	switch v.Type {
	case odata.EdmString:
		return 4 + 2*utf16Len(v.Str)
	case odata.EdmBinary:
		return 4 + len(v.Str)
	case odata.EdmInt32:
		return 4
	case odata.EdmInt64, odata.EdmDouble, odata.EdmDateTime:
		return 8
	case odata.EdmGuid:
		return 16
	case odata.EdmBoolean:
		return 1
	}
	return 0
}

// payloadSize is the part of a value that the 64 KiB limit applies to:
// the UTF-16 bytes of a String, the bytes of a Binary, else 0.
func payloadSize(v odata.Value) int {
	switch v.Type {
	case odata.EdmString:
		return 2 * utf16Len(v.Str)
	case odata.EdmBinary:
		return len(v.Str)
	}
	return 0
}

// utf16Len counts the UTF-16 code units of s.
func utf16Len(s string) int {
	for i := 0; i < len(s); i++ {
		if s[i] >= utf8.RuneSelf {
			n := i
			for _, r := range s[i:] {
				if r >= 0x10000 {
					n += 2
				} else {
					n++
				}
			}
			return n
		}
	}
	return len(s)
}

// charLen counts the characters of a key as the service does (UTF-16 units).
func charLen(s string) int { return utf16Len(s) }
