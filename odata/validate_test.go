package odata

import (
	"regexp"
	"strings"
	"testing"
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
