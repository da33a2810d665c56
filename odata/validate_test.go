package odata

import (
	"regexp"
	"strings"
	"testing"
	"unicode"
	"unicode/utf16"
	"unicode/utf8"
)

// The hand-written check accepts exactly what the service's pattern does.
func TestValidTableNameMatchesPattern(t *testing.T) {
	re := regexp.MustCompile(`^[A-Za-z][A-Za-z0-9]{2,62}$`)
	names := []string{"", "a", "ab", "abc", "Abc", "1bc", "a1c", "a-c", "a_c", "aé1", "tables", "Tables",
		"Z" + strings.Repeat("9", 61), "Z" + strings.Repeat("9", 62), "Z" + strings.Repeat("9", 63),
		"ab\x00", "a b", "ab/", "ab:", "ab@", "ab[", "ab`", "ab{"}
	for c := 0; c < 256; c++ {
		names = append(names, "ab"+string(rune(c)), string([]byte{byte(c)})+"bc")
	}
	for _, n := range names {
		if got, want := validTableName(n), re.MatchString(n); got != want {
			t.Errorf("validTableName(%q) = %v, want %v", n, got, want)
		}
	}
}

// refKeyValid is the key rule read straight from the service's
// documentation, one character at a time: valid UTF-8, at most 1024 UTF-16
// units, none of / \ # ? and no control character (U+0000–U+001F,
// U+007F–U+009F).
func refKeyValid(key string) bool {
	if !utf8.ValidString(key) || len(utf16.Encode([]rune(key))) > MaxKeyLength {
		return false
	}
	for _, r := range key {
		if strings.ContainsRune(`/\#?`, r) || r <= 0x1F || r >= 0x7F && r <= 0x9F {
			return false
		}
	}
	return true
}

// refPropertyNameValid is the property-name rule, one character at a time.
func refPropertyNameValid(name string) bool {
	if name == "" || len(utf16.Encode([]rune(name))) > MaxPropertyName ||
		name == PartitionKey || name == RowKey || name == Timestamp {
		return false
	}
	for i, r := range name {
		if !(r == '_' || unicode.IsLetter(r) || i > 0 && (unicode.IsDigit(r) || unicode.In(r, unicode.Mn, unicode.Mc))) {
			return false
		}
	}
	return true
}

// The one-pass checks for plain ASCII keys, names and strings accept and
// refuse exactly what the character-by-character rules do, and UTF16Len
// counts what utf16.Encode produces.
func FuzzValidateFastPaths(f *testing.F) {
	for _, s := range []string{"", "a", "p00500", "Name", "_x1", "1a", "a/b", "a\\b", "a#", "a?", "a\x7f", "a\x1f",
		"Zoë", "a\u0085b", "😀", "\xff", "RowKey", "Timestamp", "a b", "a-b", strings.Repeat("k", 1024),
		strings.Repeat("k", 1025), strings.Repeat("n", 255), strings.Repeat("n", 256), strings.Repeat("é", 600)} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		if got, want := ValidateKey(RowKey, s) == nil, refKeyValid(s); got != want {
			t.Errorf("ValidateKey(%q) accepts: %v, the rule says %v", s, got, want)
		}
		if got, want := ValidatePropertyName(s) == nil, refPropertyNameValid(s); got != want {
			t.Errorf("ValidatePropertyName(%q) accepts: %v, the rule says %v", s, got, want)
		}
		if utf8.ValidString(s) {
			if got, want := UTF16Len(s), len(utf16.Encode([]rune(s))); got != want {
				t.Errorf("UTF16Len(%q) = %d, want %d", s, got, want)
			}
		}
		for _, big := range []string{s, strings.Repeat(s, 1+MaxValueBytes/2/max(len(s), 1))} {
			want := utf8.ValidString(big) && 2*len(utf16.Encode([]rune(big))) <= MaxValueBytes
			if got := ValidateValue("P", String(big)) == nil; got != want {
				t.Errorf("ValidateValue of a %d-byte string accepts: %v, want %v", len(big), got, want)
			}
		}
	})
}
