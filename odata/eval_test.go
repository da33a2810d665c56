package odata

import (
	"math"
	"strings"
	"testing"
	"time"
)

// entity builds a test entity with keys "pk"/"rk" and the given properties.
func entity(props map[string]Value) *Entity {
	e := &Entity{PartitionKey: "pk", RowKey: "rk"}
	for name, v := range props {
		e.Set(name, v)
	}
	return e
}

var ops = [6]string{"eq", "ne", "gt", "ge", "lt", "le"}

// results lists the outcome of eq ne gt ge lt le, in that order.
type results [6]bool

var (
	less    = results{false, true, false, false, true, true}
	equal   = results{true, false, false, true, false, true}
	greater = results{false, true, true, true, false, false}
	never   = results{}                                        // incompatible or missing: every operator false, ne too
	onlyNe  = results{false, true, false, false, false, false} // NaN
)

// TestCompareMatrix runs every operator for every Edm type, across types,
// and for a missing property. "prop op lit" is checked against want.
func TestCompareMatrix(t *testing.T) {
	day := func(s string) Value {
		tm, _ := time.Parse(time.RFC3339, s)
		return DateTime(tm)
	}
	g1, _ := Guid("11111111-1111-1111-1111-111111111111")
	tests := []struct {
		rule string
		prop Value
		lit  string
		want results
	}{
		// Strings compare ordinally by UTF-16 code units, case-sensitive.
		{"string equal", String("Smith"), "'Smith'", equal},
		{"string less", String("Jones"), "'Smith'", less},
		{"string greater", String("b"), "'a'", greater},
		{"string case-sensitive: 'a' > 'Z'", String("a"), "'Z'", greater},
		{"string case differs: not equal", String("smith"), "'Smith'", greater},
		{"string prefix sorts first", String("Sm"), "'Smith'", less},
		{"string empty is least", String(""), "'a'", less},
		{"string code point order: 'é' > 'z'", String("é"), "'z'", greater},
		{"string UTF-16 order: U+FFFD > 😀", String("\uFFFD"), "'😀'", greater},
		{"string UTF-16 order: 😀 < U+E000", String("😀"), "'\uE000'", less},
		{"string with quote", String("O'Brien"), "'O''Brien'", equal},
		// Numbers compare by value across Int32, Int64 and Double.
		{"Int32 equal", Int32(5), "5", equal},
		{"Int32 less", Int32(3), "5", less},
		{"Int32 greater", Int32(7), "5", greater},
		{"Int32 negative", Int32(-5), "-2", less},
		{"Int32 vs Int64 literal", Int32(5), "5L", equal},
		{"Int32 vs big Int64 literal", Int32(math.MaxInt32), "5000000000L", less},
		{"Int64 equal", Int64(5000000000), "5000000000L", equal},
		{"Int64 vs Int32 literal", Int64(5), "5", equal},
		{"Int64 greater than Int32 literal", Int64(5000000000), "5", greater},
		{"Int64 near max, exact", Int64(math.MaxInt64), "9223372036854775806L", greater},
		{"Double equal", Double(2.5), "2.5", equal},
		{"Double less", Double(2.25), "2.5", less},
		{"Double vs Int32 literal", Double(5), "5", equal},
		{"Double fraction vs Int32 literal", Double(5.5), "5", greater},
		{"Double vs Int64 literal", Double(-1.5), "-1L", less},
		{"Int32 vs Double literal", Int32(5), "5.0", equal},
		{"Int32 vs Double literal with fraction", Int32(5), "5.5", less},
		{"Int32 vs negative Double literal", Int32(-5), "-5.5", greater},
		{"Int64 vs Double is exact beyond 2^53", Int64(1<<53 + 1), "9007199254740992.0", greater},
		{"Int64 max vs 2^63 as double", Int64(math.MaxInt64), "9.223372036854775807E18", less},
		{"Double +Inf vs literal", Double(math.Inf(1)), "1e300", greater},
		{"Double -Inf vs Int32 literal", Double(math.Inf(-1)), "-5", less},
		// NaN: every comparison false except ne.
		{"NaN vs Double literal", Double(math.NaN()), "1.0", onlyNe},
		{"NaN vs Int32 literal", Double(math.NaN()), "1", onlyNe},
		{"NaN vs Int64 literal", Double(math.NaN()), "1L", onlyNe},
		// Booleans: all six operators, false < true.
		{"bool equal", Bool(true), "true", equal},
		{"bool false < true", Bool(false), "true", less},
		{"bool true > false", Bool(true), "false", greater},
		// DateTime by ticks.
		{"datetime equal", day("2014-08-22T00:50:32Z"), "datetime'2014-08-22T00:50:32Z'", equal},
		{"datetime one tick later", DateTimeTicks(TicksOf(time.Date(2014, 8, 22, 0, 50, 32, 100, time.UTC))), "datetime'2014-08-22T00:50:32Z'", greater},
		{"datetime earlier", day("2014-08-21T00:00:00Z"), "datetime'2014-08-22T00:00:00Z'", less},
		// Guid by canonical text; order by that text.
		{"guid equal, any case", g1, "guid'11111111-1111-1111-1111-111111111111'", equal},
		{"guid ordered by text", g1, "guid'22222222-1111-1111-1111-111111111111'", less},
		// Binary bytewise, a prefix first.
		{"binary equal", Binary([]byte{0x0a, 0x1b}), "X'0A1B'", equal},
		{"binary longer is greater", Binary([]byte{0x0a, 0x1b}), "X'0A'", greater},
		{"binary bytewise", Binary([]byte{0x0a, 0xff}), "X'0B'", less},
		{"binary high bytes are unsigned", Binary([]byte{0xff}), "X'7F'", greater},
		// Incompatible types: every operator false, ne included.
		{"string vs number", String("5"), "5", never},
		{"number vs string", Int32(5), "'5'", never},
		{"Int64 vs string", Int64(5), "'5'", never},
		{"Double vs string", Double(5), "'5'", never},
		{"bool vs number", Bool(true), "1", never},
		{"number vs bool", Int32(1), "true", never},
		{"string vs bool", String("true"), "true", never},
		{"datetime vs string", day("2014-08-22T00:00:00Z"), "'2014-08-22T00:00:00Z'", never},
		{"string vs datetime", String("2014-08-22T00:00:00Z"), "datetime'2014-08-22T00:00:00Z'", never},
		{"datetime vs number", day("2014-08-22T00:00:00Z"), "5L", never},
		{"guid vs string of the same text", g1, "'11111111-1111-1111-1111-111111111111'", never},
		{"string vs guid", String("11111111-1111-1111-1111-111111111111"), "guid'11111111-1111-1111-1111-111111111111'", never},
		{"binary vs string", Binary([]byte("ab")), "'ab'", never},
		{"string vs binary", String("\x0a"), "X'0A'", never},
		{"guid vs binary", g1, "X'11'", never},
	}
	for _, tt := range tests {
		e := entity(map[string]Value{"P": tt.prop})
		missing := entity(nil)
		for i, op := range ops {
			src := "P " + op + " " + tt.lit
			f, err := ParseFilter(src)
			if err != nil {
				t.Fatalf("%s: ParseFilter(%q): %v", tt.rule, src, err)
			}
			if got := f.Match(e); got != tt.want[i] {
				t.Errorf("%s: %s with P = %v %q: %v, want %v", tt.rule, src, tt.prop.Type, tt.prop.Text(), got, tt.want[i])
			}
			// A missing property: the comparison is false, whatever the operator.
			if f.Match(missing) {
				t.Errorf("%s: %s matched an entity without P", tt.rule, src)
			}
		}
	}
}

// TestNotAndMissing: not inverts the boolean of its operand, so
// not (Age eq 5) is true for an entity without Age, while Age ne 5 is false
// for it (a comparison on a missing property is false).
func TestNotAndMissing(t *testing.T) {
	without := entity(map[string]Value{"Name": String("x")})
	five := entity(map[string]Value{"Age": Int32(5)})
	wrongType := entity(map[string]Value{"Age": String("5")})
	tests := []struct {
		src                      string
		without, five, wrongType bool
	}{
		{"not (Age eq 5)", true, false, true},
		{"Age ne 5", false, false, false},
		{"not (Age ne 5)", true, true, true},
		{"not not (Age eq 5)", false, true, false},
	}
	for _, tt := range tests {
		f, err := ParseFilter(tt.src)
		if err != nil {
			t.Fatal(err)
		}
		if got := f.Match(without); got != tt.without {
			t.Errorf("%q without Age: %v, want %v", tt.src, got, tt.without)
		}
		if got := f.Match(five); got != tt.five {
			t.Errorf("%q with Age 5: %v, want %v", tt.src, got, tt.five)
		}
		if got := f.Match(wrongType); got != tt.wrongType {
			t.Errorf("%q with Age '5': %v, want %v", tt.src, got, tt.wrongType)
		}
	}
}

// TestBareBoolean: a property alone is read as "Prop eq true", so it is
// true only for a Boolean true; "not Prop" is true for false, for a missing
// property and for a property of another type.
func TestBareBoolean(t *testing.T) {
	tests := []struct {
		name          string
		e             *Entity
		bare, negated bool
	}{
		{"true", entity(map[string]Value{"IsActive": Bool(true)}), true, false},
		{"false", entity(map[string]Value{"IsActive": Bool(false)}), false, true},
		{"missing", entity(nil), false, true},
		{"string 'true'", entity(map[string]Value{"IsActive": String("true")}), false, true},
		{"Int32 1", entity(map[string]Value{"IsActive": Int32(1)}), false, true},
	}
	bare, _ := ParseFilter("IsActive")
	negated, _ := ParseFilter("not IsActive")
	for _, tt := range tests {
		if got := bare.Match(tt.e); got != tt.bare {
			t.Errorf("IsActive on %s: %v, want %v", tt.name, got, tt.bare)
		}
		if got := negated.Match(tt.e); got != tt.negated {
			t.Errorf("not IsActive on %s: %v, want %v", tt.name, got, tt.negated)
		}
	}
}

// TestSystemProperties: PartitionKey and RowKey are strings, Timestamp is a
// DateTime (absent before the entity is stored).
func TestSystemProperties(t *testing.T) {
	stored := &Entity{PartitionKey: "Sales", RowKey: "00010", Timestamp: time.Date(2014, 8, 22, 0, 50, 32, 0, time.UTC)}
	unstored := &Entity{PartitionKey: "Sales", RowKey: "00010"}
	tests := []struct {
		src              string
		stored, unstored bool
	}{
		{"PartitionKey eq 'Sales' and RowKey eq '00010'", true, true},
		{"RowKey gt '0001'", true, true},
		{"RowKey eq 10", false, false},
		{"Timestamp ge datetime'2014-08-22T00:00:00Z'", true, false},
		{"Timestamp lt datetime'2014-08-22T00:00:00Z'", false, false},
		{"Timestamp eq '2014-08-22T00:50:32Z'", false, false},
	}
	for _, tt := range tests {
		f, err := ParseFilter(tt.src)
		if err != nil {
			t.Fatal(err)
		}
		if got := f.Match(stored); got != tt.stored {
			t.Errorf("%q on a stored entity: %v, want %v", tt.src, got, tt.stored)
		}
		if got := f.Match(unstored); got != tt.unstored {
			t.Errorf("%q on an unstored entity: %v, want %v", tt.src, got, tt.unstored)
		}
	}
}

// mapRecord is a Record that is not an Entity, as a store that decodes
// properties lazily might provide.
type mapRecord map[string]Value

func (m mapRecord) Get(name string) (Value, bool) { v, ok := m[name]; return v, ok }

func TestMatchAnyRecord(t *testing.T) {
	f, err := ParseFilter("PartitionKey eq 'Sales' and Age gt 30")
	if err != nil {
		t.Fatal(err)
	}
	if !f.Match(mapRecord{"PartitionKey": String("Sales"), "Age": Int64(31)}) {
		t.Error("a map record with matching values did not match")
	}
	if f.Match(mapRecord{"Age": Int64(31)}) {
		t.Error("a record without PartitionKey matched")
	}
}

func TestNilFilterMatchesAll(t *testing.T) {
	var f *Filter
	if !f.Match(entity(nil)) {
		t.Error("a nil filter should match every entity")
	}
	if f.String() != "" || f.Properties() != nil {
		t.Error("a nil filter has no text and no properties")
	}
}

func TestMatchDoesNotAllocate(t *testing.T) {
	f, err := ParseFilter("PartitionKey eq 'Sales' and (Age ge 30 or Name eq 'Smith') and not (Score lt 2.5)")
	if err != nil {
		t.Fatal(err)
	}
	e := entity(map[string]Value{"Age": Int32(40), "Name": String("Jones"), "Score": Double(3)})
	if n := testing.AllocsPerRun(100, func() { f.Match(e) }); n != 0 {
		t.Errorf("Match allocates %v times per call, want 0", n)
	}
}

// BenchmarkMatch measures one-property filters against an entity with a
// handful of properties.
func BenchmarkMatch(b *testing.B) {
	e := &Entity{PartitionKey: "Sales", RowKey: "000123", Timestamp: time.Now()}
	e.Set("FirstName", String("Jane"))
	e.Set("LastName", String("Jones"))
	e.Set("Age", Int32(41))
	e.Set("Email", String("jonesj@contoso.com"))
	e.Set("Score", Double(3.5))
	for _, src := range []string{"LastName eq 'Jones'", "Age ge 30", "Score lt 4", "PartitionKey eq 'Sales'"} {
		f, err := ParseFilter(src)
		if err != nil {
			b.Fatal(err)
		}
		b.Run(src, func(b *testing.B) {
			b.ReportAllocs()
			for b.Loop() {
				if !f.Match(e) {
					b.Fatal("no match")
				}
			}
		})
	}
}

// Comparable says false only where no value of the property's type
// satisfies any comparison with the literal's type, whatever the operator.
func TestComparableFollowsCompare(t *testing.T) {
	samples := map[EdmType][]Value{
		EdmString:   {String(""), String("5")},
		EdmInt32:    {Int32(5), Int32(-1)},
		EdmInt64:    {{Type: EdmInt64, Int: 5}},
		EdmDouble:   {{Type: EdmDouble, Float: 5}, {Type: EdmDouble, Float: math.NaN()}},
		EdmBoolean:  {{Type: EdmBoolean, Int: 1}, {Type: EdmBoolean}},
		EdmDateTime: {{Type: EdmDateTime, Int: 5}},
		EdmGuid:     {{Type: EdmGuid, Str: "00000000-0000-0000-0000-000000000005"}},
		EdmBinary:   {{Type: EdmBinary, Str: "\x05"}},
	}
	for pt, props := range samples {
		for lt, lits := range samples {
			any := false
			for _, v := range props {
				for _, lit := range lits {
					for op := opEq; op <= opLe; op++ {
						any = any || compare(v, op, lit, UTF16)
					}
				}
			}
			if Comparable(pt, lt) != any {
				t.Errorf("Comparable(%s, %s) = %v, but some comparison is %v", pt, lt, Comparable(pt, lt), any)
			}
		}
	}
}

func TestEachComparison(t *testing.T) {
	f, err := ParseFilter("PartitionKey eq 'a' and (30 lt Age or not (Name eq 'x''y'))")
	if err != nil {
		t.Fatal(err)
	}
	var got []string
	f.EachComparison(func(c Comparison) { got = append(got, c.Property+"|"+c.Op+"|"+c.Literal.Type.String()+"|"+c.Text) })
	want := "PartitionKey|eq|Edm.String|PartitionKey eq 'a' Age|gt|Edm.Int32|Age gt 30 Name|eq|Edm.String|Name eq 'x''y'"
	if strings.Join(got, " ") != want {
		t.Errorf("comparisons:\n%s\nwant:\n%s", strings.Join(got, " "), want)
	}
}
