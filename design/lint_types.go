package design

import (
	"fmt"
	"slices"
	"strings"

	"github.com/tstable/tstable/odata"
)

// maxTypeFindings caps the mixed-property-types findings of one table.
const maxTypeFindings = 10

// typeFindings reports mixed-property-types, one finding per property name
// that has more than one Edm type, the most skipped entities first.
func (s *Stats) typeFindings() []Finding {
	type mixed struct {
		name    string
		st      *propStat
		main    odata.EdmType
		skipped int64
	}
	var ms []mixed
	for name, st := range s.props {
		kinds := 0
		var main odata.EdmType
		var total int64
		for t := odata.EdmString; t <= odata.EdmBinary; t++ {
			if st.count[t] > 0 {
				kinds++
				total += st.count[t]
				if main == 0 || st.count[t] > st.count[main] {
					main = t
				}
			}
		}
		if kinds > 1 {
			ms = append(ms, mixed{name, st, main, total - st.count[main]})
		}
	}
	slices.SortFunc(ms, func(a, b mixed) int {
		if a.skipped != b.skipped {
			if a.skipped > b.skipped {
				return -1
			}
			return 1
		}
		return strings.Compare(a.name, b.name)
	})
	var out []Finding
	for _, m := range ms[:min(len(ms), maxTypeFindings)] {
		var parts, ex []string
		counts := map[string]int64{"skipped": m.skipped}
		for t := odata.EdmString; t <= odata.EdmBinary; t++ {
			if c := m.st.count[t]; c > 0 {
				parts = append(parts, fmt.Sprintf("%s in %s", t, num(c)))
				counts[t.String()] = c
				if t != m.main {
					ex = append(ex, fmt.Sprintf("%s is %s in %s", m.name, t, keyText(m.st.example[t])))
				}
			}
		}
		filter := exampleFilter(m.name, m.main)
		out = append(out, Finding{
			ID:       IDMixedPropertyTypes,
			Severity: SeverityWarning,
			Title:    fmt.Sprintf("property %s has %d Edm types", m.name, len(parts)),
			Evidence: Evidence{
				Summary: fmt.Sprintf("%s is %s entities; a typed filter such as %s silently skips the %s entities where %s is not %s",
					m.name, strings.Join(parts, ", "), filter, num(m.skipped), m.name, m.main),
				Counts:   counts,
				Examples: ex,
			},
			Pattern: "one type per property (the table has no schema; the application must keep one)",
			Advice: fmt.Sprintf("A comparison is true only when the property's type matches the literal's, so entities holding %s with another type "+
				"never match and nobody is told. Rewrite them with the one type %s (a merge per entity), and have every writer send that type.", m.name, m.main),
		})
	}
	return out
}

// exampleFilter is a filter a user would write against a property of type t.
func exampleFilter(name string, t odata.EdmType) string {
	switch t {
	case odata.EdmInt32:
		return name + " gt 30"
	case odata.EdmInt64:
		return name + " gt 30L"
	case odata.EdmDouble:
		return name + " gt 30.5"
	case odata.EdmBoolean:
		return name + " eq true"
	case odata.EdmDateTime:
		return name + " ge datetime'2024-01-01T00:00:00Z'"
	case odata.EdmGuid:
		return name + " eq guid'00000000-0000-0000-0000-000000000000'"
	case odata.EdmBinary:
		return name + " eq X'00'"
	}
	return name + " eq 'text'"
}
