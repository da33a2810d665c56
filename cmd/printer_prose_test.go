package cmd

import (
	"strings"
	"testing"
	"unicode/utf8"
)

func TestWrapProse(t *testing.T) {
	in := "  advice:   A partition serves about 2,000 entities a second and the account 20,000, so split it.\nshort line\nwhy: " + strings.Repeat("x", 50)
	want := "  advice:   A partition serves about 2,000 entities a\n" +
		"            second and the account 20,000, so split it.\n" +
		"short line\n" +
		"why: " + strings.Repeat("x", 50)
	if got := wrapProse(in, 55); got != want {
		t.Errorf("wrapProse:\n%s\nwant:\n%s", got, want)
	}
}

// wrapProse keeps every word, in order, and makes no line longer than
// the width but for a word that is longer itself.
func FuzzWrapProse(f *testing.F) {
	f.Add("  advice:   A partition serves about 2,000 entities a second", 20)
	f.Add("line 2: LastName eq 'Jones'\n  never matches: no entity in People has a property lastname", 30)
	f.Add("warning hot-partition: partition '2024-06-08' holds 60% of the table", 10)
	f.Fuzz(func(t *testing.T, text string, width int) {
		if width < 10 || width > 300 || !utf8.ValidString(text) || strings.ContainsAny(text, "\t\r\v\f\u0085\u00a0\u2028\u2029") {
			return
		}
		got := wrapProse(text, width)
		inLines, outLines := strings.Split(text, "\n"), strings.Split(got, "\n")
		if strings.Join(strings.Fields(got), " ") != strings.Join(strings.Fields(text), " ") {
			t.Fatalf("words changed:\n%q\n%q", text, got)
		}
		if len(outLines) < len(inLines) {
			t.Fatalf("lines lost:\n%q\n%q", text, got)
		}
		for _, l := range outLines {
			if n := utf8.RuneCountInString(l); n > width && len(strings.Fields(l)) > 1 && !strings.Contains(text, l) {
				t.Fatalf("a line of %d columns at width %d: %q", n, width, l)
			}
		}
	})
}
