package design

import (
	"container/heap"
	"slices"

	"github.com/tstable/tstable/odata"
)

// TopPartitions is how many of the largest partitions Stats names.
const TopPartitions = 5

// Stats accumulates the shape of one table from its entities, read once in
// key order (PartitionKey, then RowKey), as backend.Backend.Query streams
// them. Its memory does not grow with the number of entities: it keeps
// counters, the distribution of partition sizes (see sizeDist), the five
// largest partitions, one entry per property name, and a few example keys.
// Entities that arrive out of key order are still counted, but a partition
// met twice counts as two.
//
// The same pass gathers what Lint needs, so one scan serves both.
type Stats struct {
	entities   int64
	partitions int64

	curPK    string
	curCount int64

	dist sizeDist
	top  topHeap

	pkLen, rkLen lenStat

	sizeSum     int64
	sizeMax     int64
	sizeMaxKey  odata.Key
	propMax     int
	propMaxKey  odata.Key
	props       map[string]*propStat
	slots       []propSlot // the last entity's property names, by position
	keys        keyShapes  // key-shape evidence for lint
	limits      limitScan  // entities near the service's limits
	firstKey    odata.Key
	lastKey     odata.Key
	partitionAt []string // the first few partition keys, for evidence
}

// propSlot remembers which propStat the property at one position of the
// previous entity used: entities of one table mostly list the same names in
// the same order, so the map is consulted only when the name differs.
type propSlot struct {
	name string
	st   *propStat
}

// propStat counts, for one property name, the entities holding it with
// each Edm type, and the first entity seen with each type.
type propStat struct {
	count   [odata.EdmBinary + 1]int64
	example [odata.EdmBinary + 1]odata.Key
}

// lenStat is the minimum, total and maximum of a length.
type lenStat struct {
	n, min, max, sum int64
}

func (l *lenStat) add(v int64) {
	if l.n == 0 || v < l.min {
		l.min = v
	}
	l.max = max(l.max, v)
	l.sum += v
	l.n++
}

func (l *lenStat) result() Length {
	r := Length{Min: l.min, Max: l.max}
	if l.n > 0 {
		r.Avg = round1(float64(l.sum) / float64(l.n))
	}
	return r
}

// NewStats returns an empty accumulator.
func NewStats() *Stats {
	return &Stats{props: map[string]*propStat{}}
}

// Add counts one entity. The entity is not kept, but its key strings may
// be (as examples), so they must not be changed afterwards.
func (s *Stats) Add(e *odata.Entity) {
	if s.entities == 0 || e.PartitionKey != s.curPK {
		s.closePartition()
		s.curPK = e.PartitionKey
		s.partitions++
		s.pkLen.add(int64(odata.UTF16Len(e.PartitionKey)))
		s.keys.addPartition(e.PartitionKey)
		if len(s.partitionAt) < 3 {
			s.partitionAt = append(s.partitionAt, e.PartitionKey)
		}
	}
	if s.entities == 0 {
		s.firstKey = odata.Key{PartitionKey: e.PartitionKey, RowKey: e.RowKey}
	}
	s.entities++
	s.curCount++
	s.rkLen.add(int64(odata.UTF16Len(e.RowKey)))
	s.keys.addRow(e.RowKey)

	size := int64(odata.EntitySize(e))
	var longest int
	var longestName string
	for i := range e.Properties {
		p := &e.Properties[i]
		var st *propStat
		if i < len(s.slots) && s.slots[i].name == p.Name {
			st = s.slots[i].st
		} else {
			st = s.props[p.Name]
			if st == nil {
				st = &propStat{}
				s.props[p.Name] = st
			}
			if i < len(s.slots) {
				s.slots[i] = propSlot{p.Name, st}
			} else {
				s.slots = append(s.slots, propSlot{p.Name, st})
			}
		}
		t := p.Value.Type
		if !t.Valid() {
			t = 0
		}
		if st.count[t] == 0 {
			st.example[t] = odata.Key{PartitionKey: e.PartitionKey, RowKey: e.RowKey}
		}
		st.count[t]++
		if pl := odata.PayloadSize(p.Value); pl > longest {
			longest, longestName = pl, p.Name
		}
	}
	s.sizeSum += size
	if size > s.sizeMax {
		s.sizeMax = size
		s.sizeMaxKey = odata.Key{PartitionKey: e.PartitionKey, RowKey: e.RowKey}
	}
	if len(e.Properties) > s.propMax || s.entities == 1 {
		s.propMax = len(e.Properties)
		s.propMaxKey = odata.Key{PartitionKey: e.PartitionKey, RowKey: e.RowKey}
	}
	s.limits.add(e, size, len(e.Properties), longest, longestName)
	s.lastKey = odata.Key{PartitionKey: e.PartitionKey, RowKey: e.RowKey}
}

// closePartition records the size of the partition being read.
func (s *Stats) closePartition() {
	if s.curCount == 0 {
		return
	}
	s.dist.add(s.curCount)
	s.top.offer(s.curPK, s.curCount)
	s.curCount = 0
	s.keys.closeRows(s.curPK)
}

// Summary is the shape of a table, as Stats.Result reports it. Its JSON
// form is what "tstable stats -o json" prints.
type Summary struct {
	Table                string          `json:"table,omitempty"`
	Entities             int64           `json:"entities"`
	Partitions           int64           `json:"partitions"`
	EntitiesPerPartition PartitionSizes  `json:"entitiesPerPartition"`
	LargestPartitions    []PartitionInfo `json:"largestPartitions"`
	Distribution         []Bucket        `json:"partitionSizeDistribution"`
	PartitionKeyLength   Length          `json:"partitionKeyLength"`
	RowKeyLength         Length          `json:"rowKeyLength"`
	EntitySize           SizeInfo        `json:"entitySize"`
	PropertyCount        PropertyCount   `json:"propertyCount"`
	Properties           []PropertyInfo  `json:"properties"`
}

// PartitionSizes are the minimum, median, 99th percentile and maximum of
// the entities per partition (nearest rank).
type PartitionSizes struct {
	Min    int64 `json:"min"`
	Median int64 `json:"median"`
	P99    int64 `json:"p99"`
	Max    int64 `json:"max"`
}

// PartitionInfo is one partition and its share of the table's entities.
type PartitionInfo struct {
	PartitionKey string  `json:"partitionKey"`
	Entities     int64   `json:"entities"`
	Share        float64 `json:"share"`
}

// Length is the minimum, average and maximum length of a key, in
// characters (UTF-16 code units, as the service counts its 1,024 limit).
// PartitionKey lengths count each partition once.
type Length struct {
	Min int64   `json:"min"`
	Avg float64 `json:"avg"`
	Max int64   `json:"max"`
}

// SizeInfo is the entity size by the service's formula (see odata.EntitySize):
// the average, the largest, the key of the largest, and the largest as a
// share of the 1 MiB limit.
type SizeInfo struct {
	Avg          float64   `json:"avg"`
	Max          int64     `json:"max"`
	MaxKey       odata.Key `json:"maxKey"`
	ShareOfLimit float64   `json:"maxShareOfLimit"`
}

// PropertyCount is the most user properties one entity has, against the
// service's limit.
type PropertyCount struct {
	Max    int       `json:"max"`
	Limit  int       `json:"limit"`
	MaxKey odata.Key `json:"maxKey"`
}

// PropertyInfo is one property name and the Edm types it has.
type PropertyInfo struct {
	Name     string      `json:"name"`
	Entities int64       `json:"entities"`
	Types    []TypeCount `json:"types"`
}

// TypeCount is how many entities hold a property with one Edm type.
type TypeCount struct {
	Type     string `json:"type"`
	Entities int64  `json:"entities"`
}

// Result returns the figures so far. It may be called more than once;
// Add may continue afterwards.
func (s *Stats) Result() *Summary {
	dist, top := s.finished()
	r := &Summary{
		Entities:           s.entities,
		Partitions:         s.partitions,
		LargestPartitions:  []PartitionInfo{},
		Distribution:       dist.buckets(),
		PartitionKeyLength: s.pkLen.result(),
		RowKeyLength:       s.rkLen.result(),
		PropertyCount:      PropertyCount{Max: s.propMax, Limit: odata.MaxProperties, MaxKey: s.propMaxKey},
		Properties:         []PropertyInfo{},
	}
	if dist.n > 0 {
		keys := dist.sorted()
		r.EntitiesPerPartition = PartitionSizes{Min: keys[0], Median: dist.quantile(0.5), P99: dist.quantile(0.99), Max: keys[len(keys)-1]}
	}
	for _, p := range top {
		r.LargestPartitions = append(r.LargestPartitions, PartitionInfo{p.pk, p.n, ratio(p.n, s.entities)})
	}
	if s.entities > 0 {
		r.EntitySize = SizeInfo{
			Avg:          round1(float64(s.sizeSum) / float64(s.entities)),
			Max:          s.sizeMax,
			MaxKey:       s.sizeMaxKey,
			ShareOfLimit: ratio(s.sizeMax, odata.MaxEntityBytes),
		}
	}
	names := make([]string, 0, len(s.props))
	for n := range s.props {
		names = append(names, n)
	}
	slices.Sort(names)
	for _, n := range names {
		st := s.props[n]
		pi := PropertyInfo{Name: n}
		for t := odata.EdmString; t <= odata.EdmBinary; t++ {
			if c := st.count[t]; c > 0 {
				pi.Types = append(pi.Types, TypeCount{t.String(), c})
				pi.Entities += c
			}
		}
		r.Properties = append(r.Properties, pi)
	}
	return r
}

// finished returns the size distribution and the largest partitions with
// the partition being read included, without closing it.
func (s *Stats) finished() (*sizeDist, []topEntry) {
	d := &sizeDist{counts: make(map[int64]int64, len(s.dist.counts)+1), n: s.dist.n}
	for k, v := range s.dist.counts {
		d.counts[k] = v
	}
	t := topHeap{entries: slices.Clone(s.top.entries)}
	if s.curCount > 0 {
		d.add(s.curCount)
		t.offer(s.curPK, s.curCount)
	}
	return d, t.sorted()
}

// ratio is a/b rounded to four decimals (0 when b is 0).
func ratio(a, b int64) float64 {
	if b == 0 {
		return 0
	}
	return round4(float64(a) / float64(b))
}

func round1(f float64) float64 { return float64(int64(f*10+0.5)) / 10 }
func round4(f float64) float64 { return float64(int64(f*10000+0.5)) / 10000 }

// topEntry is one partition among the largest.
type topEntry struct {
	pk string
	n  int64
}

// topHeap keeps the TopPartitions largest partitions: a min-heap whose
// root is the smallest kept, so a larger newcomer replaces it.
type topHeap struct{ entries []topEntry }

func (h *topHeap) Len() int { return len(h.entries) }
func (h *topHeap) Less(i, j int) bool {
	a, b := h.entries[i], h.entries[j]
	if a.n != b.n {
		return a.n < b.n
	}
	return a.pk > b.pk // among equals, the later key is dropped first
}
func (h *topHeap) Swap(i, j int) { h.entries[i], h.entries[j] = h.entries[j], h.entries[i] }
func (h *topHeap) Push(x any)    { h.entries = append(h.entries, x.(topEntry)) }
func (h *topHeap) Pop() any {
	e := h.entries[len(h.entries)-1]
	h.entries = h.entries[:len(h.entries)-1]
	return e
}

func (h *topHeap) offer(pk string, n int64) {
	if len(h.entries) < TopPartitions {
		heap.Push(h, topEntry{pk, n})
		return
	}
	if r := h.entries[0]; n > r.n || (n == r.n && pk < r.pk) {
		h.entries[0] = topEntry{pk, n}
		heap.Fix(h, 0)
	}
}

// sorted returns the kept partitions, largest first (equal sizes by key).
func (h *topHeap) sorted() []topEntry {
	out := slices.Clone(h.entries)
	slices.SortFunc(out, func(a, b topEntry) int {
		if a.n != b.n {
			if a.n > b.n {
				return -1
			}
			return 1
		}
		if a.pk < b.pk {
			return -1
		}
		if a.pk > b.pk {
			return 1
		}
		return 0
	})
	return out
}
