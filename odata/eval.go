package odata

import (
	"cmp"
	"math"
	"strings"
)

// Evaluation rules (each is a case of TestCompareMatrix, TestNotAndMissing or
// TestBareBoolean in eval_test.go):
//
//   - A comparison is false when the entity lacks the property or holds it
//     with a type the literal cannot be compared with — for every operator,
//     ne included. Such an entity is simply not returned by that comparison.
//   - not inverts its operand: not (Age eq 5) is true for an entity without
//     Age. (Peers disagree here; tstable applies plain boolean logic.)
//   - Edm.String compares ordinally, case-sensitively ('a' gt 'Z'), by
//     UTF-16 code units as the service does, or by code point in a file of
//     format 1: the filter's Order (see Order, and Filter.In).
//   - Edm.Int32, Edm.Int64 and Edm.Double compare by numeric value across
//     the three types: an Int64 property matches 5 and an Int32 property
//     matches 5L; a Double property matches 5 when it holds 5.0. Integer and
//     double are compared exactly (no rounding of large Int64 values).
//     This is looser than the REST reference, which asks for a constant of
//     the property's own type (clients are told to write 5L for an Int64
//     property); tstable accepts the mixed forms because they are a common
//     slip and their meaning is clear.
//   - A NaN on either side makes every comparison false except ne.
//   - Edm.Boolean supports all six operators (the REST reference allows
//     every comparison operator on every type), ordered false < true.
//   - Edm.DateTime compares by ticks (100 ns). Timestamp is an Edm.DateTime.
//   - Edm.Guid compares by its canonical lower-case text; ordered operators
//     use that text's order. (The REST reference allows all six operators
//     on every type but does not say how the service orders Guids; .NET
//     orders them by their byte fields, which can differ from text order,
//     so gt/lt on a Guid is best avoided.)
//   - Edm.Binary compares bytewise, a shorter prefix first.
//   - Text never compares with numbers or other types: String vs Int32 is
//     false (and ne is false too).

// Match reports whether r satisfies the filter. It does not allocate. A nil
// filter matches everything.
func (f *Filter) Match(r Record) bool {
	if f == nil || f.root == nil {
		return true
	}
	return f.root.eval(r, f.order)
}

func (n *node) eval(r Record, o Order) bool {
	switch n.kind {
	case nodeCompare:
		v, ok := r.Get(n.prop)
		return ok && compare(v, n.op, n.lit, o)
	case nodeAnd:
		return n.left.eval(r, o) && n.right.eval(r, o)
	case nodeOr:
		return n.left.eval(r, o) || n.right.eval(r, o)
	case nodeNot:
		return !n.left.eval(r, o)
	case nodeConst:
		return n.lit.Bool()
	}
	return false
}

// compare applies "v op lit" under the typing rules above, text in order o.
func compare(v Value, op cmpOp, lit Value, o Order) bool {
	switch lit.Type {
	case EdmString, EdmGuid, EdmBinary:
		switch {
		case v.Type != lit.Type:
			return false
		case op == opEq: // most filters: equal strings are first equal in length
			return v.Str == lit.Str
		case op == opNe:
			return v.Str != lit.Str
		case lit.Type == EdmString:
			return holds(o.Compare(v.Str, lit.Str), op)
		}
		return holds(strings.Compare(v.Str, lit.Str), op)
	case EdmBoolean, EdmDateTime:
		if v.Type != lit.Type {
			return false
		}
		return holds(cmp.Compare(v.Int, lit.Int), op)
	case EdmInt32, EdmInt64:
		switch v.Type {
		case EdmInt32, EdmInt64:
			return holds(cmp.Compare(v.Int, lit.Int), op)
		case EdmDouble:
			if math.IsNaN(v.Float) {
				return op == opNe
			}
			return holds(-compareIntFloat(lit.Int, v.Float), op)
		}
	case EdmDouble:
		if math.IsNaN(lit.Float) || (v.Type == EdmDouble && math.IsNaN(v.Float)) {
			return (v.Type == EdmDouble || v.Type == EdmInt32 || v.Type == EdmInt64) && op == opNe
		}
		switch v.Type {
		case EdmInt32, EdmInt64:
			return holds(compareIntFloat(v.Int, lit.Float), op)
		case EdmDouble:
			return holds(cmp.Compare(v.Float, lit.Float), op)
		}
	}
	return false
}

// holds turns a three-way comparison result into the operator's truth.
func holds(c int, op cmpOp) bool {
	switch op {
	case opEq:
		return c == 0
	case opNe:
		return c != 0
	case opGt:
		return c > 0
	case opGe:
		return c >= 0
	case opLt:
		return c < 0
	case opLe:
		return c <= 0
	}
	return false
}

// compareIntFloat compares an integer with a non-NaN double exactly.
func compareIntFloat(i int64, f float64) int {
	const two63 = 9223372036854775808.0
	if f >= two63 {
		return -1
	}
	if f < -two63 {
		return 1
	}
	t := math.Trunc(f)
	if c := cmp.Compare(i, int64(t)); c != 0 {
		return c
	}
	// Same integer part: the fraction decides.
	return cmp.Compare(0, f-t)
}

// Comparable reports whether a property holding a value of type prop can
// ever satisfy a comparison with a literal of type lit, under the rules
// above: numbers (Int32, Int64, Double) compare with each other, every
// other type only with itself.
func Comparable(prop, lit EdmType) bool {
	return prop == lit || (numeric(prop) && numeric(lit))
}

func numeric(t EdmType) bool { return t == EdmInt32 || t == EdmInt64 || t == EdmDouble }
