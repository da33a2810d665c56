package odata

import (
	"strings"
	"testing"
)

func k(pk, rk string) Key { return Key{PartitionKey: pk, RowKey: rk} }

// TestPlanQuery checks the class the service would give each filter and,
// through KeyRange.Contains, which sample keys the plan reads.
func TestPlanQuery(t *testing.T) {
	tests := []struct {
		rule    string
		src     string
		class   QueryClass
		nranges int
		in      []Key // keys the plan must read
		out     []Key // keys it must not read
		diag    Diagnosis
		ranges  []string // KeyRange.String of each range, when given
	}{
		{
			rule: "guide: both keys by eq is a point query", src: "PartitionKey eq 'Sales' and RowKey eq '00010'",
			class: ClassPoint, diag: DiagPoint, nranges: 1,
			in:     []Key{k("Sales", "00010")},
			out:    []Key{k("Sales", "00011"), k("Sales", "0001"), k("Sales", ""), k("Salet", "00010"), k("Sale", "00010")},
			ranges: []string{"PartitionKey = 'Sales', RowKey = '00010'"},
		},
		{
			rule: "point query with more conditions still reads one entity", src: "RowKey eq '2' and Age gt 30 and PartitionKey eq 'Sales'",
			class: ClassPoint, diag: DiagPoint, nranges: 1, in: []Key{k("Sales", "2")}, out: []Key{k("Sales", "3")},
		},
		{
			rule: "operands in either order", src: "'Sales' eq PartitionKey and '2' eq RowKey",
			class: ClassPoint, diag: DiagPoint, nranges: 1, in: []Key{k("Sales", "2")},
		},
		{
			rule: "guide: PartitionKey eq and a RowKey range is a range query", src: "PartitionKey eq 'Sales' and RowKey ge 'S' and RowKey lt 'T'",
			class: ClassRange, diag: DiagRowRange, nranges: 1,
			in:     []Key{k("Sales", "S"), k("Sales", "Smith"), k("Sales", "Sz")},
			out:    []Key{k("Sales", "T"), k("Sales", "R"), k("Sales", "s"), k("Sale", "S"), k("Sales2", "S")},
			ranges: []string{"PartitionKey = 'Sales', RowKey in ['S', 'T')"},
		},
		{
			rule: "one RowKey bound is a range to the end of the partition", src: "PartitionKey eq 'Sales' and RowKey gt 'M'",
			class: ClassRange, diag: DiagRowRange, nranges: 1,
			in:     []Key{k("Sales", "N"), k("Sales", "zzz")},
			out:    []Key{k("Sales", "M"), k("Sales", "A"), k("Salesx", "N")},
			ranges: []string{"PartitionKey = 'Sales', RowKey > 'M'"},
		},
		{
			rule: "upper bound only", src: "PartitionKey eq 'Sales' and RowKey le 'M'",
			class: ClassRange, diag: DiagRowRange, nranges: 1,
			in:     []Key{k("Sales", ""), k("Sales", "M")},
			out:    []Key{k("Sales", "Ma"), k("Sale", "A")},
			ranges: []string{"PartitionKey = 'Sales', RowKey <= 'M'"},
		},
		{
			rule: "several bounds intersect", src: "PartitionKey eq 'P' and RowKey ge 'b' and RowKey gt 'c' and RowKey lt 'x' and RowKey le 'm'",
			class: ClassRange, diag: DiagRowRange, nranges: 1,
			in:     []Key{k("P", "ca"), k("P", "m")},
			out:    []Key{k("P", "c"), k("P", "b"), k("P", "ma"), k("P", "n")},
			ranges: []string{"PartitionKey = 'P', RowKey in ('c', 'm']"},
		},
		{
			rule: "a RowKey eq inside bounds is a point", src: "PartitionKey eq 'P' and RowKey ge 'a' and RowKey eq 'k'",
			class: ClassPoint, diag: DiagPoint, nranges: 1, in: []Key{k("P", "k")}, out: []Key{k("P", "a")},
		},
		{
			rule: "range query with a non-key condition stays a range", src: "PartitionKey eq 'P' and RowKey lt 'm' and Age gt 3",
			class: ClassRange, diag: DiagRowRange, nranges: 1,
		},
		{
			rule: "guide: PartitionKey eq and another property is a partition scan", src: "PartitionKey eq 'Sales' and LastName eq 'Smith'",
			class: ClassPartitionScan, diag: DiagPartitionFiltered, nranges: 1,
			in:     []Key{k("Sales", ""), k("Sales", "zzz")},
			out:    []Key{k("Sale", "a"), k("Salesx", "a"), k("Support", "a")},
			ranges: []string{"PartitionKey = 'Sales'"},
		},
		{
			rule: "guide: RowKey under or is a partition scan", src: "PartitionKey eq 'Sales' and (RowKey eq '121' or RowKey eq '322')",
			class: ClassPartitionScan, diag: DiagRowKeyOr, nranges: 1,
			in:  []Key{k("Sales", "121"), k("Sales", "322"), k("Sales", "200")},
			out: []Key{k("Other", "121")},
		},
		{
			rule: "RowKey ne narrows nothing", src: "PartitionKey eq 'P' and RowKey ne 'a'",
			class: ClassPartitionScan, diag: DiagRowKeyExcluded, nranges: 1, in: []Key{k("P", "a"), k("P", "b")},
		},
		{
			rule: "not over RowKey narrows nothing", src: "PartitionKey eq 'P' and not (RowKey ge 'a' and RowKey lt 'b')",
			class: ClassPartitionScan, diag: DiagRowKeyExcluded, nranges: 1, in: []Key{k("P", "a"), k("P", "c")},
		},
		{
			rule: "PartitionKey alone is a partition scan", src: "PartitionKey eq 'P'",
			class: ClassPartitionScan, diag: DiagWholePartition, nranges: 1, in: []Key{k("P", "a")}, out: []Key{k("Q", "a")},
		},
		{
			rule: "guide: no PartitionKey is a table scan", src: "LastName eq 'Jones'",
			class: ClassTableScan, diag: DiagTableFiltered, nranges: 1,
			in:     []Key{k("", ""), k("Sales", "x"), k("zzz", "zzz")},
			ranges: []string{"the whole table"},
		},
		{
			rule: "RowKey alone is a table scan", src: "RowKey eq '00010'",
			class: ClassTableScan, diag: DiagRowKeyWithoutPartition, nranges: 1, in: []Key{k("A", "00010"), k("Z", "00010")},
		},
		{
			rule: "or between partitions is a table scan", src: "PartitionKey eq 'A' or PartitionKey eq 'B'",
			class: ClassTableScan, diag: DiagPartitionOr, nranges: 1, in: []Key{k("A", "x"), k("C", "x")},
		},
		{
			rule: "a PartitionKey eq under or does not fix the partition", src: "PartitionKey eq 'A' and Age eq 1 or Name eq 'x'",
			class: ClassTableScan, diag: DiagPartitionOr, nranges: 1, in: []Key{k("B", "x")},
		},
		{
			rule: "not PartitionKey eq is a table scan", src: "not (PartitionKey eq 'A')",
			class: ClassTableScan, diag: DiagPartitionOr, nranges: 1, in: []Key{k("B", "x")},
		},
		{
			rule: "PartitionKey range: a table scan that reads only those partitions", src: "PartitionKey ge 'A' and PartitionKey lt 'C'",
			class: ClassTableScan, diag: DiagPartitionRange, nranges: 1,
			in:     []Key{k("A", ""), k("B", "x"), k("Bzzz", "zzz")},
			out:    []Key{k("C", ""), k("", "x"), k("@", "x"), k("c", "x")},
			ranges: []string{"PartitionKey in ['A', 'C')"},
		},
		{
			rule: "PartitionKey range, open above", src: "PartitionKey gt 'M' and Age eq 1",
			class: ClassTableScan, diag: DiagPartitionRange, nranges: 1,
			in: []Key{k("Ma", "")}, out: []Key{k("M", "zzz")},
			ranges: []string{"PartitionKey > 'M'"},
		},
		{
			rule: "PartitionKey range with RowKey bounds reads the partitions", src: "PartitionKey le 'B' and RowKey eq 'x'",
			class: ClassTableScan, diag: DiagPartitionRange, nranges: 1,
			in: []Key{k("A", "y"), k("B", "x")}, out: []Key{k("Ba", "x")},
		},
		{
			rule: "contradiction: two PartitionKey values", src: "PartitionKey eq 'A' and PartitionKey eq 'B'",
			class: ClassPartitionScan, diag: DiagPartitionKeysConflict, nranges: 0,
		},
		{
			rule: "contradiction: PartitionKey eq outside its bounds", src: "PartitionKey eq 'A' and PartitionKey gt 'A'",
			class: ClassPartitionScan, diag: DiagPartitionKeysConflict, nranges: 0,
		},
		{
			rule: "contradiction: crossed PartitionKey bounds", src: "PartitionKey gt 'C' and PartitionKey lt 'A'",
			class: ClassTableScan, diag: DiagPartitionBoundsCrossed, nranges: 0,
		},
		{
			rule: "contradiction: empty RowKey range", src: "PartitionKey eq 'P' and RowKey ge 'T' and RowKey lt 'S'",
			class: ClassRange, diag: DiagRowKeyBoundsCrossed, nranges: 0,
		},
		{
			rule: "contradiction: half-open empty RowKey range", src: "PartitionKey eq 'P' and RowKey gt 'S' and RowKey le 'S'",
			class: ClassRange, diag: DiagRowKeyBoundsCrossed, nranges: 0,
		},
		{
			rule: "contradiction: two RowKey values", src: "PartitionKey eq 'P' and RowKey eq 'a' and RowKey eq 'b'",
			class: ClassRange, diag: DiagRowKeyBoundsCrossed, nranges: 0,
		},
		{
			rule: "contradiction: nothing sorts before ''", src: "PartitionKey eq 'P' and RowKey lt ''",
			class: ClassRange, diag: DiagRowKeyBoundsCrossed, nranges: 0,
		},
		{
			rule: "contradiction: empty RowKey range without a partition", src: "RowKey gt 'b' and RowKey lt 'a'",
			class: ClassTableScan, diag: DiagRowKeyBoundsCrossed, nranges: 0,
		},
		{
			rule: "a key compared with a number matches nothing", src: "PartitionKey eq 'P' and RowKey eq 10",
			class: ClassPartitionScan, diag: DiagKeyNotString, nranges: 0,
		},
		{
			rule: "Timestamp compared with a string matches nothing", src: "Timestamp gt '2014'",
			class: ClassTableScan, diag: DiagTimestampNotDateTime, nranges: 0,
		},
		{
			rule: "Timestamp filters get the log tail advice", src: "Timestamp ge datetime'2014-08-22T00:00:00Z'",
			class: ClassTableScan, diag: DiagTableTimestamp, nranges: 1,
		},
		{
			rule: "Timestamp within a partition, too", src: "PartitionKey eq 'P' and Timestamp ge datetime'2014-08-22T00:00:00Z'",
			class: ClassPartitionScan, diag: DiagPartitionTimestamp, nranges: 1,
		},
		{
			rule: "the empty string is a valid key", src: "PartitionKey eq '' and RowKey eq ''",
			class: ClassPoint, diag: DiagPoint, nranges: 1, in: []Key{k("", "")}, out: []Key{k("", "a"), k("a", "")},
		},
	}
	for _, tt := range tests {
		t.Run(tt.rule, func(t *testing.T) {
			f, err := ParseFilter(tt.src)
			if err != nil {
				t.Fatalf("ParseFilter(%q): %v", tt.src, err)
			}
			p := PlanQuery(f)
			if p.Class != tt.class || len(p.Ranges) != tt.nranges || p.Diagnosis != tt.diag {
				t.Fatalf("%q: class %s with %d ranges (%s), want %s with %d (%s)", tt.src, p.Class, len(p.Ranges), p.Diagnosis, tt.class, tt.nranges, tt.diag)
			}
			for _, key := range tt.in {
				if !anyContains(p.Ranges, key) {
					t.Errorf("%q: key %v is not read; ranges %v", tt.src, key, p.Ranges)
				}
			}
			for _, key := range tt.out {
				if anyContains(p.Ranges, key) {
					t.Errorf("%q: key %v is read; ranges %v", tt.src, key, p.Ranges)
				}
			}
			if tt.ranges != nil {
				var got []string
				for _, r := range p.Ranges {
					got = append(got, r.String())
				}
				if strings.Join(got, "|") != strings.Join(tt.ranges, "|") {
					t.Errorf("%q: ranges %q, want %q", tt.src, got, tt.ranges)
				}
			}
		})
	}
}

func anyContains(rs []KeyRange, key Key) bool {
	for _, r := range rs {
		if r.Contains(key) {
			return true
		}
	}
	return false
}

func TestPlanNilFilter(t *testing.T) {
	p := PlanQuery(nil)
	if p.Class != ClassTableScan || p.Diagnosis != DiagNoFilter || len(p.Ranges) != 1 || p.Ranges[0].Lower != nil || p.Ranges[0].Upper != nil {
		t.Errorf("PlanQuery(nil) = %s %v, want a table scan of one full range", p.Class, p.Ranges)
	}
}

// TestPlanIsSound checks on sample entities that every entity the filter
// matches lies inside the plan's ranges: the planner never skips a match.
func TestPlanIsSound(t *testing.T) {
	pks := []string{"", "A", "B", "Sales", "Salesx", "Sale", "Z"}
	rks := []string{"", "0", "00010", "121", "322", "S", "Smith", "T", "a"}
	filters := []string{
		"PartitionKey eq 'Sales' and RowKey eq '00010'",
		"PartitionKey eq 'Sales' and RowKey ge 'S' and RowKey lt 'T'",
		"PartitionKey eq 'Sales' and (RowKey eq '121' or RowKey eq '322')",
		"PartitionKey ge 'A' and PartitionKey lt 'Sales' and RowKey gt '0'",
		"PartitionKey gt 'Sale' and PartitionKey le 'Salesx'",
		"PartitionKey eq 'A' and RowKey le '121' and RowKey ne '0'",
		"RowKey eq 'S'",
		"PartitionKey eq 'A' and PartitionKey eq 'B'",
		"PartitionKey eq 'B' and RowKey gt 'a'",
	}
	for _, src := range filters {
		f, err := ParseFilter(src)
		if err != nil {
			t.Fatal(err)
		}
		p := PlanQuery(f)
		for _, pk := range pks {
			for _, rk := range rks {
				e := &Entity{PartitionKey: pk, RowKey: rk}
				if f.Match(e) && !anyContains(p.Ranges, k(pk, rk)) {
					t.Errorf("%q matches (%q, %q) but the plan %v does not read it", src, pk, rk, p.Ranges)
				}
			}
		}
	}
}

// BenchmarkPlanQuery: planning a query, as every query does before it
// reads: the decision only, its words left until something prints them.
func BenchmarkPlanQuery(b *testing.B) {
	for _, src := range []string{
		"PartitionKey eq 'Sales' and RowKey eq '00010'",
		"PartitionKey eq 'Sales' and Age gt 30",
		"Age gt 30",
	} {
		f, err := ParseFilter(src)
		if err != nil {
			b.Fatal(err)
		}
		b.Run(src, func(b *testing.B) {
			b.ReportAllocs()
			for b.Loop() {
				PlanQuery(f)
			}
		})
	}
}
