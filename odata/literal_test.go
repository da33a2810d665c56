package odata

import (
	"strings"
	"testing"
)

// CutQuoted reads the literal a key or an example starts with, doubled
// quotes as one, and gives back what follows.
func TestCutQuoted(t *testing.T) {
	for _, c := range []struct {
		in, value, rest string
		ok              bool
	}{
		{"'Sales'", "Sales", "", true},
		{"'it''s',RowKey='2'", "it's", ",RowKey='2'", true},
		{"'''')", "'", ")", true},
		{"''", "", "", true},
		{"'open", "", "", false},
		{"Sales'", "", "", false},
		{"", "", "", false},
		{" 'a'", "", "", false},
	} {
		v, rest, ok := CutQuoted(c.in)
		if v != c.value || rest != c.rest || ok != c.ok {
			t.Errorf("CutQuoted(%q) = %q, %q, %v; want %q, %q, %v", c.in, v, rest, ok, c.value, c.rest, c.ok)
		}
	}
}

// Any text written as a literal (quotes doubled) reads back as itself,
// with what follows it untouched (unless that starts with a quote, which
// would read as a doubled one: the service's grammar has the same reading).
func FuzzCutQuoted(f *testing.F) {
	f.Add("Sales", ",RowKey='1')")
	f.Add("it's", "")
	f.Add("''", ")")
	f.Fuzz(func(t *testing.T, value, rest string) {
		if strings.HasPrefix(rest, "'") {
			t.Skip()
		}
		v, r, ok := CutQuoted("'" + strings.ReplaceAll(value, "'", "''") + "'" + rest)
		if !ok || v != value || r != rest {
			t.Fatalf("%q then %q: read %q, %q, %v", value, rest, v, r, ok)
		}
	})
}
