package odata

import "strings"

// cmpOp is one of the six comparison operators of $filter.
type cmpOp uint8

// The comparison operators.
const (
	opEq cmpOp = iota + 1
	opNe
	opGt
	opGe
	opLt
	opLe
)

var cmpOpNames = [...]string{opEq: "eq", opNe: "ne", opGt: "gt", opGe: "ge", opLt: "lt", opLe: "le"}

// String returns the operator as written in a filter, such as "ge".
func (op cmpOp) String() string {
	if op >= opEq && op <= opLe {
		return cmpOpNames[op]
	}
	return "?"
}

// flip returns the operator that says the same thing with its operands
// swapped: 'x' lt Name is Name gt 'x'.
func (op cmpOp) flip() cmpOp {
	switch op {
	case opGt:
		return opLt
	case opGe:
		return opLe
	case opLt:
		return opGt
	case opLe:
		return opGe
	}
	return op
}

func opOfToken(k TokenKind) cmpOp {
	return cmpOp(k-TokenEq) + opEq
}

// nodeKind tells the five kinds of filter node apart.
type nodeKind uint8

const (
	nodeCompare nodeKind = iota + 1 // prop op lit
	nodeAnd                         // left and right
	nodeOr                          // left or right
	nodeNot                         // not left
	nodeConst                       // lit, true or false, as a condition
)

// node is one node of a parsed filter. Comparisons are normalized so that
// the property is always on the left and the literal on the right.
type node struct {
	kind  nodeKind
	op    cmpOp  // nodeCompare
	prop  string // nodeCompare
	lit   Value  // nodeCompare, nodeConst
	left  *node  // nodeAnd, nodeOr, nodeNot
	right *node  // nodeAnd, nodeOr
}

// precedence of a node when it is rendered: or < and < not/comparison.
func (n *node) precedence() int {
	switch n.kind {
	case nodeOr:
		return 1
	case nodeAnd:
		return 2
	}
	return 3
}

// write renders n in canonical form: comparisons as "Prop op literal",
// lower-case operators, single spaces, and parentheses only where the
// grouping differs from the default precedence (not > and > or, left to
// right). A bare boolean property is written out as "Prop eq true".
func (n *node) write(b *strings.Builder) {
	switch n.kind {
	case nodeCompare:
		b.WriteString(n.prop)
		b.WriteByte(' ')
		b.WriteString(n.op.String())
		b.WriteByte(' ')
		b.WriteString(formatLiteral(n.lit))
	case nodeConst:
		b.WriteString(formatLiteral(n.lit))
	case nodeNot:
		b.WriteString("not (")
		n.left.write(b)
		b.WriteByte(')')
	case nodeAnd, nodeOr:
		p := n.precedence()
		writeOperand(b, n.left, n.left.precedence() < p)
		if n.kind == nodeAnd {
			b.WriteString(" and ")
		} else {
			b.WriteString(" or ")
		}
		writeOperand(b, n.right, n.right.precedence() <= p)
	}
}

func writeOperand(b *strings.Builder, n *node, parens bool) {
	if parens {
		b.WriteByte('(')
	}
	n.write(b)
	if parens {
		b.WriteByte(')')
	}
}

// equalNodes reports whether two trees are the same filter.
func equalNodes(a, b *node) bool {
	if a == nil || b == nil {
		return a == b
	}
	if a.kind != b.kind {
		return false
	}
	switch a.kind {
	case nodeCompare:
		return a.op == b.op && a.prop == b.prop && a.lit.Equal(b.lit)
	case nodeConst:
		return a.lit.Equal(b.lit)
	}
	return equalNodes(a.left, b.left) && equalNodes(a.right, b.right)
}
