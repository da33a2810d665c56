package store

import (
	"fmt"
	"math"
	"unicode"
	"unicode/utf16"
	"unicode/utf8"

	"github.com/tstable/tstable/odata"
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

// utf16Len is the number of UTF-16 code units s takes (the service's unit).
func utf16Len(s string) int {
	n := 0
	for _, r := range s {
		n += utf16.RuneLen(r)
	}
	return n
}

// ValidateKey applies the service's rules to a PartitionKey or RowKey
// (which names it in messages).
func ValidateKey(which, key string) error {
	if !utf8.ValidString(key) {
		return Errorf(CodeInvalidInput, 400, "%s %q is not valid UTF-8", which, key)
	}
	if n := utf16Len(key); n > MaxKeyLength {
		return Errorf(CodeOutOfRangeInput, 400, "%s is %d characters long; the limit is %d", which, n, MaxKeyLength)
	}
	pos := 0
	for _, r := range key {
		pos++
		var bad string
		switch {
		case r == '/' || r == '\\' || r == '#' || r == '?':
			bad = fmt.Sprintf("%q", r)
		case r <= 0x1F || (r >= 0x7F && r <= 0x9F):
			bad = fmt.Sprintf("control character U+%04X", r)
		}
		if bad != "" {
			return Errorf(CodeOutOfRangeInput, 400,
				"%s %q contains %s at character %d; keys may not contain / \\ # ? or control characters", which, key, bad, pos)
		}
	}
	return nil
}

// ValidatePropertyName applies the service's rules to a user property name.
func ValidatePropertyName(name string) error {
	if n := utf16Len(name); n > MaxPropertyName {
		return Errorf(CodePropertyNameTooLong, 400, "property name %.40q... is %d characters long; the limit is %d", name, n, MaxPropertyName)
	}
	if name == "" {
		return Errorf(CodePropertyNameInvalid, 400, "a property name is empty")
	}
	switch name {
	case odata.PartitionKey, odata.RowKey, odata.Timestamp:
		return Errorf(CodePropertyNameInvalid, 400, "%s is a system property and cannot be a user property", name)
	}
	for i, r := range name {
		ok := r == '_' || unicode.IsLetter(r) || (i > 0 && (unicode.IsDigit(r) || unicode.Is(unicode.Mn, r) || unicode.Is(unicode.Mc, r)))
		if !ok {
			return Errorf(CodePropertyNameInvalid, 400,
				"property name %q has %q at byte %d; names start with a letter or _ and hold only letters, digits and _", name, r, i+1)
		}
	}
	return nil
}

// ValidateValue checks one property value against its type's limits.
func ValidateValue(name string, v odata.Value) error {
	switch v.Type {
	case odata.EdmString:
		if !utf8.ValidString(v.Str) {
			return Errorf(CodeInvalidInput, 400, "property %s is not valid UTF-8 text", name)
		}
		if n := utf16Len(v.Str) * 2; n > MaxValueBytes {
			return Errorf(CodePropertyValueTooLarge, 400, "property %s is %d bytes as UTF-16; a string may hold at most %d (64 KiB)", name, n, MaxValueBytes)
		}
	case odata.EdmBinary:
		if len(v.Str) > MaxValueBytes {
			return Errorf(CodePropertyValueTooLarge, 400, "property %s is %d bytes; a binary value may hold at most %d (64 KiB)", name, len(v.Str), MaxValueBytes)
		}
	case odata.EdmInt32:
		if v.Int < math.MinInt32 || v.Int > math.MaxInt32 {
			return Errorf(CodeOutOfRangeInput, 400, "property %s = %d does not fit Edm.Int32; use Edm.Int64", name, v.Int)
		}
	case odata.EdmBoolean:
		if v.Int != 0 && v.Int != 1 {
			return Errorf(CodeInvalidValueType, 400, "property %s is not a valid boolean", name)
		}
	case odata.EdmDateTime:
		if v.Int < odata.MinDateTimeTicks || v.Int > odata.MaxDateTimeTicks {
			return Errorf(CodeOutOfRangeInput, 400, "property %s = %s is outside the Edm.DateTime range 1601-01-01 to 9999-12-31 (UTC)", name, odata.FormatDateTime(v.Time()))
		}
	case odata.EdmGuid:
		if g, err := odata.CanonicalGuid(v.Str); err != nil || g != v.Str {
			return Errorf(CodeInvalidValueType, 400, "property %s is not a valid GUID", name)
		}
	case odata.EdmInt64, odata.EdmDouble:
	default:
		return Errorf(CodeInvalidValueType, 400, "property %s has no valid Edm type", name)
	}
	return nil
}

// valueSize is the service's size of a value in bytes.
func valueSize(v odata.Value) int {
	switch v.Type {
	case odata.EdmString:
		return 4 + utf16Len(v.Str)*2
	case odata.EdmBinary:
		return 4 + len(v.Str)
	case odata.EdmInt32:
		return 4
	case odata.EdmGuid:
		return 16
	case odata.EdmBoolean:
		return 1
	}
	return 8
}

// EntitySize is the entity's size by the service's formula: 4 bytes, plus
// twice the length of both keys, plus for each property 8 bytes, twice the
// name's length and the value's size.
func EntitySize(e *odata.Entity) int {
	n := 4 + (utf16Len(e.PartitionKey)+utf16Len(e.RowKey))*2
	for _, p := range e.Properties {
		n += 8 + utf16Len(p.Name)*2 + valueSize(p.Value)
	}
	return n
}

// ValidateEntity applies every rule of the service to an entity about to be
// written. A supplied Timestamp is ignored, as the service does.
func ValidateEntity(e *odata.Entity) error {
	if e == nil {
		return Errorf(CodeInvalidInput, 400, "no entity given")
	}
	if err := ValidateKey(odata.PartitionKey, e.PartitionKey); err != nil {
		return err
	}
	if err := ValidateKey(odata.RowKey, e.RowKey); err != nil {
		return err
	}
	if len(e.Properties) > MaxProperties {
		return Errorf(CodeTooManyProperties, 400, "entity (%q, %q) has %d properties; the limit is %d (255 with the three system properties)", e.PartitionKey, e.RowKey, len(e.Properties), MaxProperties)
	}
	seen := make(map[string]struct{}, len(e.Properties))
	for _, p := range e.Properties {
		if err := ValidatePropertyName(p.Name); err != nil {
			return err
		}
		if _, dup := seen[p.Name]; dup {
			return Errorf(CodeInvalidInput, 400, "property %s is given twice", p.Name)
		}
		seen[p.Name] = struct{}{}
		if err := ValidateValue(p.Name, p.Value); err != nil {
			return err
		}
	}
	if n := EntitySize(e); n > MaxEntityBytes {
		return Errorf(CodeEntityTooLarge, 400, "entity (%q, %q) is %d bytes; the limit is %d (1 MiB): keep large values in a blob", e.PartitionKey, e.RowKey, n, MaxEntityBytes)
	}
	return nil
}

// withoutTimestamp drops a user-supplied Timestamp property: the store sets it.
func withoutTimestamp(e *odata.Entity) *odata.Entity {
	for _, p := range e.Properties {
		if p.Name == odata.Timestamp {
			c := e.Clone()
			c.Delete(odata.Timestamp)
			return c
		}
	}
	return e
}
