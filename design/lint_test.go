package design

import (
	"fmt"
	"strings"
	"testing"

	"github.com/tstable/tstable/odata"
)

// The well-designed samples raise no warning at the default size and at a
// larger one.
func TestWellDesignedSamplesRaiseNoWarning(t *testing.T) {
	for _, c := range []struct{ dataset, table string }{
		{"employees", "Employees"}, {"orders", "Orders"}, {"logs", "LogsSpread"},
	} {
		for _, size := range []int{0, 5000} {
			fs := statsOf(sampleTable(t, c.dataset, c.table, size)).Lint(LintOptions{})
			if HasWarnings(fs) {
				t.Errorf("%s (size %d): %s", c.table, size, ids(fs))
			}
		}
	}
}

func TestBadSampleRaisesEveryWarning(t *testing.T) {
	got := map[string]bool{}
	for _, table := range []string{"BadDesign", "BadSinglePartition"} {
		for _, f := range statsOf(sampleTable(t, "bad", table, 0)).Lint(LintOptions{}) {
			got[f.ID] = true
		}
	}
	for _, id := range []string{IDHotPartition, IDSinglePartition, IDAppendOnlyKeys, IDUnpaddedNumericKeys, IDMixedPropertyTypes, IDNearSizeLimit} {
		if !got[id] {
			t.Errorf("bad sample does not raise %s", id)
		}
	}
}

// table builds partitions of the given sizes, RowKeys zero-padded.
func table(sizes map[string]int) []*odata.Entity {
	var ents []*odata.Entity
	for pk, n := range sizes {
		for i := 0; i < n; i++ {
			ents = append(ents, ent(pk, fmt.Sprintf("%05d", i), "V", odata.Int32(1)))
		}
	}
	return ents
}

func TestHotPartition(t *testing.T) {
	sizes := map[string]int{"big": 400}
	for i := 0; i < 20; i++ {
		sizes[fmt.Sprintf("p%02d", i)] = 30
	}
	fs := statsOf(table(sizes)).Lint(LintOptions{})
	f := one(t, fs, IDHotPartition)
	if f.Evidence.Counts["largest"] != 400 || f.Evidence.Counts["median"] != 30 || f.Evidence.Counts["entities"] != 1000 {
		t.Errorf("counts %v", f.Evidence.Counts)
	}
	for _, want := range []string{"'big' holds 400 of 1,000 entities (40%)", "13 times the median", "at least 10% of the table"} {
		if !strings.Contains(f.Evidence.Summary, want) {
			t.Errorf("evidence %q lacks %q", f.Evidence.Summary, want)
		}
	}
	if !strings.Contains(f.Advice, "2,000") {
		t.Errorf("advice does not give the partition target: %s", f.Advice)
	}

	// Not hot: partitions of equal size (each half the table), and a
	// partition 4 times the median but only 5% of the table.
	if fs := statsOf(table(map[string]int{"Marketing": 100, "Sales": 100})).Lint(LintOptions{}); len(byID(fs, IDHotPartition)) != 0 {
		t.Errorf("two equal partitions: %s", ids(fs))
	}
	sizes = map[string]int{"big": 50}
	for i := 0; i < 80; i++ {
		sizes[fmt.Sprintf("p%02d", i)] = 12
	}
	if fs := statsOf(table(sizes)).Lint(LintOptions{}); len(byID(fs, IDHotPartition)) != 0 {
		t.Errorf("a large partition with 5%% of the table: %s", ids(fs))
	}
}

func TestSinglePartition(t *testing.T) {
	fs := statsOf(table(map[string]int{"all": 30})).Lint(LintOptions{})
	f := one(t, fs, IDSinglePartition)
	if f.Evidence.Summary != "all 30 entities have PartitionKey 'all'" || f.Severity != SeverityWarning {
		t.Errorf("%+v", f)
	}
	if len(byID(fs, IDHotPartition)) != 0 {
		t.Errorf("a single partition is not also reported hot: %s", ids(fs))
	}
	if fs := statsOf(table(map[string]int{"a": 15, "b": 15})).Lint(LintOptions{}); len(byID(fs, IDSinglePartition)) != 0 {
		t.Errorf("two partitions: %s", ids(fs))
	}
}

func TestAppendOnlyKeys(t *testing.T) {
	var ents []*odata.Entity
	for d := 1; d <= 12; d++ {
		for i := 0; i < 5; i++ {
			ents = append(ents, ent(fmt.Sprintf("2024-05-%02d", d), fmt.Sprintf("%03d", i)))
		}
	}
	fs := statsOf(ents).Lint(LintOptions{})
	f := one(t, fs, IDAppendOnlyKeys)
	if f.Evidence.Counts["timeKeys"] != 12 || !strings.Contains(f.Evidence.Summary, "'2024-05-01' … '2024-05-12'") {
		t.Errorf("evidence %+v", f.Evidence)
	}
	for _, want := range []string{"hashed prefix", "inverted ticks", "19 digits"} {
		if !strings.Contains(f.Advice, want) {
			t.Errorf("advice lacks %q", want)
		}
	}
	if f.Pattern != "prepend/append anti-pattern" {
		t.Errorf("pattern %q", f.Pattern)
	}

	// A counter: consecutive numbers as PartitionKeys.
	ents = nil
	for n := 1000; n < 1040; n++ {
		ents = append(ents, ent(fmt.Sprint(n), "x"))
	}
	f = one(t, statsOf(ents).Lint(LintOptions{}), IDAppendOnlyKeys)
	if f.Evidence.Counts["counterKeys"] != 40 || !strings.Contains(f.Evidence.Summary, "from '1000' to '1039'") {
		t.Errorf("counter evidence %+v", f.Evidence)
	}

	// Not append-only: the date after a spreading prefix, 16 numbered
	// shards, and ids drawn from a wide space.
	ents = nil
	for d := 1; d <= 12; d++ {
		ents = append(ents, ent(fmt.Sprintf("web_2024-05-%02d", d), "x"), ent(fmt.Sprintf("api_2024-05-%02d", d), "x"))
	}
	for s := 0; s < 16; s++ {
		ents = append(ents, ent(fmt.Sprintf("%02d", s), "x"))
	}
	if fs := statsOf(ents).Lint(LintOptions{}); len(byID(fs, IDAppendOnlyKeys)) != 0 {
		t.Errorf("compound keys and shards: %s", ids(fs))
	}
	ents = nil
	for n := 0; n < 40; n++ {
		ents = append(ents, ent(fmt.Sprint(100000+n*7919), "x"))
	}
	if fs := statsOf(ents).Lint(LintOptions{}); len(byID(fs, IDAppendOnlyKeys)) != 0 {
		t.Errorf("sparse ids: %s", ids(fs))
	}
}

func TestUnpaddedNumericKeys(t *testing.T) {
	var ents []*odata.Entity
	for i := 1; i <= 12; i++ {
		ents = append(ents, ent("Sales", fmt.Sprint(i)))
	}
	fs := statsOf(ents).Lint(LintOptions{})
	f := one(t, fs, IDUnpaddedNumericKeys)
	if !strings.Contains(f.Evidence.Summary, "RowKey '10' sorts before '9' although 10 > 9") {
		t.Errorf("evidence %q", f.Evidence.Summary)
	}
	if f.Evidence.Counts["short"] != 9 || f.Evidence.Counts["numeric"] != 12 || f.Evidence.Counts["width"] != 2 {
		t.Errorf("counts %v", f.Evidence.Counts)
	}
	if !strings.Contains(f.Advice, "'09' instead of '9'") {
		t.Errorf("advice %q", f.Advice)
	}

	// With a prefix, and in PartitionKeys.
	ents = nil
	for i := 1; i <= 11; i++ {
		ents = append(ents, ent(fmt.Sprintf("order_%d", i), "empid_7"), ent(fmt.Sprintf("order_%d", i), "empid_12"))
	}
	fs = statsOf(ents).Lint(LintOptions{})
	if got := byID(fs, IDUnpaddedNumericKeys); len(got) != 2 ||
		!strings.Contains(got[0].Evidence.Summary, "RowKey 'empid_12' sorts before 'empid_7'") ||
		!strings.Contains(got[1].Evidence.Summary, "PartitionKey 'order_10' sorts before 'order_9'") {
		t.Errorf("%+v", got)
	}

	// Not reported: padded numbers; lengths that differ but sort right
	// ('1' < '10'); and equal prefixes in different partitions, whose
	// RowKeys are never ordered against each other.
	ents = nil
	for i := 1; i <= 120; i++ {
		ents = append(ents, ent("Sales", fmt.Sprintf("empid_%06d", i)))
	}
	ents = append(ents, ent("a", "1"), ent("a", "10"), ent("a", "100"),
		ent("b", "2024-02-25_000172"), ent("c", "2024-02-25_001"))
	if fs := statsOf(ents).Lint(LintOptions{}); len(byID(fs, IDUnpaddedNumericKeys)) != 0 {
		t.Errorf("padded keys: %s %+v", ids(fs), fs)
	}
}

func TestMixedPropertyTypes(t *testing.T) {
	var ents []*odata.Entity
	for i := 0; i < 20; i++ {
		v := odata.Int32(int32(20 + i))
		if i%5 == 0 {
			v = odata.String(fmt.Sprint(20 + i))
		}
		ents = append(ents, ent("p", fmt.Sprintf("%02d", i), "Age", v, "Name", odata.String("n")))
	}
	f := one(t, statsOf(ents).Lint(LintOptions{}), IDMixedPropertyTypes)
	want := "Age is Edm.String in 4, Edm.Int32 in 16 entities; a typed filter such as Age gt 30 silently skips the 4 entities where Age is not Edm.Int32"
	if f.Evidence.Summary != want {
		t.Errorf("evidence\n got %q\nwant %q", f.Evidence.Summary, want)
	}
	if len(f.Evidence.Examples) != 1 || f.Evidence.Examples[0] != "Age is Edm.String in ('p', '00')" {
		t.Errorf("examples %v", f.Evidence.Examples)
	}
	// The skipped count is what the filter really misses.
	flt, err := odata.ParseFilter("Age gt 30")
	if err != nil {
		t.Fatal(err)
	}
	var missed int64
	for _, e := range ents {
		if v, _ := e.Get("Age"); v.Type == odata.EdmString && !flt.Match(e) && v.Str > "30" {
			missed++
		}
	}
	if missed == 0 {
		t.Errorf("the fixture should hold a string Age above 30 that the filter misses")
	}
	// One type per property: nothing to report.
	if fs := statsOf(table(map[string]int{"a": 5})).Lint(LintOptions{}); len(byID(fs, IDMixedPropertyTypes)) != 0 {
		t.Errorf("%s", ids(fs))
	}
}

func TestNearSizeLimit(t *testing.T) {
	wide := ent("p", "wide")
	for i := 0; i < 230; i++ {
		wide.Set(fmt.Sprintf("P%03d", i), odata.Int32(1))
	}
	long := ent("p", "long", "Notes", odata.String(strings.Repeat("x", 30000)))
	big := ent("p", "big")
	for i := 0; i < 16; i++ {
		big.Set(fmt.Sprintf("Blob%02d", i), odata.Binary(make([]byte, 60000)))
	}
	f := one(t, statsOf([]*odata.Entity{wide, long, big, ent("p", "small")}).Lint(LintOptions{}), IDNearSizeLimit)
	c := f.Evidence.Counts
	if c["nearEntitySize"] != 1 || c["nearPropertyCount"] != 1 || c["nearValueSize"] != 2 {
		t.Errorf("counts %v", c)
	}
	for _, want := range []string{"most 230 of 252", "longest 60,000 of 65,536"} {
		if !strings.Contains(f.Evidence.Summary, want) {
			t.Errorf("evidence %q lacks %q", f.Evidence.Summary, want)
		}
	}
	if f.Pattern != "large entities and wide entities patterns" {
		t.Errorf("pattern %q", f.Pattern)
	}
	// Below 90% of every limit: nothing.
	ok := ent("p", "ok", "Notes", odata.String(strings.Repeat("x", 29000)))
	for i := 0; i < 220; i++ {
		ok.Set(fmt.Sprintf("P%03d", i), odata.Int32(1))
	}
	if fs := statsOf([]*odata.Entity{ok}).Lint(LintOptions{}); len(fs) != 0 {
		t.Errorf("%s", ids(fs))
	}
}

func TestEntityPerPartition(t *testing.T) {
	var ents []*odata.Entity
	for i := 0; i < 30; i++ {
		ents = append(ents, ent(fmt.Sprintf("user%03d", i), ""))
	}
	fs := statsOf(ents).Lint(LintOptions{})
	f := one(t, fs, IDEntityPerPartition)
	if f.Severity != SeverityInfo || HasWarnings(fs) {
		t.Errorf("%s", ids(fs))
	}
	if fs := statsOf(table(map[string]int{"a": 2, "b": 1})).Lint(LintOptions{}); len(byID(fs, IDEntityPerPartition)) != 0 {
		t.Errorf("%s", ids(fs))
	}
}

func TestThroughput(t *testing.T) {
	s := statsOf(table(map[string]int{"a": 25, "b": 25, "c": 25, "d": 25}))
	if len(byID(s.Lint(LintOptions{}), IDThroughput)) != 0 {
		t.Errorf("no rate, no throughput finding")
	}
	f := one(t, s.Lint(LintOptions{Rate: 4000}), IDThroughput)
	if f.Severity != SeverityInfo || f.Evidence.Counts["hottestPartitionRate"] != 1000 {
		t.Errorf("4,000/s over four even partitions: %+v", f)
	}
	f = one(t, s.Lint(LintOptions{Rate: 10000}), IDThroughput)
	if f.Severity != SeverityWarning || f.Evidence.Counts["hottestPartitionRate"] != 2500 || !strings.Contains(f.Advice, "throttled") {
		t.Errorf("10,000/s: %+v", f)
	}
	f = one(t, statsOf(table(map[string]int{"a": 1, "b": 1})).Lint(LintOptions{Rate: 30000}), IDThroughput)
	if f.Severity != SeverityWarning || !strings.Contains(f.Advice, "several storage accounts") {
		t.Errorf("30,000/s: %+v", f)
	}
	// Keys that follow time send every write to the newest partition.
	var ents []*odata.Entity
	for d := 1; d <= 10; d++ {
		ents = append(ents, ent(fmt.Sprintf("2024-05-%02d", d), "x"))
	}
	f = one(t, statsOf(ents).Lint(LintOptions{Rate: 3000}), IDThroughput)
	if f.Severity != SeverityWarning || f.Evidence.Counts["hottestPartitionRate"] != 3000 {
		t.Errorf("append-only at 3,000/s: %+v", f)
	}
}
