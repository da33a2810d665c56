package odata

import (
	"fmt"
	"strings"
	"unicode"
	"unicode/utf8"
)

// The $filter lexer follows the shape of text/template/parse: a small state
// machine that walks the input once and hands out tokens one at a time, each
// of which remembers where it starts (byte offset and column) so that
// errors can point at it. The parser pulls tokens as it needs them, so a
// filter it refuses early is never lexed to its end.
//
// The same lexer serves completion (LexPartial): there a token cut short by
// the end of the text (an open string 'Sa, a half datetime'20, a number
// 1.5e) is the token being typed, not an error. Both modes read every
// literal the same way, so what completion sees is what the parser will see.

// TokenKind identifies the kind of a $filter token.
type TokenKind int

// The token kinds. The reserved words come between the unexported
// sentinels keywordsBegin and keywordsEnd, and the comparison operators
// among them between comparisonsBegin and comparisonsEnd, so that a kind
// added elsewhere never joins either class by accident.
const (
	TokenError       TokenKind = iota // lexing failed; Text holds the message
	TokenEOF                          // the end of the filter
	TokenLeftParen                    // (
	TokenRightParen                   // )
	TokenIdentifier                   // a property name
	TokenString                       // 'text' (Text is the raw text, quotes included)
	TokenNumber                       // 42, -7, 42L, 4.5, 1e10
	TokenTyped                        // datetime'…', guid'…', X'…', binary'…' (raw text)
	keywordsBegin                     // sentinel: the reserved words follow
	TokenAnd                          // and
	TokenOr                           // or
	TokenNot                          // not
	comparisonsBegin                  // sentinel: the comparison operators follow
	TokenEq                           // eq
	TokenNe                           // ne
	TokenGt                           // gt
	TokenGe                           // ge
	TokenLt                           // lt
	TokenLe                           // le
	comparisonsEnd                    // sentinel: the comparison operators end
	TokenTrue                         // true
	TokenFalse                        // false
	keywordsEnd                       // sentinel: the reserved words end
)

var tokenKindNames = [...]string{
	TokenError: "error", TokenEOF: "end", TokenLeftParen: "(", TokenRightParen: ")",
	TokenIdentifier: "identifier", TokenString: "string", TokenNumber: "number", TokenTyped: "typed literal",
	TokenAnd: "and", TokenOr: "or", TokenNot: "not", TokenEq: "eq", TokenNe: "ne", TokenGt: "gt",
	TokenGe: "ge", TokenLt: "lt", TokenLe: "le", TokenTrue: "true", TokenFalse: "false",
}

// String names the kind: "identifier", "string", "(", "and", ….
func (k TokenKind) String() string {
	if k >= 0 && int(k) < len(tokenKindNames) && tokenKindNames[k] != "" {
		return tokenKindNames[k]
	}
	return fmt.Sprintf("TokenKind(%d)", int(k))
}

// keyword gives the kind of a reserved word of the language. The
// service's operators are lower-case only ("Eq" or "AND" is not an
// operator), so the lexer matches them exactly; the parser recognizes the
// other spellings to say so. The Boolean literals are read in any case
// (True, FALSE), as the service reads them (Azurite#1947).
func keyword(word string) (TokenKind, bool) {
	switch {
	case strings.EqualFold(word, "true"):
		return TokenTrue, true
	case strings.EqualFold(word, "false"):
		return TokenFalse, true
	}
	switch word {
	case "and":
		return TokenAnd, true
	case "or":
		return TokenOr, true
	case "not":
		return TokenNot, true
	case "eq":
		return TokenEq, true
	case "ne":
		return TokenNe, true
	case "gt":
		return TokenGt, true
	case "ge":
		return TokenGe, true
	case "lt":
		return TokenLt, true
	case "le":
		return TokenLe, true
	}
	return 0, false
}

// Token is one token of a $filter: its kind, its text as written, and where
// it starts.
type Token struct {
	Kind TokenKind
	// Text is the token as written (a string keeps its quotes). For
	// TokenError it is the message: what is wrong and what to write.
	Text string
	// Pos is the byte offset where the token starts (for TokenError,
	// where the problem is).
	Pos int
	// Column is where Pos is, counted in characters from 1, as in
	// SyntaxError.Column.
	Column int
}

// StringValue returns the text a string token stands for: the quotes taken
// off and a doubled quote made one. It reads an unfinished string the same
// way; for other kinds it returns Text.
//
//	'O''Brien'  O'Brien
//	'O''Br      O'Br
func (t Token) StringValue() string {
	if t.Kind != TokenString {
		return t.Text
	}
	return unquote(t.Text)
}

// isComparison reports whether the token is one of eq ne gt ge lt le.
func (t Token) isComparison() bool { return t.Kind > comparisonsBegin && t.Kind < comparisonsEnd }

// isKeyword reports whether the token is a reserved word: an operator,
// true or false.
func (t Token) isKeyword() bool { return t.Kind > keywordsBegin && t.Kind < keywordsEnd }

// describe names the token the way an error message quotes it.
func (t Token) describe() string {
	switch t.Kind {
	case TokenEOF:
		return "the end of the filter"
	case TokenError:
		return "an error"
	}
	v := t.Text
	if utf8.RuneCountInString(v) > 24 {
		v = string([]rune(v)[:24]) + "…"
	}
	if t.Kind == TokenString || t.Kind == TokenTyped {
		return v // quoted already
	}
	return "'" + v + "'"
}

// LexPartial splits a $filter that is still being typed (src is the text
// before the cursor) into the complete tokens and the token under the
// cursor. The latter may be unfinished: an open string ('Sa, kind
// TokenString), a half typed literal (datetime'20, TokenTyped), a number
// waiting for digits (1.5e, TokenNumber) or a word (La, an, TokenIdentifier
// or a keyword's kind). A word, a number or an open literal that runs to the
// end of src is the token under the cursor, since more typing extends it. A
// closed literal or a parenthesis is complete (a quote typed right after a
// closed literal would make a doubled quote of its last one, and the next
// call reads it so). When src ends in a space or a parenthesis, the token
// under the cursor is an empty TokenEOF at len(src).
//
// Literals are read as ParseFilter reads them: a doubled quote inside a
// string, X'0A', 30L, 1.5e3. A lexical error before the cursor ends tokens
// with a TokenError (nothing after it is read), and the token under the
// cursor is then empty.
func LexPartial(src string) (tokens []Token, partial Token) {
	l := newLexer(src, true)
	for {
		t := l.nextToken()
		if t.Kind == TokenEOF {
			partial = t
			break
		}
		tokens = append(tokens, t)
		if t.Kind == TokenError {
			return tokens, Token{Kind: TokenEOF, Pos: len(src), Column: utf8.RuneCountInString(src) + 1}
		}
	}
	if n := len(tokens); n > 0 {
		last := tokens[n-1]
		extendable := last.Kind == TokenIdentifier || last.Kind == TokenNumber || last.isKeyword()
		if last.Pos+len(last.Text) == len(src) && (extendable || l.open) {
			return tokens[:n-1], last
		}
	}
	return tokens, partial
}

const eof = -1

// stateFn is one state of the lexer; it returns the next state.
type stateFn func(*lexer) stateFn

// lexer holds the state of the scanner.
type lexer struct {
	input    string
	start    int     // byte offset where the current token starts
	startCol int     // its column
	pos      int     // current byte offset
	col      int     // its column
	width    int     // width of the last rune read
	state    stateFn // the next state; nil after TokenEOF or TokenError
	tok      Token   // the token last emitted
	ready    bool    // tok is waiting to be handed out
	partial  bool    // LexPartial: a token cut short by the end is emitted, not refused
	open     bool    // the last token was cut short by the end of the input
}

func newLexer(input string, partial bool) *lexer {
	return &lexer{input: input, startCol: 1, col: 1, state: lexAny, partial: partial}
}

// nextToken runs the state machine until it emits a token and returns it.
// After TokenEOF or TokenError it returns that token again.
func (l *lexer) nextToken() Token {
	for !l.ready && l.state != nil {
		l.state = l.state(l)
	}
	l.ready = false
	return l.tok
}

func (l *lexer) next() rune {
	if l.pos >= len(l.input) {
		l.width = 0
		return eof
	}
	r, w := utf8.DecodeRuneInString(l.input[l.pos:])
	l.width = w
	l.pos += w
	l.col++
	return r
}

// backup steps back over the rune last read by next (once per next).
func (l *lexer) backup() {
	if l.width > 0 {
		l.pos -= l.width
		l.col--
	}
}

func (l *lexer) peek() rune {
	r := l.next()
	l.backup()
	return r
}

func (l *lexer) emit(k TokenKind) {
	l.tok = Token{Kind: k, Text: l.input[l.start:l.pos], Pos: l.start, Column: l.startCol}
	l.ready = true
	l.ignore()
}

// emitOpen emits a token the end of the input cut short (LexPartial only).
func (l *lexer) emitOpen(k TokenKind) stateFn {
	l.open = true
	l.emit(k)
	return lexAny
}

func (l *lexer) ignore() {
	l.start = l.pos
	l.startCol = l.col
}

// errorAt emits an error token at byte offset pos (at or after the start of
// the current token) and stops the lexer.
func (l *lexer) errorAt(pos int, msg string) stateFn {
	col := l.startCol + utf8.RuneCountInString(l.input[l.start:pos])
	l.tok = Token{Kind: TokenError, Text: msg, Pos: pos, Column: col}
	l.ready = true
	return nil
}

// atEnd reports whether the input is used up, so that a token the lexer
// would refuse as cut short is, in LexPartial, the token being typed.
func (l *lexer) atEnd() bool { return l.partial && l.pos >= len(l.input) }

// lexAny scans between tokens.
func lexAny(l *lexer) stateFn {
	r := l.next()
	switch {
	case r == eof:
		l.emit(TokenEOF)
		return nil
	case isSpace(r):
		l.ignore()
		return lexAny
	case r == '(':
		l.emit(TokenLeftParen)
		return lexAny
	case r == ')':
		l.emit(TokenRightParen)
		return lexAny
	case r == '\'':
		return lexQuote
	case r == '-' || ('0' <= r && r <= '9'):
		if r == '-' && !isDigit(l.peek()) {
			if l.atEnd() {
				return l.emitOpen(TokenNumber)
			}
			return l.errorAt(l.start, "unexpected '-'; a negative number is written with the digits right after the sign, as in -5")
		}
		return lexNumber
	case isIdentStart(r):
		return lexIdentifier
	}
	return l.errorAt(l.start, unexpectedChar(r, l.input[l.start:]))
}

// unexpectedChar explains a character that starts no token, with a hint for
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
		if l.atEnd() {
			return l.emitOpen(TokenString)
		}
		return l.errorAt(l.start, "unterminated string literal; expected a closing ' (a quote inside a string is written twice: 'O''Brien')")
	}
	l.emit(TokenString)
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
			if l.atEnd() {
				return l.emitOpen(TokenNumber)
			}
			return l.errorAt(l.pos, "expected a digit after the decimal point")
		}
		l.acceptRun("0123456789")
	}
	if l.accept("eE") {
		l.accept("+-")
		if !isDigit(l.peek()) {
			if l.atEnd() {
				return l.emitOpen(TokenNumber)
			}
			return l.errorAt(l.pos, "expected the digits of an exponent")
		}
		l.acceptRun("0123456789")
	}
	l.accept("L")
	if r := l.peek(); isIdentPart(r) || r == '\'' || r == '.' {
		return l.errorAt(l.pos, "unexpected "+quoteRune(r)+" after the number "+l.input[l.start:l.pos])
	}
	l.emit(TokenNumber)
	return lexAny
}

// lexIdentifier scans a property name, a keyword, or the prefix of a typed
// literal (datetime'…', guid'…', X'…', binary'…').
func lexIdentifier(l *lexer) stateFn {
	for isIdentPart(l.peek()) {
		l.next()
	}
	word := l.input[l.start:l.pos]
	if _, isKeyword := keyword(word); l.peek() == '\'' && !isKeyword {
		switch word {
		case "datetime", "guid", "X", "binary":
		default:
			return l.errorAt(l.start, "unknown literal prefix "+quoteWord(word)+"; expected datetime'…', guid'…', X'…' or binary'…' (prefixes are case-sensitive)")
		}
		l.next()
		if !l.scanQuoted() {
			if l.atEnd() {
				return l.emitOpen(TokenTyped)
			}
			return l.errorAt(l.start, "unterminated "+word+" literal; expected a closing '")
		}
		l.emit(TokenTyped)
		return lexAny
	}
	if k, ok := keyword(word); ok {
		l.emit(k)
	} else {
		l.emit(TokenIdentifier)
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
