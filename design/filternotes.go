package design

import (
	"context"
	"errors"
	"fmt"
	"strconv"
	"strings"

	"github.com/tstable/tstable/backend"
	"github.com/tstable/tstable/odata"
)

// NoteScanLimit is how many entities FilterNotes reads at most to learn a
// table's properties.
const NoteScanLimit = 10_000

// maxNames bounds the property names FilterNotes keeps for "did you mean".
const maxNames = 1000

// FilterNote says that one comparison of a filter is never true on the
// data: its property is in no entity read (Missing), or only with types
// its literal cannot be compared with.
type FilterNote struct {
	Comparison string `json:"comparison"`
	Property   string `json:"property"`
	Missing    bool   `json:"missing,omitempty"`
	// Suggestion is a property of the table the name may have meant.
	Suggestion string `json:"suggestion,omitempty"`
	Text       string `json:"text"`
}

// errEnough ends FilterNotes's scan early.
var errEnough = errors.New("enough")

// propertySeen is what a scan saw of the properties a filter compares.
type propertySeen struct {
	types    map[string]map[odata.EdmType]bool // compared property → types seen
	names    map[string]bool                   // every property name seen (up to maxNames)
	read     int64
	complete bool // every entity of the table was read
}

// FilterNotes tells, for each comparison of f that can never be true on
// table's data, why: a property no entity has (with the name it may have
// meant: lastname when the table has LastName), or one that never holds a
// type the literal compares with (Age gt '30' where Age is Edm.Int32).
// PartitionKey and RowKey (strings) and Timestamp (a DateTime) need no
// reading; other properties are learnt from at most limit entities, and
// when the table holds more, the note says how many were read instead of
// claiming all of them.
func FilterNotes(ctx context.Context, b backend.Backend, table string, f *odata.Filter, limit int) ([]FilterNote, error) {
	var cmps []odata.Comparison
	compared := map[string]bool{}
	f.EachComparison(func(c odata.Comparison) {
		cmps = append(cmps, c)
		if !isSystem(c.Property) {
			compared[c.Property] = true
		}
	})
	seen := &propertySeen{complete: true}
	if len(compared) > 0 {
		var err error
		if seen, err = readProperties(ctx, b, table, compared, cmps, limit); err != nil {
			return nil, err
		}
	}
	var notes []FilterNote
	for _, c := range cmps {
		if n, ok := seen.note(table, c); ok {
			notes = append(notes, n)
		}
	}
	return notes, nil
}

func isSystem(name string) bool {
	return name == odata.PartitionKey || name == odata.RowKey || name == odata.Timestamp
}

// readProperties reads entities of table until every compared property
// was seen with a type its comparisons accept, or limit entities.
func readProperties(ctx context.Context, b backend.Backend, table string, compared map[string]bool, cmps []odata.Comparison, limit int) (*propertySeen, error) {
	s := &propertySeen{types: map[string]map[odata.EdmType]bool{}, names: map[string]bool{}}
	_, err := b.Query(ctx, table, backend.QueryRequest{}, func(e *odata.Entity) error {
		s.read++
		for _, p := range e.Properties {
			if compared[p.Name] {
				if s.types[p.Name] == nil {
					s.types[p.Name] = map[odata.EdmType]bool{}
				}
				s.types[p.Name][p.Value.Type] = true
			}
			if len(s.names) < maxNames {
				s.names[p.Name] = true
			}
		}
		if s.read >= int64(limit) || s.settled(cmps) {
			return errEnough
		}
		return nil
	})
	switch {
	case errors.Is(err, errEnough):
	case err != nil:
		return nil, err
	default:
		s.complete = true
	}
	return s, nil
}

// settled reports whether every comparison could be true on what was seen.
func (s *propertySeen) settled(cmps []odata.Comparison) bool {
	for _, c := range cmps {
		if !isSystem(c.Property) && !s.accepts(c) {
			return false
		}
	}
	return true
}

// accepts reports whether some type seen of c's property compares with
// its literal.
func (s *propertySeen) accepts(c odata.Comparison) bool {
	for t := range s.types[c.Property] {
		if odata.Comparable(t, c.Literal.Type) {
			return true
		}
	}
	return false
}

// note is the note on comparison c, when it can never be true.
func (s *propertySeen) note(table string, c odata.Comparison) (FilterNote, bool) {
	n := FilterNote{Comparison: c.Text, Property: c.Property}
	var types []odata.EdmType
	switch c.Property {
	case odata.PartitionKey, odata.RowKey:
		types = []odata.EdmType{odata.EdmString}
	case odata.Timestamp:
		types = []odata.EdmType{odata.EdmDateTime}
	default:
		for t := odata.EdmString; t <= odata.EdmBinary; t++ {
			if s.types[c.Property][t] {
				types = append(types, t)
			}
		}
	}
	for _, t := range types {
		if odata.Comparable(t, c.Literal.Type) {
			return n, false
		}
	}
	where, them := "no entity in "+table+" has", ""
	if !s.complete {
		where, them = fmt.Sprintf("none of the first %s entities of %s has", num(s.read), table), " for them"
	}
	if len(types) == 0 {
		n.Missing = true
		n.Suggestion = s.meant(c.Property)
		hint := ""
		if n.Suggestion != "" {
			hint = " (did you mean " + n.Suggestion + "? names are case-sensitive)"
		}
		n.Text = fmt.Sprintf("%s a property %s%s: %s is never true%s", where, c.Property, hint, c.Text, them)
		return n, true
	}
	names := make([]string, len(types))
	for i, t := range types {
		names[i] = t.String()
	}
	holds := c.Property + " is " + strings.Join(names, " or ")
	switch {
	case isSystem(c.Property):
	case s.complete:
		holds += " in every entity of " + table + " that has it"
	default:
		holds += fmt.Sprintf(" in each of the first %s entities of %s that has it", num(s.read), table)
	}
	n.Text = fmt.Sprintf("%s, never %s: %s is never true%s%s", holds, c.Literal.Type, c.Text, them, retyped(c, types[0]))
	return n, true
}

// meant is the property name seen that name most likely meant: the same
// in another case, else one a letter or two away; "" when none is close.
func (s *propertySeen) meant(name string) string {
	best, bestD := "", 3
	for cand := range s.names {
		if strings.EqualFold(cand, name) {
			return cand
		}
		limit := 2
		if len(name) < 5 {
			limit = 1
		}
		if d := EditDistance(strings.ToLower(cand), strings.ToLower(name)); d <= limit && (d < bestD || (d == bestD && cand < best)) {
			best, bestD = cand, d
		}
	}
	return best
}

// EditDistance is the Levenshtein distance between a and b (in bytes:
// property names and file names are mostly ASCII).
func EditDistance(a, b string) int {
	prev := make([]int, len(b)+1)
	cur := make([]int, len(b)+1)
	for j := range prev {
		prev[j] = j
	}
	for i := 1; i <= len(a); i++ {
		cur[0] = i
		for j := 1; j <= len(b); j++ {
			cost := 1
			if a[i-1] == b[j-1] {
				cost = 0
			}
			cur[j] = min(prev[j]+1, cur[j-1]+1, prev[j-1]+cost)
		}
		prev, cur = cur, prev
	}
	return prev[len(b)]
}

// retyped suggests the comparison with its literal written in type t, when
// the literal's text reads as one: Age gt '30' → " (write Age gt 30)".
func retyped(c odata.Comparison, t odata.EdmType) string {
	text := c.Literal.Str
	switch c.Literal.Type {
	case odata.EdmInt32, odata.EdmInt64:
		text = strconv.FormatInt(c.Literal.Int, 10)
	case odata.EdmDouble:
		text = strconv.FormatFloat(c.Literal.Float, 'g', -1, 64)
	case odata.EdmString:
	default:
		return ""
	}
	var lit string
	switch t {
	case odata.EdmString:
		lit = odata.Quote(text)
	case odata.EdmInt32, odata.EdmDouble:
		if _, err := strconv.ParseFloat(text, 64); err != nil {
			return ""
		}
		lit = text
	case odata.EdmInt64:
		if _, err := strconv.ParseInt(text, 10, 64); err != nil {
			return ""
		}
		lit = text + "L"
	default:
		return ""
	}
	return " (write " + c.Property + " " + c.Op + " " + lit + ")"
}
