package design

import (
	"fmt"
	"strings"

	"github.com/tstable/tstable/odata"
)

// sizeFindings reports near-size-limit: entities from 90% of 1 MiB, of 252
// properties, or holding a String or Binary value from 90% of 64 KiB.
func (s *Stats) sizeFindings() []Finding {
	l := &s.limits
	if l.big == 0 && l.wide == 0 && l.long == 0 {
		return nil
	}
	var parts, ex, patterns, advice []string
	counts := map[string]int64{}
	if l.big > 0 {
		parts = append(parts, fmt.Sprintf("%s of %s bytes or more (largest %s of %s)", plural(l.big, "entity", "entities"), num(nearEntityBytes), num(l.biggest), num(odata.MaxEntityBytes)))
		counts["nearEntitySize"] = l.big
		for _, k := range l.bigEx {
			ex = append(ex, keyText(k)+" is large")
		}
		patterns = append(patterns, "large entities")
		advice = append(advice, "keep big values in a blob and store its name in the entity (large entities pattern)")
	}
	if l.wide > 0 {
		parts = append(parts, fmt.Sprintf("%s with %d properties or more (most %d of %d)", plural(l.wide, "entity", "entities"), nearProperties, l.widest, odata.MaxProperties))
		counts["nearPropertyCount"] = l.wide
		for _, k := range l.wideEx {
			ex = append(ex, keyText(k)+" is wide")
		}
		patterns = append(patterns, "wide entities")
		advice = append(advice, "split a wide entity over several entities of one partition (RowKeys such as 'id_1', 'id_2') and write them together in an entity group transaction (wide entities pattern)")
	}
	if l.long > 0 {
		parts = append(parts, fmt.Sprintf("%s with a String or Binary value of %s bytes or more (longest %s of %s, %s in %s)",
			plural(l.long, "entity", "entities"), num(nearValueBytes), num(int64(l.maxValue)), num(odata.MaxValueBytes), l.maxValueAt.Property, keyText(l.maxValueAt.Key)))
		counts["nearValueSize"] = l.long
		for _, v := range l.longEx {
			ex = append(ex, fmt.Sprintf("%s.%s is %s bytes", keyText(v.Key), v.Property, num(int64(v.Bytes))))
		}
		if l.big == 0 {
			patterns = append(patterns, "large entities")
			advice = append(advice, "move long values to a blob and keep a reference (large entities pattern)")
		}
	}
	return []Finding{{
		ID:       IDNearSizeLimit,
		Severity: SeverityWarning,
		Title:    "entities close to the service's size limits",
		Evidence: Evidence{
			Summary:  strings.Join(parts, "; "),
			Counts:   counts,
			Examples: ex,
		},
		Pattern: strings.Join(patterns, " and ") + " patterns",
		Advice:  "A write that crosses a limit fails (EntityTooLarge, TooManyProperties, PropertyValueTooLarge): " + strings.Join(advice, "; ") + ".",
	}}
}
