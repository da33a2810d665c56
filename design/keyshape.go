package design

import (
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/tstable/tstable/odata"
)

// keyShapes gathers, in the same pass as Stats, what the key findings need:
// how many PartitionKeys look like points in time or counters, and the
// decimal numbers at the end of keys, by prefix and length.
type keyShapes struct {
	timePKs    int64    // PartitionKeys shaped like a date, time or tick count
	timeFirst  []string // the first few of them
	timeLast   string   // the latest (last in key order)
	numericPKs int64    // PartitionKeys that are whole decimal numbers (not times)
	numMin     uint64
	numMax     uint64
	numFirst   string
	numLast    string
	pkDigits   digitKeys
	rkDigits   digitKeys // RowKeys of the partition being read
	rkBad      rowMisorders
}

// rowMisorders gathers the RowKey misorders of every partition. RowKeys
// order entities only within their partition, so each partition's RowKeys
// are checked on their own (when the partition ends) and the results summed.
type rowMisorders struct {
	partitions int64      // partitions with a misordered pair
	short      int64      // their RowKeys shorter than the widest number
	numeric    int64      // their RowKeys that end in a number
	width      int        // the widest number
	examples   []misorder // the first few, one per partition
}

// closeRows checks the RowKeys of the partition that ended and forgets them.
func (k *keyShapes) closeRows(pk string) {
	d := &k.rkDigits
	if d.multi {
		for i, m := range d.misorders() {
			if i == 0 {
				k.rkBad.partitions++
				if len(k.rkBad.examples) < maxExamples {
					m.Partition = pk
					k.rkBad.examples = append(k.rkBad.examples, m)
				}
			}
			k.rkBad.short += m.Short
			k.rkBad.numeric += m.Numeric
			k.rkBad.width = max(k.rkBad.width, m.Width)
		}
	}
	if len(d.order) > 0 {
		clear(d.groups)
		d.order = d.order[:0]
	}
	d.multi = false
}

func (k *keyShapes) addPartition(pk string) {
	if timeShaped(pk) {
		k.timePKs++
		if len(k.timeFirst) < 3 {
			k.timeFirst = append(k.timeFirst, pk)
		}
		k.timeLast = pk
	} else if n, ok := decimal(pk); ok {
		if k.numericPKs == 0 || n < k.numMin {
			k.numMin, k.numFirst = n, pk
		}
		if k.numericPKs == 0 || n > k.numMax {
			k.numMax, k.numLast = n, pk
		}
		k.numericPKs++
	}
	k.pkDigits.add(pk, odata.Key{PartitionKey: pk})
}

func (k *keyShapes) addRow(rk string) {
	k.rkDigits.add(rk, odata.Key{})
}

// decimal parses a key made only of 1 to 18 decimal digits.
func decimal(s string) (uint64, bool) {
	if len(s) == 0 || len(s) > 18 {
		return 0, false
	}
	var n uint64
	for i := 0; i < len(s); i++ {
		c := s[i]
		if c < '0' || c > '9' {
			return 0, false
		}
		n = n*10 + uint64(c-'0')
	}
	return n, true
}

// Ticks of 1990-01-01 and 2100-01-01: tick counts between them are taken
// for points in time (inverted ticks, the log-tail RowKey, lie far beyond).
var (
	ticks1990 = odata.TicksOf(time.Date(1990, 1, 1, 0, 0, 0, 0, time.UTC))
	ticks2100 = odata.TicksOf(time.Date(2100, 1, 1, 0, 0, 0, 0, time.UTC))
	unix1990  = time.Date(1990, 1, 1, 0, 0, 0, 0, time.UTC).Unix()
	unix2100  = time.Date(2100, 1, 1, 0, 0, 0, 0, time.UTC).Unix()
)

// timeShaped reports whether a key starts with a point in time, so that
// keys written later sort later: a date (2024-03-01, 2024-03, 20240301,
// optionally followed by a time or a separator and more), a Unix time in
// seconds or milliseconds, or a .NET tick count, each between 1990 and 2100.
func timeShaped(s string) bool {
	if n, ok := decimal(s); ok {
		switch len(s) {
		case 10: // Unix seconds, or YYYYMMDDHH
			if int64(n) >= unix1990 && int64(n) < unix2100 {
				return true
			}
		case 13: // Unix milliseconds
			if int64(n/1000) >= unix1990 && int64(n/1000) < unix2100 {
				return true
			}
		case 18:
			if int64(n) >= ticks1990 && int64(n) < ticks2100 {
				return true
			}
		}
	}
	if len(s) >= 19 {
		if n, err := strconv.ParseInt(s[:19], 10, 64); err == nil && (len(s) == 19 || !isDigit(s[19])) && n >= ticks1990 && n < ticks2100 {
			return true
		}
	}
	// Dates: YYYY-MM[-DD] or YYYYMM[DD[HH[MM[SS]]]], then the end or a non-digit.
	if len(s) < 6 || !allDigits(s[:4]) {
		return false
	}
	year, _ := strconv.Atoi(s[:4])
	if year < 1990 || year >= 2100 {
		return false
	}
	rest := s[4:]
	if rest[0] == '-' {
		if len(rest) < 3 || !allDigits(rest[1:3]) || !month(rest[1:3]) {
			return false
		}
		rest = rest[3:]
		if len(rest) == 0 {
			return true
		}
		if rest[0] == '-' {
			if len(rest) < 3 || !allDigits(rest[1:3]) || !day(rest[1:3]) {
				return false
			}
			rest = rest[3:]
		}
		return len(rest) == 0 || !isDigit(rest[0])
	}
	d := leadingDigits(rest)
	switch len(d) {
	case 2, 4, 6, 8, 10: // MM, MMDD, MMDDHH, MMDDHHMM, MMDDHHMMSS
		if !month(d[:2]) || (len(d) >= 4 && !day(d[2:4])) {
			return false
		}
		return true
	}
	return false
}

func month(s string) bool { n, _ := strconv.Atoi(s); return n >= 1 && n <= 12 }
func day(s string) bool   { n, _ := strconv.Atoi(s); return n >= 1 && n <= 31 }
func isDigit(c byte) bool { return c >= '0' && c <= '9' }

func allDigits(s string) bool {
	for i := 0; i < len(s); i++ {
		if !isDigit(s[i]) {
			return false
		}
	}
	return len(s) > 0
}

func leadingDigits(s string) string {
	i := 0
	for i < len(s) && isDigit(s[i]) {
		i++
	}
	return s[:i]
}

// maxDigitPrefixes bounds how many distinct key prefixes digitKeys follows.
// Keys whose prefix varies per entity (a date, a customer) are numerous but
// each prefix holds few numbers; the first prefixes are enough evidence.
const maxDigitPrefixes = 64

// digitKeys follows keys that end in a decimal number ("9", "order_10"):
// per prefix (the text before the number) and per length of the number,
// how many keys there are and the smallest and largest of them.
type digitKeys struct {
	groups map[string]*digitGroup
	order  []string
	multi  bool // some prefix has numbers of two lengths
}

type digitGroup struct {
	byLen []digitLen // index: number of digits
}

type digitLen struct {
	count    int64
	min, max string // the digits, as strings
	minKey   odata.Key
	maxKey   odata.Key
}

func (d *digitKeys) add(key string, where odata.Key) {
	i := len(key)
	for i > 0 && isDigit(key[i-1]) {
		i--
	}
	if i == len(key) {
		return
	}
	prefix, digits := key[:i], key[i:]
	g := d.groups[prefix]
	if g == nil {
		if len(d.order) >= maxDigitPrefixes {
			return
		}
		if d.groups == nil {
			d.groups = map[string]*digitGroup{}
		}
		g = &digitGroup{}
		d.groups[prefix] = g
		d.order = append(d.order, prefix)
	}
	n := len(digits)
	if !d.multi && len(g.byLen) > 0 && (n >= len(g.byLen) || g.byLen[n].count == 0) {
		d.multi = true
	}
	if n >= len(g.byLen) {
		g.byLen = append(g.byLen, make([]digitLen, n+1-len(g.byLen))...)
	}
	l := &g.byLen[n]
	if where.PartitionKey == "" {
		where.RowKey = key
	}
	if l.count == 0 || digits < l.min {
		l.min, l.minKey = digits, where
	}
	if l.count == 0 || digits > l.max {
		l.max, l.maxKey = digits, where
	}
	l.count++
}

// misorder is a pair of keys whose numbers sort the wrong way round as
// strings, with the width that would fix it.
type misorder struct {
	Partition      string // for RowKeys: the partition they are in
	Prefix         string
	Smaller        string // the key with the smaller number, which sorts after…
	Larger         string // …the key with the larger number
	Width          int    // digits needed for every number of this prefix
	Short, Numeric int64  // keys shorter than Width, and all numeric keys of the prefix
}

// misorders finds, per prefix, a pair of keys whose numbers compare one way
// and whose strings the other. Numbers of one length sort right among
// themselves, so only lengths need comparing: the largest number of a
// shorter length against the smallest of a longer one.
func (d *digitKeys) misorders() []misorder {
	var out []misorder
	for _, prefix := range d.order {
		g := d.groups[prefix]
		var lens []int
		var total int64
		for n := range g.byLen {
			if g.byLen[n].count > 0 {
				lens = append(lens, n)
				total += g.byLen[n].count
			}
		}
		if len(lens) < 2 {
			continue
		}
		width := lens[len(lens)-1]
		found := false
		for ai := 0; ai < len(lens) && !found; ai++ {
			for bi := ai + 1; bi < len(lens) && !found; bi++ {
				a, b := &g.byLen[lens[ai]], &g.byLen[lens[bi]]
				x, y := a.max, b.min // x has fewer digits
				cmpNum := compareNumbers(x, y)
				if cmpNum < 0 && x > y || cmpNum > 0 && x < y {
					m := misorder{Prefix: prefix, Width: width, Numeric: total}
					if cmpNum < 0 {
						m.Smaller, m.Larger = prefix+x, prefix+y
					} else {
						m.Smaller, m.Larger = prefix+y, prefix+x
					}
					for _, n := range lens[:len(lens)-1] {
						m.Short += g.byLen[n].count
					}
					out = append(out, m)
					found = true
				}
			}
		}
	}
	slices.SortStableFunc(out, func(a, b misorder) int { return int(b.Short - a.Short) })
	return out
}

// compareNumbers compares two digit strings by their value.
func compareNumbers(a, b string) int {
	a = strings.TrimLeft(a, "0")
	b = strings.TrimLeft(b, "0")
	if len(a) != len(b) {
		if len(a) < len(b) {
			return -1
		}
		return 1
	}
	return strings.Compare(a, b)
}

// rowResult is rkBad with the partition being read included.
func (k *keyShapes) rowResult(pk string) rowMisorders {
	r := k.rkBad
	r.examples = append([]misorder(nil), r.examples...)
	if k.rkDigits.multi {
		for i, m := range k.rkDigits.misorders() {
			if i == 0 {
				r.partitions++
				if len(r.examples) < maxExamples {
					m.Partition = pk
					r.examples = append(r.examples, m)
				}
			}
			r.short += m.Short
			r.numeric += m.Numeric
			r.width = max(r.width, m.Width)
		}
	}
	return r
}
