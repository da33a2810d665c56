package odata

import (
	"bytes"
	"cmp"
	"slices"
	"testing"
	"unicode/utf16"
	"unicode/utf8"
)

// utf16Compare is the service's order, the plain way: both texts as UTF-16
// code units, compared one by one.
func utf16Compare(a, b string) int {
	return slices.Compare(utf16.Encode([]rune(a)), utf16.Encode([]rune(b)))
}

// mapped is s with every byte mapped by UTF16Byte: a format-2 file's key.
func mapped(s string) []byte {
	b := []byte(s)
	for i, c := range b {
		b[i] = UTF16Byte(c)
	}
	return b
}

// TestUTF16Order: the service's order puts the characters past U+FFFF
// (two surrogates, from U+D800) before U+E000 to U+FFFF; code point
// order puts them after.
func TestUTF16Order(t *testing.T) {
	ordered := []string{"", "A", "a", "é", "\uD7FF", "𐀀", "😀", "😀a", "\U0010FFFF", "\uE000", "\uFFFD", "\uFFFF"}
	for i, a := range ordered {
		for j, b := range ordered {
			if got, want := UTF16.Compare(a, b), cmp.Compare(i, j); got != want {
				t.Errorf("UTF16.Compare(%+q, %+q) = %d, want %d", a, b, got, want)
			}
			if got, want := UTF16.Compare(a, b), utf16Compare(a, b); got != want {
				t.Errorf("UTF16.Compare(%+q, %+q) = %d, but their UTF-16 code units compare %d", a, b, got, want)
			}
		}
	}
	if CodePoint.Compare("😀", "\uFFFD") != 1 || UTF16.Compare("😀", "\uFFFD") != -1 {
		t.Errorf("😀 against U+FFFD: code point %d (want 1), UTF-16 %d (want -1)", CodePoint.Compare("😀", "\uFFFD"), UTF16.Compare("😀", "\uFFFD"))
	}
	k := func(pk, rk string) Key { return Key{PartitionKey: pk, RowKey: rk} }
	if CompareKeys(k("p", "😀"), k("p", "\uFFFD")) != -1 || CodePoint.CompareKeys(k("p", "😀"), k("p", "\uFFFD")) != 1 {
		t.Error("CompareKeys does not order RowKeys by UTF-16 code units (or CodePoint.CompareKeys not by code point)")
	}
}

// TestFilterInOrder: a filter compares text in the service's order, and
// in a format-1 file's order when told.
func TestFilterInOrder(t *testing.T) {
	emoji := &Entity{PartitionKey: "p", RowKey: "😀", Properties: []Property{{Name: "Name", Value: String("😀")}}}
	for _, tt := range []struct {
		filter           string
		utf16, codePoint bool
	}{
		{"RowKey gt '\uFFFD'", false, true},
		{"RowKey lt '\uFFFD'", true, false},
		{"RowKey lt '\uE000'", true, false},
		{"PartitionKey eq 'p' and RowKey ge '\uE000'", false, true},
		{"Name gt '\uFFFD'", false, true},
		{"Name le '\uFFFD'", true, false},
		{"Name eq '😀'", true, true},
	} {
		f, err := ParseFilter(tt.filter)
		if err != nil {
			t.Fatal(err)
		}
		if got := f.Match(emoji); got != tt.utf16 {
			t.Errorf("%s on 😀: %v, want %v (UTF-16 order)", tt.filter, got, tt.utf16)
		}
		if got := f.In(CodePoint).Match(emoji); got != tt.codePoint {
			t.Errorf("%s on 😀 in code point order: %v, want %v", tt.filter, got, tt.codePoint)
		}
		if f.Order() != UTF16 || f.In(CodePoint).Order() != CodePoint || f.In(CodePoint).In(UTF16).String() != f.String() {
			t.Errorf("%s: Order and In disagree", tt.filter)
		}
	}
}

// TestPlanInOrder: the planner intersects key bounds in the filter's
// order, and every match lies in the plan's ranges, in either order.
func TestPlanInOrder(t *testing.T) {
	f, err := ParseFilter("PartitionKey eq 'p' and RowKey gt '😀' and RowKey gt '\uE000'")
	if err != nil {
		t.Fatal(err)
	}
	if lo := PlanQuery(f).Ranges[0].Lower; lo.RowKey != "\uE000" {
		t.Errorf("UTF-16 order: the range starts after %+q, want after U+E000", lo.RowKey)
	}
	if lo := PlanQuery(f.In(CodePoint)).Ranges[0].Lower; lo.RowKey != "😀" {
		t.Errorf("code point order: the range starts after %+q, want after 😀", lo.RowKey)
	}
	keys := []string{"", "a", "\uD7FF", "😀", "😀x", "\uE000", "\uFFFD", "\uFFFF"}
	filters := []string{
		"PartitionKey eq 'p' and RowKey gt '😀' and RowKey lt '\uFFFD'",
		"PartitionKey eq 'p' and RowKey ge '\uE000' and RowKey le '😀x'",
		"PartitionKey gt '\uD7FF' and PartitionKey lt '\uE000'",
		"PartitionKey ge '😀' and RowKey gt 'a'",
	}
	for _, o := range []Order{UTF16, CodePoint} {
		for _, src := range filters {
			f, err := ParseFilter(src)
			if err != nil {
				t.Fatal(err)
			}
			f = f.In(o)
			p := PlanQuery(f)
			for _, pk := range append(keys, "p") {
				for _, rk := range keys {
					e := &Entity{PartitionKey: pk, RowKey: rk}
					in := slices.ContainsFunc(p.Ranges, func(r KeyRange) bool { return r.ContainsIn(k(pk, rk), o) })
					if f.Match(e) && !in {
						t.Errorf("%s order: %q matches (%+q, %+q) but the plan %v does not read it", o, src, pk, rk, p.Ranges)
					}
				}
			}
		}
	}
}

// FuzzCompareUTF16: CompareUTF16 is the byte order of the texts mapped by
// UTF16Byte (so a format-2 file's keys sort as their texts), it is 0 only
// for equal texts, and for UTF-8 it is the order of the UTF-16 code units.
func FuzzCompareUTF16(f *testing.F) {
	for _, s := range [][2]string{{"😀", "\uFFFD"}, {"\uE000", "\U0010FFFF"}, {"a\uFFFF", "a😀"}, {"", "x"}, {"\xee", "\xf5"}, {"\xef\xbf", "\xf6"}} {
		f.Add(s[0], s[1])
	}
	f.Fuzz(func(t *testing.T, a, b string) {
		got := CompareUTF16(a, b)
		if want := bytes.Compare(mapped(a), mapped(b)); got != want {
			t.Fatalf("CompareUTF16(%+q, %+q) = %d, but the mapped bytes compare %d", a, b, got, want)
		}
		if (got == 0) != (a == b) {
			t.Fatalf("CompareUTF16(%+q, %+q) = %d", a, b, got)
		}
		if got != -CompareUTF16(b, a) {
			t.Fatalf("CompareUTF16 is not antisymmetric on %+q, %+q", a, b)
		}
		if utf8.ValidString(a) && utf8.ValidString(b) {
			if want := utf16Compare(a, b); got != want {
				t.Fatalf("CompareUTF16(%+q, %+q) = %d, but their UTF-16 code units compare %d", a, b, got, want)
			}
		}
		if m := mapped(string(mapped(a))); string(m) != a {
			t.Fatalf("UTF16Byte is not its own inverse on %+q", a)
		}
	})
}
