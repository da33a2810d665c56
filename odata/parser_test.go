package odata

import (
	"errors"
	"math"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/mattn/go-runewidth"
)

// literalOf parses "P eq <lit>" and returns the literal's typed value.
func literalOf(t *testing.T, lit string) Value {
	t.Helper()
	f, err := ParseFilter("P eq " + lit)
	if err != nil {
		t.Fatalf("ParseFilter(%q): %v", "P eq "+lit, err)
	}
	if f.root.kind != nodeCompare {
		t.Fatalf("ParseFilter(%q): root is not a comparison", lit)
	}
	return f.root.lit
}

func mustGuid(t *testing.T, s string) Value {
	t.Helper()
	v, err := Guid(s)
	if err != nil {
		t.Fatal(err)
	}
	return v
}

func TestLiteralTyping(t *testing.T) {
	ts := func(s string) Value {
		tm, err := time.Parse(time.RFC3339Nano, s)
		if err != nil {
			t.Fatal(err)
		}
		return DateTime(tm)
	}
	tests := []struct {
		lit  string
		want Value
		rule string
	}{
		{"'Smith'", String("Smith"), "quoted text is Edm.String"},
		{"''", String(""), "the empty string is a string"},
		{"'O''Brien'", String("O'Brien"), "a doubled quote is one quote"},
		{"''''", String("'"), "a string holding only a quote"},
		{"'a b  c'", String("a b  c"), "spaces inside strings are kept"},
		{"'Zoë 東京'", String("Zoë 東京"), "strings are UTF-8"},
		{"'eq and or'", String("eq and or"), "keywords inside strings are text"},
		{"42", Int32(42), "a whole number in 32 bits is Edm.Int32"},
		{"-5", Int32(-5), "a '-' before the digits is a negative number"},
		{"0", Int32(0), "zero"},
		{"2147483647", Int32(math.MaxInt32), "Int32 max stays Int32"},
		{"-2147483648", Int32(math.MinInt32), "Int32 min stays Int32"},
		{"42L", Int64(42), "the L suffix makes Edm.Int64 even for small numbers"},
		{"-7L", Int64(-7), "negative Int64"},
		{"9223372036854775807L", Int64(math.MaxInt64), "Int64 max"},
		{"4.5", Double(4.5), "a fraction makes Edm.Double"},
		{"1.0", Double(1), "1.0 is a Double, not an Int32"},
		{"-2.5", Double(-2.5), "negative Double"},
		{"1e10", Double(1e10), "an exponent makes Edm.Double"},
		{"2.5E-3", Double(0.0025), "exponent with sign and capital E"},
		{"1e+2", Double(100), "exponent with explicit +"},
		{"true", Bool(true), "true is Edm.Boolean"},
		{"false", Bool(false), "false is Edm.Boolean"},
		{"True", Bool(true), "a Boolean literal in any case (the service reads True, FALSE)"},
		{"fALSE", Bool(false), "a Boolean literal in any case"},
		{"datetime'2014-08-22T00:50:32Z'", ts("2014-08-22T00:50:32Z"), "datetime'…' is Edm.DateTime"},
		{"datetime'2014-08-22T00:50:32.1234567Z'", ts("2014-08-22T00:50:32.1234567Z"), "seven fractional digits (100 ns ticks)"},
		{"datetime'2014-08-22T00:50:32.5Z'", ts("2014-08-22T00:50:32.5Z"), "one fractional digit"},
		{"datetime'2014-08-22T00:50Z'", ts("2014-08-22T00:50:00Z"), "seconds may be left out"},
		{"datetime'2014-08-22T00:50:32'", ts("2014-08-22T00:50:32Z"), "no zone means UTC"},
		{"datetime'2014-08-22T02:50:32+02:00'", ts("2014-08-22T00:50:32Z"), "an offset is converted to UTC"},
		{"datetime'1601-01-01T00:00:00Z'", DateTimeTicks(MinDateTimeTicks), "the earliest DateTime the service stores"},
		{"datetime'9999-12-31T23:59:59.9999999Z'", DateTimeTicks(MaxDateTimeTicks), "the latest DateTime"},
		{"datetime'2016-02-29T00:00:00Z'", ts("2016-02-29T00:00:00Z"), "a leap day"},
		{"guid'a455c695-df98-5678-aaaa-81d3367e5a34'", mustGuid(t, "a455c695-df98-5678-aaaa-81d3367e5a34"), "guid'…' is Edm.Guid"},
		{"guid'A455C695-DF98-5678-AAAA-81D3367E5A34'", mustGuid(t, "a455c695-df98-5678-aaaa-81d3367e5a34"), "Guid text is canonicalized to lower case"},
		{"X'0A1B'", Binary([]byte{0x0a, 0x1b}), "X'…' is Edm.Binary"},
		{"binary'0a1bff'", Binary([]byte{0x0a, 0x1b, 0xff}), "binary'…' is Edm.Binary, hex digits in any case"},
		{"X''", Binary(nil), "empty binary"},
	}
	for _, tt := range tests {
		t.Run(tt.lit, func(t *testing.T) {
			got := literalOf(t, tt.lit)
			if !got.Equal(tt.want) {
				t.Errorf("%s: %s parsed as %v %q, want %v %q", tt.rule, tt.lit, got.Type, got.Text(), tt.want.Type, tt.want.Text())
			}
		})
	}
}

func TestSyntaxErrors(t *testing.T) {
	tests := []struct {
		src    string
		column int
		msg    string // a substring of the message
	}{
		{"", 1, "empty filter"},
		{"   ", 1, "empty filter"},
		{"Name eq 'Smith", 9, "unterminated string"},
		{"Name eq 'O''Brien", 9, "unterminated string"},
		{"Age eq )", 8, "expected a value after 'eq', found ')'"},
		{"Age eq", 7, "expected a value after 'eq', found the end"},
		{"Age == 5", 5, "'eq'"},
		{"Age != 5", 5, "'ne'"},
		{"Age >= 5", 5, "'ge'"},
		{"Age < 5", 5, "'lt'"},
		{"Age eq 5 && B eq 1", 10, "'and'"},
		{`Name eq "Smith"`, 9, "single quotes"},
		{"Age Eq 5", 5, "operators are lower-case: eq"},
		{"Age eq 5 AND B eq 1", 10, "operators are lower-case: and"},
		{"Age eq 5 Or B eq 1", 10, "operators are lower-case: or"},
		{"Age is 5", 5, "unknown operator 'is'"},
		{"(Age eq 5", 1, "never closed"},
		{"((Age eq 5)", 1, "never closed"},
		{"Age eq 5)", 9, "no matching '('"},
		{"()", 2, "unexpected ')'"},
		{"Age eq 5 B eq 1", 10, "expected 'and', 'or' or the end"},
		{"(Age eq 5 B eq 1)", 11, "expected 'and', 'or' or ')'"},
		{"Age eq 5 and", 13, "expected a condition after 'and'"},
		{"or Age eq 5", 1, "unexpected 'or'"},
		{"Age eq 5 or or B eq 1", 13, "expected a condition after 'or'"},
		{"not", 4, "expected a condition after 'not'"},
		{"not Age eq 5", 1, "not (Age eq 5)"},
		{"A eq B", 6, "cannot compare property 'A' with property 'B'"},
		{"'a' eq 'b'", 1, "compares two literals"},
		{"5 eq 5", 1, "compares two literals"},
		{"'x'", 1, "a literal alone is not a condition"},
		{"N eq 2147483648", 6, "outside the Edm.Int32 range (-2147483648 to 2147483647) that a number without a suffix has: write 2147483648L"},
		{"N eq -2147483649", 6, "write -2147483649L for an Edm.Int64"},
		{"Age eq 5 and 7", 14, "a literal alone is not a condition"},
		{"Age eq 5 eq 6", 10, "cannot be compared again"},
		{"(A eq 1) eq true", 10, "left side of 'eq' is a condition"},
		{"A eq (B eq 1)", 6, "right side of 'eq' is a condition"},
		{"Name 'x'", 6, "expected a comparison operator"},
		{"'x' Name", 5, "unknown operator 'Name'"},
		{"'x' 'y'", 5, "expected a comparison operator"},
		{"eq eq 1", 1, "unexpected 'eq'; expected a property name"},
		{"true eq 1", 1, "compares two literals"},
		{"Age eq 5 and and eq 1", 14, "expected a condition after 'and', found 'and'"},
		{"Age eq - 5", 8, "negative number"},
		{"Age eq 5x", 9, "after the number 5"},
		{"Age eq 1.", 10, "digit after the decimal point"},
		{"Age eq 1e", 10, "exponent"},
		{"Age eq 1.5L", 8, "L suffix"},
		{"Age eq 9223372036854775808", 8, "outside the Edm.Int64 range"},
		{"Age eq 9223372036854775808L", 8, "outside the Edm.Int64 range"},
		{"Age eq 1e400", 8, "outside the Edm.Double range"},
		{"Age eq $5", 8, "unexpected character '$'"},
		{"D eq DateTime'2014-08-22T00:50:32Z'", 6, "prefixes are case-sensitive"},
		{"D eq date'2014-08-22'", 6, "unknown literal prefix 'date'"},
		{"D eq datetime'2014-08-22T00:50:32Z", 6, "unterminated datetime literal"},
		{"D eq datetime'2014-08-22'", 25, "expected a two-digit day and 'T'"},
		{"D eq datetime'14-08-22T00:50:32Z'", 15, "four-digit year"},
		{"D eq datetime'2014-13-22T00:50:32Z'", 15, "out of range"},
		{"D eq datetime'2014-02-30T00:50:32Z'", 15, "no day 30"},
		{"D eq datetime'2014-08-22T24:00:00Z'", 15, "out of range"},
		{"D eq datetime'2014-08-22T00:50:32.12345678Z'", 42, "more than 7 fractional digits"},
		{"D eq datetime'2014-08-22T00:50:32.Z'", 35, "fractional digits"},
		{"D eq datetime'2014-08-22T00:50:32Zjunk'", 35, "unexpected text"},
		{"D eq datetime'1600-12-31T23:59:59Z'", 15, "outside the range"},
		{"D eq datetime'0001-01-01T00:00:00Z'", 15, "outside the range"},
		{"G eq guid'not-a-guid'", 11, "bad guid"},
		{"G eq guid'{a455c695-df98-5678-aaaa-81d3367e5a34}'", 11, "bad guid"},
		{"B eq X'0A1'", 8, "3 hex digits; expected an even number"},
		{"B eq binary'0G'", 14, "hexadecimal digits"},
		{"B eq X'0A0G'", 11, "hexadecimal digits"},
		{"Name eq 'é' and Age eq )", 24, "found ')'"}, // columns count characters, not bytes
	}
	for _, tt := range tests {
		t.Run(tt.src, func(t *testing.T) {
			f, err := ParseFilter(tt.src)
			if err == nil {
				t.Fatalf("ParseFilter(%q) = %q, want an error", tt.src, f)
			}
			var se *SyntaxError
			if !errors.As(err, &se) {
				t.Fatalf("error %T is not a *SyntaxError", err)
			}
			if se.Column != tt.column || !strings.Contains(se.Msg, tt.msg) {
				t.Errorf("ParseFilter(%q):\n got  column %d: %s\n want column %d: …%s…", tt.src, se.Column, se.Msg, tt.column, tt.msg)
			}
			if se.Src != tt.src {
				t.Errorf("Src = %q, want %q", se.Src, tt.src)
			}
			if want := "column " + strconv.Itoa(tt.column) + ": "; !strings.HasPrefix(se.Error(), want) {
				t.Errorf("Error() = %q, want prefix %q", se.Error(), want)
			}
		})
	}
}

func TestSyntaxErrorText(t *testing.T) {
	_, err := ParseFilter("PartitionKey eq 'Sales' and RowKey eq )")
	se := err.(*SyntaxError)
	if got, want := se.Error(), "column 39: expected a value after 'eq', found ')'"; got != want {
		t.Errorf("Error() = %q, want %q", got, want)
	}
	wantCaret := "PartitionKey eq 'Sales' and RowKey eq )\n" + strings.Repeat(" ", 38) + "^"
	if got := se.Caret(); got != wantCaret {
		t.Errorf("Caret() =\n%s\nwant\n%s", got, wantCaret)
	}
}

// TestCaretCountsCharacters: the caret sits under the character the column
// names, also after multi-byte characters and tabs.
// Columns count characters; the caret stands under the column on a
// terminal, where 東 and 京 take two cells each.
func TestCaretCountsCharacters(t *testing.T) {
	_, err := ParseFilter("Städte eq\t'東京' and X eq ?")
	se := err.(*SyntaxError)
	lines := strings.Split(se.Caret(), "\n")
	if len(lines) != 2 {
		t.Fatalf("Caret() = %q, want two lines", se.Caret())
	}
	before, _, _ := strings.Cut(lines[0], "?")
	if se.Column != 25 || len(lines[1]) != runewidth.StringWidth(before)+1 || !strings.HasSuffix(lines[1], "^") {
		t.Errorf("column %d, caret line %q; want 25, the caret under '?' on a terminal\n%s", se.Column, lines[1], se.Caret())
	}
}

func TestComparisonLimit(t *testing.T) {
	build := func(n int) string {
		parts := make([]string, n)
		for i := range parts {
			parts[i] = "A eq " + strconv.Itoa(i)
		}
		return strings.Join(parts, " or ")
	}
	if _, err := ParseFilter(build(15)); err != nil {
		t.Errorf("15 comparisons: %v; the service allows 15", err)
	}
	_, err := ParseFilter(build(16))
	if err == nil {
		t.Fatal("16 comparisons accepted; the service allows at most 15")
	}
	se := err.(*SyntaxError)
	if !strings.Contains(se.Msg, "comparison 16") || !strings.Contains(se.Msg, "at most 15") {
		t.Errorf("message %q should name the count and the limit", se.Msg)
	}
	if want := strings.Index(build(16), "A eq 15") + 1; se.Column != want {
		t.Errorf("column %d, want %d (the 16th comparison)", se.Column, want)
	}
	// A bare boolean property is a comparison too.
	if _, err := ParseFilter(build(15) + " or IsActive"); err == nil {
		t.Error("15 comparisons plus a bare boolean property accepted")
	}
}

// TestNestingLimit: parentheses and 'not' nest up to MaxNesting deep; the
// first one past it is refused with its column, and a filter of a million
// '(' is refused as soon as the parser reaches it, without reading the rest.
func TestNestingLimit(t *testing.T) {
	deep := func(open, inner string, n int) string {
		close := ""
		if open == "(" {
			close = strings.Repeat(")", n)
		}
		return strings.Repeat(open, n) + inner + close
	}
	for _, src := range []string{
		deep("(", "A eq 1", MaxNesting),
		deep("not ", "A", MaxNesting),
		deep("not (", "A", MaxNesting/2) + strings.Repeat(")", MaxNesting/2),
	} {
		if _, err := ParseFilter(src); err != nil {
			t.Errorf("%d levels refused: %v", MaxNesting, err)
		}
	}
	tests := []struct {
		name   string
		src    string
		column int
		msg    string
	}{
		{"parentheses", deep("(", "A eq 1", MaxNesting+1), MaxNesting + 1,
			"nested too deeply: this '(' opens level 101 of parentheses and 'not'; tstable allows at most 100 (remove redundant parentheses or double negations)"},
		{"not", deep("not ", "A", MaxNesting+1), 4*MaxNesting + 1,
			"nested too deeply: this 'not' opens level 101 of parentheses and 'not'; tstable allows at most 100 (remove redundant parentheses or double negations)"},
		{"both", deep("not (", "A", MaxNesting), 5*(MaxNesting/2) + 1, "this 'not' opens level 101"},
		{"a million parentheses", strings.Repeat("(", 1_000_000), MaxNesting + 1, "this '(' opens level 101"},
		{"a million nots", strings.Repeat("not ", 1_000_000) + "A", 4*MaxNesting + 1, "this 'not' opens level 101"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			_, err := ParseFilter(tt.src)
			var se *SyntaxError
			if !errors.As(err, &se) {
				t.Fatalf("got %v, want a *SyntaxError", err)
			}
			if se.Column != tt.column || !strings.Contains(se.Msg, tt.msg) {
				t.Errorf("got column %d: %s\nwant column %d: …%s…", se.Column, se.Msg, tt.column, tt.msg)
			}
		})
	}
	// Refused without lexing the rest: the work does not grow with the input.
	million := strings.Repeat("(", 1_000_000)
	if allocs := testing.AllocsPerRun(3, func() { _, _ = ParseFilter(million) }); allocs > 20 {
		t.Errorf("refusing a million '(' took %.0f allocations; want a few, independent of the length", allocs)
	}
}

// TestCanonicalString checks normalization: operands are reordered so the
// property comes first ('x' lt Name is Name gt 'x'), a bare boolean
// property is written "Prop eq true", redundant parentheses and spacing go,
// and needed parentheses stay.
func TestCanonicalString(t *testing.T) {
	tests := []struct{ src, want string }{
		{"Name eq 'x'", "Name eq 'x'"},
		{"  Name   eq\t'x'  ", "Name eq 'x'"},
		{"Name\neq\r\n'x'", "Name eq 'x'"},
		{"Name eq 'x'and Age eq 1", "Name eq 'x' and Age eq 1"},
		{"Städte eq '東京'", "Städte eq '東京'"},
		{"Name eq'x'", "Name eq 'x'"},
		{"'x' lt Name", "Name gt 'x'"},
		{"'x' le Name", "Name ge 'x'"},
		{"5 gt Age", "Age lt 5"},
		{"5 ge Age", "Age le 5"},
		{"5 eq Age", "Age eq 5"},
		{"5 ne Age", "Age ne 5"},
		{"IsActive", "IsActive eq true"},
		{"not IsActive", "not (IsActive eq true)"},
		{"not(IsActive)", "not (IsActive eq true)"},
		{"not not IsActive", "not (not (IsActive eq true))"},
		{"((A eq 1))", "A eq 1"},
		{"(A eq 1) and (B eq 2)", "A eq 1 and B eq 2"},
		{"A eq 1 and B eq 2 or C eq 3", "A eq 1 and B eq 2 or C eq 3"},
		{"A eq 1 and (B eq 2 or C eq 3)", "A eq 1 and (B eq 2 or C eq 3)"},
		{"(A eq 1 or B eq 2) and C eq 3", "(A eq 1 or B eq 2) and C eq 3"},
		{"A eq 1 or (B eq 2 or C eq 3)", "A eq 1 or (B eq 2 or C eq 3)"},
		{"A eq 1 or B eq 2 and C eq 3", "A eq 1 or B eq 2 and C eq 3"},
		{"not (A eq 1 and B eq 2)", "not (A eq 1 and B eq 2)"},
		{"(Age) eq 5", "Age eq 5"},
		{"Name eq 'O''Brien'", "Name eq 'O''Brien'"},
		{"N eq 7L", "N eq 7L"},
		{"N eq 1.0", "N eq 1.0"},
		{"N eq 1e21", "N eq 1.0E21"},
		{"N eq -0.000001", "N eq -1.0E-06"},
		{"D eq datetime'2014-08-22T00:50:32.1200000Z'", "D eq datetime'2014-08-22T00:50:32.12Z'"},
		{"G eq guid'A455C695-DF98-5678-AAAA-81D3367E5A34'", "G eq guid'a455c695-df98-5678-aaaa-81d3367e5a34'"},
		{"B eq binary'0a1b'", "B eq X'0A1B'"},
	}
	for _, tt := range tests {
		f, err := ParseFilter(tt.src)
		if err != nil {
			t.Errorf("ParseFilter(%q): %v", tt.src, err)
			continue
		}
		if got := f.String(); got != tt.want {
			t.Errorf("ParseFilter(%q).String() = %q, want %q", tt.src, got, tt.want)
		}
		g, err := ParseFilter(f.String())
		if err != nil {
			t.Errorf("String() of %q does not parse: %v", tt.src, err)
			continue
		}
		if !g.Equal(f) || g.String() != f.String() {
			t.Errorf("round trip of %q: %q then %q", tt.src, f, g)
		}
		for _, e := range fuzzEntities {
			if f.Match(e) != g.Match(e) {
				t.Errorf("%q and its canonical form %q disagree on %+v", tt.src, g, e)
			}
		}
	}
}

// TestPrecedence checks the binding order not > comparison > and > or by
// the entities each filter returns.
func TestPrecedence(t *testing.T) {
	e := entity(map[string]Value{"A": Int32(1), "B": Int32(0), "C": Int32(1)})
	tests := []struct {
		src  string
		want bool
	}{
		{"A eq 1 or B eq 1 and C eq 0", true},    // A or (B and C)
		{"(A eq 1 or B eq 1) and C eq 0", false}, // explicit grouping
		{"B eq 1 and C eq 1 or A eq 1", true},    // (B and C) or A
		{"not (A eq 1) or C eq 1", true},         // (not A) or C
		{"not (A eq 1 or C eq 1)", false},
	}
	for _, tt := range tests {
		f, err := ParseFilter(tt.src)
		if err != nil {
			t.Fatalf("ParseFilter(%q): %v", tt.src, err)
		}
		if got := f.Match(e); got != tt.want {
			t.Errorf("%q on A=1 B=0 C=1: %v, want %v", tt.src, got, tt.want)
		}
	}
}

func TestProperties(t *testing.T) {
	f, err := ParseFilter("RowKey ge 'a' and (Name eq 'x' or Age gt 3) and not (Name eq 'y') and PartitionKey eq 'p' and IsActive")
	if err != nil {
		t.Fatal(err)
	}
	got := strings.Join(f.Properties(), ",")
	if want := "Age,IsActive,Name,PartitionKey,RowKey"; got != want {
		t.Errorf("Properties() = %s, want %s", got, want)
	}
	f.Properties()[0] = "mutated"
	if f.Properties()[0] != "Age" {
		t.Error("Properties() returns the filter's own slice; callers can change it")
	}
}

// true and false are conditions of their own, alone or inside a filter,
// as the service takes them ($filter=true, $filter=false).
func TestConstantConditions(t *testing.T) {
	rec := &Entity{PartitionKey: "p", RowKey: "1"}
	for _, c := range []struct {
		src, canon string
		match      bool
	}{
		{"true", "true", true},
		{"false", "false", false},
		{"not false", "not (false)", true},
		{"(true and RowKey eq '1') and ((false or PartitionKey eq 'p') or PartitionKey eq 'q')", "true and RowKey eq '1' and (false or PartitionKey eq 'p' or PartitionKey eq 'q')", true},
		{"PartitionKey eq 'p' and false", "PartitionKey eq 'p' and false", false},
	} {
		f, err := ParseFilter(c.src)
		if err != nil {
			t.Fatalf("%s: %v", c.src, err)
		}
		if got := f.Match(rec); got != c.match {
			t.Errorf("%s matches %v, want %v", c.src, got, c.match)
		}
		if got := f.String(); got != c.canon {
			t.Errorf("%s is written %q, want %q", c.src, got, c.canon)
		}
		if again, err := ParseFilter(f.String()); err != nil || !again.Equal(f) {
			t.Errorf("%s: written form %q reads back as %v, %v", c.src, f.String(), again, err)
		}
	}
	// A false conjunct reads nothing.
	f, _ := ParseFilter("PartitionKey eq 'p' and false")
	if p := PlanQuery(f); len(p.Ranges) != 0 || !strings.Contains(p.Reason(), "false never holds") {
		t.Errorf("plan of a false filter: %+v", p)
	}
}
