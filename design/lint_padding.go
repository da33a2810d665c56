package design

import (
	"fmt"
	"strings"

	"github.com/tstable/tstable/odata"
)

// paddingFindings reports unpadded-numeric-keys: RowKeys of one partition,
// or PartitionKeys of the table, that end in decimal numbers of varying
// length so that a smaller number sorts after a larger one.
func (s *Stats) paddingFindings() []Finding {
	var out []Finding
	rows := s.keys.rowResult(s.curPK)
	if len(rows.examples) > 0 {
		where := fmt.Sprintf("in %s of %s partitions", num(rows.partitions), num(s.partitions))
		out = append(out, paddingFinding("RowKey", rows.examples, rows.short, rows.numeric, rows.width, where))
	}
	if ms := s.keys.pkDigits.misorders(); len(ms) > 0 {
		out = append(out, paddingFinding("PartitionKey", ms, ms[0].Short, ms[0].Numeric, ms[0].Width, ""))
	}
	return out
}

func paddingFinding(side string, ms []misorder, short, numeric int64, width int, where string) Finding {
	m := ms[0]
	var ex []string
	for _, o := range ms[:min(len(ms), maxExamples)] {
		in := ""
		if o.Partition != "" || side == "RowKey" {
			in = " in partition " + odata.Quote(o.Partition)
		}
		ex = append(ex, fmt.Sprintf("%s sorts after %s%s", odata.Quote(o.Smaller), odata.Quote(o.Larger), in))
	}
	small := strings.TrimLeft(strings.TrimPrefix(m.Smaller, m.Prefix), "0")
	large := strings.TrimLeft(strings.TrimPrefix(m.Larger, m.Prefix), "0")
	padded := m.Prefix + strings.Repeat("0", max(0, width-len(small))) + small
	if where != "" {
		where = " " + where
	}
	return Finding{
		ID:       IDUnpaddedNumericKeys,
		Severity: SeverityWarning,
		Title:    fmt.Sprintf("numeric %ss of different lengths sort in the wrong order", side),
		Evidence: Evidence{
			Summary: fmt.Sprintf("%s %s sorts before %s although %s > %s: %s of %s %ss that end in a number are shorter than the longest number beside them (up to %d digits)%s",
				side, odata.Quote(m.Larger), odata.Quote(m.Smaller), large, small, num(short), num(numeric), side, width, where),
			Counts:   map[string]int64{"short": short, "numeric": numeric, "width": int64(width)},
			Examples: ex,
		},
		Pattern: "key order: pad numbers to a fixed width",
		Advice: fmt.Sprintf("Keys compare as strings, character by character, so range queries on these %ss return the wrong set and results come back out of numeric order. "+
			"Zero-pad the number to a fixed width of at least %d digits (%s instead of %s), with room to grow, and rewrite the existing keys.",
			side, width, odata.Quote(padded), odata.Quote(m.Smaller)),
	}
}
