package design

import (
	"slices"
	"strconv"
)

// sizeDist is the distribution of partition sizes: how many partitions hold
// each number of entities. Partitions of equal size share one entry, and
// the sizes of distinct entries add up to at most the table's entity count,
// so there are fewer than √(2n) entries for n entities: a million-entity
// table needs at most 1,414 of them, however its partitions are cut.
type sizeDist struct {
	counts map[int64]int64
	n      int64 // partitions
}

func (d *sizeDist) add(size int64) {
	if d.counts == nil {
		d.counts = map[int64]int64{}
	}
	d.counts[size]++
	d.n++
}

// sorted returns the distinct sizes, smallest first.
func (d *sizeDist) sorted() []int64 {
	keys := make([]int64, 0, len(d.counts))
	for k := range d.counts {
		keys = append(keys, k)
	}
	slices.Sort(keys)
	return keys
}

// quantile returns the nearest-rank q-quantile of the partition sizes
// (0 for no partitions): the size of the partition at rank ⌈q·n⌉.
func (d *sizeDist) quantile(q float64) int64 {
	if d.n == 0 {
		return 0
	}
	rank := int64(q * float64(d.n))
	if float64(rank) < q*float64(d.n) {
		rank++
	}
	rank = max(rank, 1)
	var seen int64
	keys := d.sorted()
	for _, k := range keys {
		seen += d.counts[k]
		if seen >= rank {
			return k
		}
	}
	return keys[len(keys)-1]
}

// Bucket is one bar of the partition-size histogram: the partitions that
// hold From to To entities (both included).
type Bucket struct {
	From       int64 `json:"from"`
	To         int64 `json:"to"`
	Partitions int64 `json:"partitions"`
}

// Label names the bucket's size range, "1", "2-3", "1024-2047".
func (b Bucket) Label() string {
	if b.From == b.To {
		return strconv.FormatInt(b.From, 10)
	}
	return strconv.FormatInt(b.From, 10) + "-" + strconv.FormatInt(b.To, 10)
}

// buckets groups the sizes in powers of two (1, 2-3, 4-7, …) from the
// smallest to the largest bucket that holds a partition; empty buckets in
// between are kept so the chart's shape is honest.
func (d *sizeDist) buckets() []Bucket {
	if d.n == 0 {
		return []Bucket{}
	}
	var out []Bucket
	for _, k := range d.sorted() {
		from := int64(1)
		for from*2 <= k {
			from *= 2
		}
		if len(out) == 0 {
			out = append(out, Bucket{From: from, To: from*2 - 1})
		}
		for out[len(out)-1].From < from {
			last := out[len(out)-1]
			out = append(out, Bucket{From: last.From * 2, To: last.From*4 - 1})
		}
		out[len(out)-1].Partitions += d.counts[k]
	}
	return out
}
