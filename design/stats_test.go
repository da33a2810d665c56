package design

import (
	"encoding/json"
	"fmt"
	"strings"
	"testing"

	"github.com/tstable/tstable/odata"
)

// skewed is 3 partitions of 1, 2 and 7 entities, with Age typed two ways.
func skewed() []*odata.Entity {
	var ents []*odata.Entity
	add := func(pk string, n int) {
		for i := 0; i < n; i++ {
			ents = append(ents, ent(pk, fmt.Sprintf("%03d", i), "Age", odata.Int32(int32(20+i))))
		}
	}
	add("a", 1)
	add("b", 2)
	add("c", 7)
	ents[0].Set("Age", odata.String("twenty"))
	ents[0].Set("Name", odata.String("x"))
	return ents
}

func TestStatsFigures(t *testing.T) {
	r := statsOf(skewed()).Result()
	if r.Entities != 10 || r.Partitions != 3 {
		t.Fatalf("entities %d partitions %d, want 10 and 3", r.Entities, r.Partitions)
	}
	if got := r.EntitiesPerPartition; got != (PartitionSizes{Min: 1, Median: 2, P99: 7, Max: 7}) {
		t.Errorf("per partition %+v", got)
	}
	if len(r.LargestPartitions) != 3 || r.LargestPartitions[0] != (PartitionInfo{"c", 7, 0.7}) || r.LargestPartitions[2].PartitionKey != "a" {
		t.Errorf("largest %+v", r.LargestPartitions)
	}
	if r.RowKeyLength != (Length{3, 3, 3}) || r.PartitionKeyLength != (Length{1, 1, 1}) {
		t.Errorf("key lengths %+v %+v", r.PartitionKeyLength, r.RowKeyLength)
	}
	if r.PropertyCount.Max != 2 || r.PropertyCount.MaxKey != (odata.Key{PartitionKey: "a", RowKey: "000"}) {
		t.Errorf("property count %+v", r.PropertyCount)
	}
	age := r.Properties[0]
	if age.Name != "Age" || age.Entities != 10 || len(age.Types) != 2 ||
		age.Types[0] != (TypeCount{"Edm.String", 1}) || age.Types[1] != (TypeCount{"Edm.Int32", 9}) {
		t.Errorf("Age %+v", age)
	}
	want := []Bucket{{1, 1, 1}, {2, 3, 1}, {4, 7, 1}}
	if fmt.Sprint(r.Distribution) != fmt.Sprint(want) {
		t.Errorf("distribution %v, want %v", r.Distribution, want)
	}
	b, _ := json.Marshal(r)
	if !strings.Contains(string(b), `"entities":10,"partitions":3`) {
		t.Errorf("json lacks top-level entities and partitions: %s", b)
	}
}

func TestStatsKeepsOnlyTheFiveLargestPartitions(t *testing.T) {
	s := NewStats()
	for p := 0; p < 50; p++ {
		for i := 0; i <= p%11; i++ {
			s.Add(ent(fmt.Sprintf("p%02d", p), fmt.Sprint(i)))
		}
	}
	r := s.Result()
	var got []string
	for _, p := range r.LargestPartitions {
		got = append(got, fmt.Sprintf("%s:%d", p.PartitionKey, p.Entities))
	}
	if want := "p10:11 p21:11 p32:11 p43:11 p09:10"; strings.Join(got, " ") != want {
		t.Errorf("largest %s, want %s", strings.Join(got, " "), want)
	}
	if len(s.top.entries) != TopPartitions {
		t.Errorf("kept %d partitions", len(s.top.entries))
	}
}

func TestPartitionSizeDistributionIsBounded(t *testing.T) {
	// 200,000 entities cut into partitions of every size from 1 up: the
	// distribution keeps one entry per distinct size, fewer than √(2n).
	s := NewStats()
	n, size, p := 0, 1, 0
	for n < 200_000 {
		pk := fmt.Sprintf("p%06d", p)
		for i := 0; i < size && n < 200_000; i++ {
			s.Add(&odata.Entity{PartitionKey: pk, RowKey: "r"})
			n++
		}
		size++
		p++
	}
	if got := len(s.dist.counts); got > 633 { // √(400,000) ≈ 632.5
		t.Errorf("%d entries for 200,000 entities", got)
	}
	if r := s.Result(); r.EntitiesPerPartition.Max != int64(size-1) && r.EntitiesPerPartition.Max != int64(size-2) {
		t.Errorf("max %d", r.EntitiesPerPartition.Max)
	}
}

func TestTimeShapedKeys(t *testing.T) {
	for _, k := range []string{"2024-03-01", "2024-03", "20240301", "2024030113", "2024-03-01T10:00:00Z", "2024-03-01_web",
		"1709251200", "1709251200000", "638448192000000000"} {
		if !timeShaped(k) {
			t.Errorf("%q should look like a time", k)
		}
	}
	for _, k := range []string{"Sales", "07_web", "000123", "2519438183744919999", "1234-56", "20241301", "cust_2024-03-01", "42"} {
		if timeShaped(k) {
			t.Errorf("%q should not look like a time", k)
		}
	}
}
