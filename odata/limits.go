package odata

import (
	"unicode/utf16"
	"unicode/utf8"
)

// The service's limits.
const (
	MaxKeyLength       = 1024     // characters in a PartitionKey or RowKey
	MaxProperties      = 252      // user properties per entity
	MaxPropertyName    = 255      // characters in a property name
	MaxValueBytes      = 64 << 10 // a String (as UTF-16) or Binary value
	MaxEntityBytes     = 1 << 20  // an entity, by the service's size formula
	MaxBatchOperations = 100
	MaxBatchBytes      = 4 << 20
)

// UTF16Len is the number of UTF-16 code units s takes: the service's unit
// for the length of keys, names and strings.
func UTF16Len(s string) int {
	i := asciiPrefix(s)
	if i == len(s) {
		return len(s)
	}
	n := i
	for _, r := range s[i:] {
		n += utf16.RuneLen(r)
	}
	return n
}

// asciiPrefix is the length of the longest prefix of s that is ASCII,
// found eight bytes at a time.
func asciiPrefix(s string) int {
	i := 0
	for ; i+8 <= len(s); i += 8 {
		w := uint64(s[i]) | uint64(s[i+1])<<8 | uint64(s[i+2])<<16 | uint64(s[i+3])<<24 |
			uint64(s[i+4])<<32 | uint64(s[i+5])<<40 | uint64(s[i+6])<<48 | uint64(s[i+7])<<56
		if w&0x8080808080808080 != 0 {
			break
		}
	}
	for ; i < len(s); i++ {
		if s[i] >= utf8.RuneSelf {
			break
		}
	}
	return i
}

// ValueSize is the bytes a value takes in the service's entity-size
// formula: String 4 + its UTF-16 bytes, Binary 4 + its bytes, Int32 4,
// Guid 16, Boolean 1, Int64, Double and DateTime 8.
func ValueSize(v Value) int {
	switch v.Type {
	case EdmString:
		return 4 + UTF16Len(v.Str)*2
	case EdmBinary:
		return 4 + len(v.Str)
	case EdmInt32:
		return 4
	case EdmGuid:
		return 16
	case EdmBoolean:
		return 1
	}
	return 8
}

// EntitySize is the entity's size by the service's formula: 4 bytes, plus
// twice the length of both keys, plus for each property 8 bytes, twice the
// name's length and the value's size.
func EntitySize(e *Entity) int {
	n := 4 + (UTF16Len(e.PartitionKey)+UTF16Len(e.RowKey))*2
	for _, p := range e.Properties {
		n += 8 + UTF16Len(p.Name)*2 + ValueSize(p.Value)
	}
	return n
}

// PayloadSize is the part of a value the 64 KiB limit applies to: the
// UTF-16 bytes of a String, the bytes of a Binary, else 0.
func PayloadSize(v Value) int {
	switch v.Type {
	case EdmString:
		return 2 * UTF16Len(v.Str)
	case EdmBinary:
		return len(v.Str)
	}
	return 0
}
