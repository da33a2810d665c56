package odata

import (
	"slices"
	"strconv"
	"strings"
	"unicode/utf8"

	"github.com/mattn/go-runewidth"
)

// MaxComparisons is the service's limit on discrete comparisons in one
// $filter. A bare boolean property counts as one comparison.
const MaxComparisons = 15

// MaxNesting is tstable's limit on how deeply a $filter nests parentheses
// and 'not', counted together: "not (not (A))" is 3 deep. The service
// documents none; a real filter, with at most 15 comparisons, needs a few
// levels, so 100 is far past any, and it keeps a hostile filter from
// costing deep recursion: the first '(' or 'not' past the limit is refused
// with its column, before anything after it is read.
const MaxNesting = 100

// SyntaxError is a $filter that cannot be parsed or type-checked: what was
// wrong, where (Column, counted in characters from 1) and what was expected.
type SyntaxError struct {
	Src    string // the filter as given
	Column int    // 1-based, in runes; len+1 means "at the end"
	Msg    string
}

// Error returns "column N: message".
func (e *SyntaxError) Error() string {
	return "column " + strconv.Itoa(e.Column) + ": " + e.Msg
}

// Caret returns two lines: the filter, and a '^' under the column.
//
// The caret stands under the column on a terminal: a wide character (CJK,
// most emoji) before it takes two cells, a combining mark none.
func (e *SyntaxError) Caret() string {
	src := strings.NewReplacer("\n", " ", "\r", " ", "\t", " ").Replace(e.Src)
	col := max(e.Column, 1)
	cells, n := 0, 0
	for _, r := range src {
		if n == col-1 {
			break
		}
		cells += runewidth.RuneWidth(r)
		n++
	}
	cells += col - 1 - n // a column past the end
	return src + "\n" + strings.Repeat(" ", cells) + "^"
}

// Grammar, from loosest to tightest binding:
//
//	filter     = or EOF
//	or         = and { "or" and }                  (parseBinary(0))
//	and        = comparison { "and" comparison }   (parseBinary(1))
//	comparison = unary [ ("eq"|"ne"|"gt"|"ge"|"lt"|"le") unary ]
//	unary      = "not" unary | primary
//	primary    = "(" or ")" | property | literal
//
// Not binds tighter than a comparison: "not Age eq 5" compares the
// boolean "not Age" with 5, which is rejected with a hint to write
// "not (Age eq 5)". A comparison has a property on one side and a literal on
// the other, in either order. A property alone where a condition is expected
// is a boolean test, read as "Prop eq true".

// Operators and keywords are lower-case only: the REST reference says every
// part of a filter string is case-sensitive, so "AND" or "Eq" is rejected
// with a hint. Literal prefixes (datetime, guid, X, binary) are
// case-sensitive too. Reserved words (and or not eq ne gt ge lt le true
// false) cannot be used as property names in a filter.

// expr is what a parse function returns: a boolean node, or an operand (a
// property or a literal) waiting to become one side of a comparison.
type expr struct {
	n      *node  // set for a boolean expression
	prop   string // set for a property operand
	lit    Value  // set for a literal operand (Type != 0)
	pos    int    // byte offset where the expression starts
	notPos int    // for "not X", where the not is (-1 otherwise)
}

func (e expr) isOperand() bool { return e.n == nil }

type parser struct {
	src   string
	lx    *lexer
	tok   Token // the next token, not yet consumed
	ncmp  int
	depth int // parentheses and 'not' open around the current token
	err   *SyntaxError
	props map[string]struct{}
}

// ParseFilter parses and type-checks a $filter expression. Errors are
// *SyntaxError values that name the column and what was expected.
func ParseFilter(src string) (*Filter, error) {
	p := &parser{src: src, props: map[string]struct{}{}}
	if strings.TrimSpace(src) == "" {
		return nil, &SyntaxError{Src: src, Column: 1, Msg: "empty filter; expected a condition such as PartitionKey eq 'Sales'"}
	}
	p.lx = newLexer(src, false)
	p.tok = p.lx.nextToken()
	n, err := p.parseOrBail()
	if err != nil {
		return nil, err
	}
	f := &Filter{root: n, ncmp: p.ncmp}
	for name := range p.props {
		f.props = append(f.props, name)
	}
	slices.Sort(f.props)
	var b strings.Builder
	n.write(&b)
	f.text = b.String()
	return f, nil
}

// bailout is the panic errAt raises to end the parse at its first error
// (as go/parser bails out): no parse function checks for an error after
// calling another, and parseOrBail turns it back into the error.
type bailout struct{}

// parseOrBail parses the whole filter, or returns the first error.
func (p *parser) parseOrBail() (n *node, err error) {
	defer func() {
		if r := recover(); r != nil {
			if _, ok := r.(bailout); !ok {
				panic(r)
			}
			n, err = nil, p.err
		}
	}()
	return p.parseFilter(), nil
}

// errAt ends the parse with an error at byte offset pos.
func (p *parser) errAt(pos int, msg string) {
	if pos > len(p.src) {
		pos = len(p.src)
	}
	col := utf8.RuneCountInString(p.src[:pos]) + 1
	p.err = &SyntaxError{Src: p.src, Column: col, Msg: msg}
	panic(bailout{})
}

func (p *parser) peek() Token { return p.tok }

// next consumes the next token and returns it; at TokenEOF or TokenError
// it stays there.
func (p *parser) next() Token {
	it := p.tok
	if it.Kind != TokenEOF && it.Kind != TokenError {
		p.tok = p.lx.nextToken()
	}
	return it
}

func (p *parser) parseFilter() *node {
	n := p.condition(p.parseBinary(0))
	if it := p.peek(); it.Kind != TokenEOF {
		p.unexpected(it, false)
	}
	return n
}

// unexpected explains a token that follows a complete condition where
// only and, or and what ends the condition may: the end of the filter, or
// inside parentheses (inParens) a ')'.
func (p *parser) unexpected(it Token, inParens bool) {
	end := "the end of the filter"
	if inParens {
		end = "')'"
	}
	switch {
	case it.Kind == TokenError:
		p.errAt(it.Pos, it.Text)
	case it.Kind == TokenRightParen && !inParens:
		p.errAt(it.Pos, "unbalanced parentheses: this ')' has no matching '('")
	case it.isComparison():
		p.errAt(it.Pos, "unexpected "+it.describe()+": a comparison cannot be compared again; combine conditions with 'and' or 'or'")
	case it.Kind == TokenIdentifier && isOperatorWord(it.Text):
		p.errAt(it.Pos, "unknown operator "+it.describe()+"; operators are lower-case: "+strings.ToLower(it.Text))
	default:
		p.errAt(it.Pos, "expected 'and', 'or' or "+end+", found "+it.describe())
	}
}

func isOperatorWord(w string) bool {
	_, ok := keyword(strings.ToLower(w))
	return ok && w != strings.ToLower(w)
}

// binaryOps are the binary operators, loosest first: an or joins
// and-chains, an and joins comparisons.
var binaryOps = [...]struct {
	tok  TokenKind
	kind nodeKind
}{{TokenOr, nodeOr}, {TokenAnd, nodeAnd}}

// parseBinary parses operands joined by the operator binaryOps[level], left
// to right. Each operand is the next level's chain, or a comparison below
// the last level; parseBinary(0) is a whole condition.
func (p *parser) parseBinary(level int) expr {
	left := p.parseOperand(level)
	for p.peek().Kind == binaryOps[level].tok {
		op := p.next()
		l := p.condition(left)
		p.expectOperand(op, "a condition")
		r := p.condition(p.parseOperand(level))
		left = expr{n: &node{kind: binaryOps[level].kind, left: l, right: r}, pos: left.pos, notPos: -1}
	}
	return left
}

// parseOperand parses one operand of the operator binaryOps[level].
func (p *parser) parseOperand(level int) expr {
	if level+1 < len(binaryOps) {
		return p.parseBinary(level + 1)
	}
	return p.parseComparison()
}

func (p *parser) parseComparison() expr {
	left := p.parseUnary()
	opTok := p.peek()
	if !opTok.isComparison() {
		if opTok.Kind == TokenIdentifier && isOperatorWord(opTok.Text) {
			p.errAt(opTok.Pos, "unknown operator "+opTok.describe()+"; operators are lower-case: "+strings.ToLower(opTok.Text))
		} else if opTok.Kind == TokenIdentifier && left.isOperand() {
			p.errAt(opTok.Pos, "unknown operator "+opTok.describe()+"; expected one of eq, ne, gt, ge, lt, le")
		} else if left.isOperand() && left.prop != "" && p.isOperandStart(opTok) && opTok.Kind != TokenLeftParen {
			p.errAt(opTok.Pos, "expected a comparison operator (eq, ne, gt, ge, lt, le) after '"+left.prop+"', found "+opTok.describe())
		} else if left.isOperand() && left.lit.Type != 0 && p.isOperandStart(opTok) {
			p.errAt(opTok.Pos, "expected a comparison operator (eq, ne, gt, ge, lt, le) after the literal, found "+opTok.describe())
		}
		return left
	}
	p.next()
	op := opOfToken(opTok.Kind)
	p.expectOperand(opTok, "a value")
	right := p.parseUnary()
	p.ncmp++
	if p.ncmp > MaxComparisons {
		p.errAt(left.pos, "too many comparisons: this is comparison "+strconv.Itoa(p.ncmp)+"; the service allows at most "+strconv.Itoa(MaxComparisons)+" in one filter")
	}
	switch {
	case !left.isOperand():
		if left.notPos >= 0 {
			hint := "not (… " + op.String() + " …)"
			if in := left.n.left; in.kind == nodeCompare && right.lit.Type != 0 {
				hint = "not (" + in.prop + " " + op.String() + " " + formatLiteral(right.lit) + ")"
			}
			p.errAt(left.notPos, "'not' binds tighter than '"+op.String()+"'; to negate the comparison write "+hint)
		} else {
			p.errAt(opTok.Pos, "the left side of '"+op.String()+"' is a condition; expected a property or a literal")
		}
	case !right.isOperand():
		p.errAt(right.pos, "the right side of '"+op.String()+"' is a condition; expected a property or a literal")
	case left.prop != "" && right.prop != "":
		p.errAt(right.pos, "cannot compare property '"+left.prop+"' with property '"+right.prop+"'; one side of '"+op.String()+"' must be a literal value")
	case left.prop == "" && right.prop == "":
		p.errAt(left.pos, "'"+op.String()+"' compares two literals; one side must be a property name")
	case left.prop != "":
		p.props[left.prop] = struct{}{}
		return expr{n: &node{kind: nodeCompare, op: op, prop: left.prop, lit: right.lit}, pos: left.pos, notPos: -1}
	default:
		p.props[right.prop] = struct{}{}
		return expr{n: &node{kind: nodeCompare, op: op.flip(), prop: right.prop, lit: left.lit}, pos: left.pos, notPos: -1}
	}
	return left
}

func (p *parser) isOperandStart(it Token) bool {
	switch it.Kind {
	case TokenLeftParen, TokenIdentifier, TokenString, TokenNumber, TokenTyped, TokenTrue, TokenFalse, TokenNot:
		return true
	}
	return false
}

func (p *parser) parseUnary() expr {
	it := p.peek()
	if it.Kind != TokenNot {
		return p.parsePrimary()
	}
	p.nest(it)
	defer p.unnest()
	p.next()
	p.expectOperand(it, "a condition")
	c := p.condition(p.parseUnary())
	return expr{n: &node{kind: nodeNot, left: c}, pos: it.Pos, notPos: it.Pos}
}

// nest enters the group or negation that it (a '(' or 'not') opens, and
// refuses it when that is deeper than MaxNesting.
func (p *parser) nest(it Token) {
	p.depth++
	if p.depth > MaxNesting {
		p.errAt(it.Pos, "nested too deeply: this "+it.describe()+" opens level "+strconv.Itoa(p.depth)+
			" of parentheses and 'not'; tstable allows at most "+strconv.Itoa(MaxNesting)+" (remove redundant parentheses or double negations)")
	}
}

// unnest leaves what nest entered.
func (p *parser) unnest() { p.depth-- }

func (p *parser) parsePrimary() expr {
	it := p.next()
	switch it.Kind {
	case TokenLeftParen:
		p.nest(it)
		defer p.unnest()
		inner := p.parseBinary(0)
		closing := p.peek()
		if closing.Kind == TokenEOF {
			p.errAt(it.Pos, "unbalanced parentheses: this '(' is never closed; expected ')'")
		} else if closing.Kind != TokenRightParen {
			p.unexpected(closing, true)
		}
		p.next()
		inner.pos = it.Pos
		inner.notPos = -1
		return inner
	case TokenIdentifier:
		return expr{prop: it.Text, pos: it.Pos, notPos: -1}
	case TokenString:
		return expr{lit: String(unquote(it.Text)), pos: it.Pos, notPos: -1}
	case TokenTrue, TokenFalse:
		return expr{lit: Bool(it.Kind == TokenTrue), pos: it.Pos, notPos: -1}
	case TokenNumber:
		v, e := parseNumber(it.Text)
		if e != nil {
			p.errAt(it.Pos+e.off, e.msg)
		}
		return expr{lit: v, pos: it.Pos, notPos: -1}
	case TokenTyped:
		v, e := parseTyped(it.Text)
		if e != nil {
			p.errAt(it.Pos+e.off, e.msg)
		}
		return expr{lit: v, pos: it.Pos, notPos: -1}
	case TokenError:
		p.errAt(it.Pos, it.Text)
	case TokenEOF:
		p.errAt(it.Pos, "unexpected end of the filter; expected a condition")
	case TokenRightParen:
		p.errAt(it.Pos, "unexpected ')'; expected a condition")
	default:
		p.errAt(it.Pos, "unexpected "+it.describe()+"; expected a property name, a literal or '('")
	}
	return expr{pos: it.Pos, notPos: -1}
}

// condition turns an expression used as a condition into a node: a boolean
// node as it is, a property into "Prop eq true", the literal true or
// false into a constant condition (the service takes $filter=true and
// $filter=false, and both inside a larger filter); another literal is an
// error.
func (p *parser) condition(e expr) *node {
	if e.n != nil {
		return e.n
	}
	if e.prop != "" {
		p.ncmp++
		if p.ncmp > MaxComparisons {
			p.errAt(e.pos, "too many comparisons: this is comparison "+strconv.Itoa(p.ncmp)+"; the service allows at most "+strconv.Itoa(MaxComparisons)+" in one filter")
		}
		p.props[e.prop] = struct{}{}
		return &node{kind: nodeCompare, op: opEq, prop: e.prop, lit: Bool(true)}
	}
	if e.lit.Type == EdmBoolean {
		return &node{kind: nodeConst, lit: e.lit}
	}
	p.errAt(e.pos, "a literal alone is not a condition; expected a comparison such as Name eq "+formatLiteral(e.lit))
	return nil
}

// expectOperand checks that an operand follows the operator op, and says
// what was expected after it when not.
func (p *parser) expectOperand(op Token, what string) {
	it := p.peek()
	if p.isOperandStart(it) {
		return
	}
	if it.Kind == TokenError {
		p.errAt(it.Pos, it.Text)
	}
	p.errAt(it.Pos, "expected "+what+" after '"+op.Text+"', found "+it.describe())
}
