package odata

import (
	"slices"
	"strings"
)

// MatchNothing is the filter false, which matches no entity: a query asked
// for $top=0 reads nothing, and ends.
func MatchNothing() *Filter {
	return &Filter{root: &node{kind: nodeConst, lit: Bool(false)}, text: "false"}
}

// ParseQueryFilter reads a $filter query option as the service takes it:
// a blank one ($filter= or an empty --filter) is no filter at all, nil, which
// matches every entity; anything else is ParseFilter's to read.
func ParseQueryFilter(src string) (*Filter, error) {
	if strings.TrimSpace(src) == "" {
		return nil, nil
	}
	return ParseFilter(src)
}

// Filter is a parsed and type-checked $filter expression. It is immutable
// and safe for concurrent use. A nil *Filter matches every entity.
type Filter struct {
	root  *node
	text  string   // canonical form, rendered once at parse time
	props []string // sorted, deduplicated
	ncmp  int
	order Order // how its string comparisons order text (UTF16 unless In says)
}

// In returns the filter with its comparisons of text in order o (see
// Order): a store whose keys are in another order than the service's (a
// file of format 1) evaluates and plans its filters in its own order, so
// that what a filter matches agrees with the key ranges it reads. A nil
// filter stays nil.
func (f *Filter) In(o Order) *Filter {
	if f == nil || f.order == o {
		return f
	}
	g := *f
	g.order = o
	return &g
}

// Order is the order the filter compares text in.
func (f *Filter) Order() Order {
	if f == nil {
		return UTF16
	}
	return f.order
}

// String returns the filter in canonical form, text the service accepts:
// comparisons written "Property op literal", lower-case operators, single
// spaces and only the parentheses the grouping needs. Parsing it again
// gives a filter that behaves the same. A nil filter is "".
func (f *Filter) String() string {
	if f == nil {
		return ""
	}
	return f.text
}

// Properties returns the names of the properties the filter references,
// system properties included, sorted and without duplicates.
func (f *Filter) Properties() []string {
	if f == nil {
		return nil
	}
	return slices.Clone(f.props)
}

// Comparisons returns how many discrete comparisons the filter holds (the
// quantity the service limits to MaxComparisons).
func (f *Filter) Comparisons() int {
	if f == nil {
		return 0
	}
	return f.ncmp
}

// Equal reports whether two filters are the same expression after
// normalization (operand order, redundant parentheses, spacing).
func (f *Filter) Equal(g *Filter) bool {
	if f == nil || g == nil {
		return f == g
	}
	return equalNodes(f.root, g.root)
}

// Comparison is one comparison of a filter, its property on the left:
// Age gt 30 is {Age, "gt", Int32(30)}. Text is how the filter writes it.
type Comparison struct {
	Property string
	Op       string
	Literal  Value
	Text     string
}

// EachComparison calls fn with each comparison of the filter, in the
// order they are written.
func (f *Filter) EachComparison(fn func(Comparison)) {
	if f == nil {
		return
	}
	var walk func(n *node)
	walk = func(n *node) {
		if n == nil {
			return
		}
		if n.kind == nodeCompare {
			var b strings.Builder
			n.write(&b)
			fn(Comparison{Property: n.prop, Op: n.op.String(), Literal: n.lit, Text: b.String()})
			return
		}
		walk(n.left)
		walk(n.right)
	}
	walk(f.root)
}
