package design

import (
	"fmt"
	"strings"

	"github.com/tstable/tstable/odata"
)

// Append-only detection. A table's PartitionKeys follow time when at least
// nine in ten of them are dates, times or tick counts (see timeShaped). They
// follow a counter when nine in ten are whole numbers, there are at least
// minCounterPartitions of them, and they fill at least half of the span
// from the smallest to the largest: values handed out one after the other,
// not ids drawn from a wide space. Fewer partitions than that are more
// likely shards (0 to 15) than a counter.
const minCounterPartitions = 20

// timeKeys reports whether most PartitionKeys are points in time.
func (s *Stats) timeKeys() bool {
	return s.partitions > 0 && s.keys.timePKs*10 >= s.partitions*9
}

// counterKeys reports whether the PartitionKeys look like a counter.
func (s *Stats) counterKeys() bool {
	k := &s.keys
	if k.numericPKs < minCounterPartitions || k.numericPKs*10 < s.partitions*9 {
		return false
	}
	span := k.numMax - k.numMin + 1
	return span <= uint64(2*k.numericPKs)
}

// appendOnly reports whether new entities land in the last partition.
func (s *Stats) appendOnly() bool { return s.timeKeys() || s.counterKeys() }

// appendOnlyFindings reports append-only-keys.
func (s *Stats) appendOnlyFindings() []Finding {
	k := &s.keys
	var summary string
	var ex []string
	var counts map[string]int64
	switch {
	case s.timeKeys():
		for _, pk := range k.timeFirst {
			ex = append(ex, odata.Quote(pk))
		}
		if last := odata.Quote(k.timeLast); len(ex) == 0 || ex[len(ex)-1] != last {
			ex = append(ex, last)
		}
		summary = fmt.Sprintf("%s of %s PartitionKeys are dates or times (%s … %s): a new entity's key is the current time, so it always goes to the newest partition",
			num(k.timePKs), num(s.partitions), ex[0], odata.Quote(k.timeLast))
		counts = map[string]int64{"partitions": s.partitions, "timeKeys": k.timePKs}
	case s.counterKeys():
		ex = []string{odata.Quote(k.numFirst), odata.Quote(k.numLast)}
		summary = fmt.Sprintf("%s of %s PartitionKeys are consecutive numbers from %s to %s: each new entity takes the next number, so writes always go to the newest partition",
			num(k.numericPKs), num(s.partitions), odata.Quote(k.numFirst), odata.Quote(k.numLast))
		counts = map[string]int64{"partitions": s.partitions, "counterKeys": k.numericPKs}
	default:
		return nil
	}
	var b strings.Builder
	b.WriteString("All writes of the moment hit one partition, capped at about 2,000 entities a second, while the other partitions sit idle. ")
	b.WriteString("Spread the writes: lead the PartitionKey with a value that varies across concurrent writers — a compound key such as ")
	b.WriteString("'<source>_<date>', or a hashed prefix such as '<hash(id) mod 16>_<date>' — and keep the time in the RowKey. ")
	b.WriteString("If readers want the newest entities first, use the log-tail pattern: RowKey = inverted ticks, ")
	b.WriteString("(DateTime max ticks − event ticks) zero-padded to 19 digits, so a range read from the start of the partition returns the latest. ")
	b.WriteString("For high-volume log data, a blob per period is often the better store (the log-data anti-pattern).")
	return []Finding{{
		ID:       IDAppendOnlyKeys,
		Severity: SeverityWarning,
		Title:    "PartitionKeys follow time: every write goes to the last partition",
		Evidence: Evidence{Summary: summary, Counts: counts, Examples: ex},
		Pattern:  "prepend/append anti-pattern",
		Advice:   b.String(),
	}}
}
