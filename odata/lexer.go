package odata

import (
	"fmt"
	"strings"
	"unicode"
	"unicode/utf8"
)

// The $filter lexer follows the shape of text/template/parse: a small state
// machine that walks the input once and emits items, each of which remembers
// the byte offset where it starts so that errors can point at it.

// itemType identifies the kind of a lexed item.
type itemType int

const (
	itemError      itemType = iota // lexing failed; val holds the message
	itemEOF                        // end of the input
	itemLeftParen                  // (
	itemRightParen                 // )
	itemIdentifier                 // a property name
	itemString                     // 'text' (val is the raw text, quotes included)
	itemNumber                     // 42, -7, 42L, 4.5, 1e10
	itemTyped                      // datetime'…', guid'…', X'…', binary'…' (raw text)
	itemAnd                        // and
	itemOr                         // or
	itemNot                        // not
	itemEq                         // eq
	itemNe                         // ne
	itemGt                         // gt
	itemGe                         // ge
	itemLt                         // lt
	itemLe                         // le
	itemTrue                       // true
	itemFalse                      // false
)

// keywords are the reserved words of the language. The service's operators
// are lower-case only ("Eq" or "AND" is not an operator), so the lexer
// matches them exactly; the parser recognizes the other spellings to say so.
var keywords = map[string]itemType{
	"and":   itemAnd,
	"or":    itemOr,
	"not":   itemNot,
	"eq":    itemEq,
	"ne":    itemNe,
	"gt":    itemGt,
	"ge":    itemGe,
	"lt":    itemLt,
	"le":    itemLe,
	"true":  itemTrue,
	"false": itemFalse,
}

// item is one token: its type, its byte offset in the input and its text.
type item struct {
	typ itemType
	pos int
	val string
}

// isComparison reports whether the item is one of eq ne gt ge lt le.
func (i item) isComparison() bool { return i.typ >= itemEq && i.typ <= itemLe }

// describe names the item the way an error message quotes it.
func (i item) describe() string {
	switch i.typ {
	case itemEOF:
		return "the end of the filter"
	case itemError:
		return "an error"
	}
	v := i.val
	if utf8.RuneCountInString(v) > 24 {
		v = string([]rune(v)[:24]) + "…"
	}
	if i.typ == itemString || i.typ == itemTyped {
		return v // quoted already
	}
	return "'" + v + "'"
}

const eof = -1

// stateFn is one state of the lexer; it returns the next state.
type stateFn func(*lexer) stateFn

// lexer holds the state of the scanner.
type lexer struct {
	input string
	start int // start of the current item
	pos   int // current position
	width int // width of the last rune read
	items []item
}

// lex scans the whole input and returns its items, ending with itemEOF or
// with the first itemError.
func lex(input string) []item {
	l := &lexer{input: input}
	for state := lexAny; state != nil; {
		state = state(l)
	}
	return l.items
}

func (l *lexer) next() rune {
	if l.pos >= len(l.input) {
		l.width = 0
		return eof
	}
	r, w := utf8.DecodeRuneInString(l.input[l.pos:])
	l.width = w
	l.pos += w
	return r
}

func (l *lexer) backup() { l.pos -= l.width }

func (l *lexer) peek() rune {
	r := l.next()
	l.backup()
	return r
}

func (l *lexer) emit(t itemType) {
	l.items = append(l.items, item{t, l.start, l.input[l.start:l.pos]})
	l.start = l.pos
}

func (l *lexer) ignore() { l.start = l.pos }

// errorAt emits an error item at byte offset pos and stops the lexer.
func (l *lexer) errorAt(pos int, msg string) stateFn {
	l.items = append(l.items, item{itemError, pos, msg})
	return nil
}

// lexAny scans between items.
func lexAny(l *lexer) stateFn {
	r := l.next()
	switch {
	case r == eof:
		l.emit(itemEOF)
		return nil
	case isSpace(r):
		l.ignore()
		return lexAny
	case r == '(':
		l.emit(itemLeftParen)
		return lexAny
	case r == ')':
		l.emit(itemRightParen)
		return lexAny
	case r == '\'':
		return lexQuote
	case r == '-' || ('0' <= r && r <= '9'):
		if r == '-' && !isDigit(l.peek()) {
			return l.errorAt(l.start, "unexpected '-'; a negative number is written with the digits right after the sign, as in -5")
		}
		return lexNumber
	case isIdentStart(r):
		return lexIdentifier
	}
	return l.errorAt(l.start, unexpectedChar(r, l.input[l.start:]))
}

// unexpectedChar explains a character that starts no item, with a hint for
// the operators people bring from other languages.
func unexpectedChar(r rune, rest string) string {
	hints := []struct{ op, say string }{
		{"==", "eq"}, {"!=", "ne"}, {"<>", "ne"}, {">=", "ge"}, {"<=", "le"},
		{"&&", "and"}, {"||", "or"}, {"=", "eq"}, {">", "gt"}, {"<", "lt"}, {"!", "not"},
		{"&", "and"}, {"|", "or"},
	}
	for _, h := range hints {
		if strings.HasPrefix(rest, h.op) {
			return "unexpected '" + h.op + "'; the operator is written '" + h.say + "' (operators are eq ne gt ge lt le and or not)"
		}
	}
	if r == '"' {
		return "unexpected '\"'; string literals are written in single quotes, as in 'Smith'"
	}
	return "unexpected character " + quoteRune(r) + "; expected a property name, a literal, an operator or a parenthesis"
}

func quoteRune(r rune) string {
	if unicode.IsPrint(r) {
		return "'" + string(r) + "'"
	}
	return fmt.Sprintf("U+%04X", r)
}

// lexQuote scans a single-quoted string; a doubled quote is a quote inside it.
func lexQuote(l *lexer) stateFn {
	if !l.scanQuoted() {
		return l.errorAt(l.start, "unterminated string literal; expected a closing ' (a quote inside a string is written twice: 'O''Brien')")
	}
	l.emit(itemString)
	return lexAny
}

// scanQuoted consumes the rest of a quoted text whose opening quote has been
// read; it reports false when the input ends first.
func (l *lexer) scanQuoted() bool {
	for {
		switch l.next() {
		case eof:
			return false
		case '\'':
			if l.peek() != '\'' {
				return true
			}
			l.next()
		}
	}
}

// lexNumber scans a number: an optional '-', digits, an optional fraction
// and exponent, and an optional 'L' (Int64) suffix. Its value is checked by
// the parser.
func lexNumber(l *lexer) stateFn {
	l.acceptRun("0123456789")
	if l.accept(".") {
		if !isDigit(l.peek()) {
			return l.errorAt(l.pos, "expected a digit after the decimal point")
		}
		l.acceptRun("0123456789")
	}
	if l.accept("eE") {
		l.accept("+-")
		if !isDigit(l.peek()) {
			return l.errorAt(l.pos, "expected the digits of an exponent")
		}
		l.acceptRun("0123456789")
	}
	l.accept("L")
	if r := l.peek(); isIdentPart(r) || r == '\'' || r == '.' {
		return l.errorAt(l.pos, "unexpected "+quoteRune(r)+" after the number "+l.input[l.start:l.pos])
	}
	l.emit(itemNumber)
	return lexAny
}

// lexIdentifier scans a property name, a keyword, or the prefix of a typed
// literal (datetime'…', guid'…', X'…', binary'…').
func lexIdentifier(l *lexer) stateFn {
	for isIdentPart(l.peek()) {
		l.next()
	}
	word := l.input[l.start:l.pos]
	if _, isKeyword := keywords[word]; l.peek() == '\'' && !isKeyword {
		switch word {
		case "datetime", "guid", "X", "binary":
		default:
			return l.errorAt(l.start, "unknown literal prefix "+quoteWord(word)+"; expected datetime'…', guid'…', X'…' or binary'…' (prefixes are case-sensitive)")
		}
		l.next()
		if !l.scanQuoted() {
			return l.errorAt(l.start, "unterminated "+word+" literal; expected a closing '")
		}
		l.emit(itemTyped)
		return lexAny
	}
	if t, ok := keywords[word]; ok {
		l.emit(t)
	} else {
		l.emit(itemIdentifier)
	}
	return lexAny
}

func quoteWord(w string) string { return "'" + w + "'" }

func (l *lexer) accept(valid string) bool {
	if strings.ContainsRune(valid, l.next()) {
		return true
	}
	l.backup()
	return false
}

func (l *lexer) acceptRun(valid string) {
	for strings.ContainsRune(valid, l.next()) {
	}
	l.backup()
}

func isSpace(r rune) bool { return r == ' ' || r == '\t' || r == '\n' || r == '\r' }

func isDigit(r rune) bool { return '0' <= r && r <= '9' }

// isIdentStart and isIdentPart define property names: C#-identifier-like,
// a letter or '_' followed by letters, digits and '_'.
func isIdentStart(r rune) bool { return r == '_' || unicode.IsLetter(r) }

func isIdentPart(r rune) bool { return r == '_' || unicode.IsLetter(r) || unicode.IsDigit(r) }
