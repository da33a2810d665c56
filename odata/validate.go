package odata

import (
	"fmt"
	"math"
	"strings"
	"unicode"
	"unicode/utf8"
)

// validTableName reports whether name matches ^[A-Za-z][A-Za-z0-9]{2,62}$,
// checked by hand: the regular expression's program (62 repetitions) took
// about a millisecond to compile at every start of the process.
func validTableName(name string) bool {
	if len(name) < 3 || len(name) > 63 {
		return false
	}
	for i := 0; i < len(name); i++ {
		c := name[i]
		letter := c >= 'A' && c <= 'Z' || c >= 'a' && c <= 'z'
		if !letter && (i == 0 || c < '0' || c > '9') {
			return false
		}
	}
	return true
}

// ValidateTableName applies the service's table name rules.
func ValidateTableName(name string) error {
	if !validTableName(name) {
		return Errorf(CodeInvalidResourceName, "table name %q is not valid: it must be 3 to 63 letters and digits, starting with a letter", name)
	}
	if strings.EqualFold(name, "tables") {
		return Errorf(CodeInvalidResourceName, "table name %q is reserved by the service; choose another", name)
	}
	return nil
}

// ValidateKey applies the service's rules to a PartitionKey or RowKey
// (which names it in messages).
func ValidateKey(which, key string) error {
	if len(key) <= MaxKeyLength && plainKey(key) {
		return nil
	}
	if !utf8.ValidString(key) {
		return Errorf(CodeInvalidInput, "%s %q is not valid UTF-8", which, key)
	}
	if n := UTF16Len(key); n > MaxKeyLength {
		return Errorf(CodeOutOfRangeInput, "%s is %d characters long; the limit is %d", which, n, MaxKeyLength)
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
			return Errorf(CodeOutOfRangeInput, "%s %q contains %s at character %d; keys may not contain / \\ # ? or control characters", which, key, bad, pos)
		}
	}
	return nil
}

// plainKey reports whether key is ASCII without a character keys may not
// hold: the common case, checked in one pass.
func plainKey(key string) bool {
	for i := 0; i < len(key); i++ {
		switch c := key[i]; {
		case c < 0x20 || c >= 0x7F, c == '/', c == '\\', c == '#', c == '?':
			return false
		}
	}
	return true
}

// plainPropertyName reports whether name is a valid ASCII property name
// other than a system property's: the common case, checked in one pass.
func plainPropertyName(name string) bool {
	if name == "" || len(name) > MaxPropertyName || name[0] >= '0' && name[0] <= '9' {
		return false
	}
	for i := 0; i < len(name); i++ {
		c := name[i]
		if !(c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9' || c == '_') {
			return false
		}
	}
	switch name {
	case PartitionKey, RowKey, Timestamp:
		return false
	}
	return true
}

// ValidatePropertyName applies the service's rules to a user property name.
func ValidatePropertyName(name string) error {
	if plainPropertyName(name) {
		return nil
	}
	if n := UTF16Len(name); n > MaxPropertyName {
		return Errorf(CodePropertyNameTooLong, "property name %.40q... is %d characters long; the limit is %d", name, n, MaxPropertyName)
	}
	if name == "" {
		return Errorf(CodePropertyNameInvalid, "a property name is empty")
	}
	switch name {
	case PartitionKey, RowKey, Timestamp:
		return Errorf(CodePropertyNameInvalid, "%s is a system property and cannot be a user property", name)
	}
	for i, r := range name {
		ok := r == '_' || unicode.IsLetter(r) || (i > 0 && (unicode.IsDigit(r) || unicode.Is(unicode.Mn, r) || unicode.Is(unicode.Mc, r)))
		if !ok {
			return Errorf(CodePropertyNameInvalid, "property name %q has %q at byte %d; names start with a letter or _ and hold only letters, digits and _", name, r, i+1)
		}
	}
	return nil
}

// ValidateValue checks one property value against its type's limits.
func ValidateValue(name string, v Value) error {
	switch v.Type {
	case EdmString:
		if len(v.Str)*2 <= MaxValueBytes && asciiPrefix(v.Str) == len(v.Str) {
			return nil
		}
		if !utf8.ValidString(v.Str) {
			return Errorf(CodeInvalidInput, "property %s is not valid UTF-8 text", name)
		}
		if n := UTF16Len(v.Str) * 2; n > MaxValueBytes {
			return Errorf(CodePropertyValueTooLarge, "property %s is %d bytes as UTF-16; a string may hold at most %d (64 KiB)", name, n, MaxValueBytes)
		}
	case EdmBinary:
		if len(v.Str) > MaxValueBytes {
			return Errorf(CodePropertyValueTooLarge, "property %s is %d bytes; a binary value may hold at most %d (64 KiB)", name, len(v.Str), MaxValueBytes)
		}
	case EdmInt32:
		if v.Int < math.MinInt32 || v.Int > math.MaxInt32 {
			return Errorf(CodeOutOfRangeInput, "property %s = %d does not fit Edm.Int32; use Edm.Int64", name, v.Int)
		}
	case EdmBoolean:
		if v.Int != 0 && v.Int != 1 {
			return Errorf(CodeInvalidValueType, "property %s is not a valid boolean", name)
		}
	case EdmDateTime:
		if v.Int < MinDateTimeTicks || v.Int > MaxDateTimeTicks {
			return Errorf(CodeOutOfRangeInput, "property %s = %s is outside the Edm.DateTime range 1601-01-01 to 9999-12-31 (UTC)", name, FormatDateTime(v.Time()))
		}
	case EdmGuid:
		if g, err := CanonicalGuid(v.Str); err != nil || g != v.Str {
			return Errorf(CodeInvalidValueType, "property %s is not a valid GUID", name)
		}
	case EdmInt64, EdmDouble:
	default:
		return Errorf(CodeInvalidValueType, "property %s has no valid Edm type", name)
	}
	return nil
}

// ValidateEntity applies every rule of the service to an entity about to be
// written. A supplied Timestamp is ignored, as the service does.
func ValidateEntity(e *Entity) error {
	if e == nil {
		return Errorf(CodeInvalidInput, "no entity given")
	}
	if err := ValidateKey(PartitionKey, e.PartitionKey); err != nil {
		return err
	}
	if err := ValidateKey(RowKey, e.RowKey); err != nil {
		return err
	}
	if len(e.Properties) > MaxProperties {
		return Errorf(CodeTooManyProperties, "entity (%q, %q) has %d properties; the limit is %d (255 with the three system properties)", e.PartitionKey, e.RowKey, len(e.Properties), MaxProperties)
	}
	// Few properties are compared pair by pair; a map pays from about 32.
	var seen map[string]struct{}
	if len(e.Properties) > 32 {
		seen = make(map[string]struct{}, len(e.Properties))
	}
	for i, p := range e.Properties {
		if err := ValidatePropertyName(p.Name); err != nil {
			return err
		}
		dup := false
		if seen != nil {
			_, dup = seen[p.Name]
			seen[p.Name] = struct{}{}
		} else {
			for _, q := range e.Properties[:i] {
				if q.Name == p.Name {
					dup = true
					break
				}
			}
		}
		if dup {
			return Errorf(CodeInvalidInput, "property %s is given twice", p.Name)
		}
		if err := ValidateValue(p.Name, p.Value); err != nil {
			return err
		}
	}
	if n := EntitySize(e); n > MaxEntityBytes {
		return Errorf(CodeEntityTooLarge, "entity (%q, %q) is %d bytes; the limit is %d (1 MiB): keep large values in a blob", e.PartitionKey, e.RowKey, n, MaxEntityBytes)
	}
	return nil
}
