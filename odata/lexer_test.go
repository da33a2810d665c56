package odata

import (
	"fmt"
	"strings"
	"testing"
	"unicode/utf8"
)

// lexAll returns the tokens of src as the parser reads them, ending with
// TokenEOF or at the first TokenError.
func lexAll(src string) []Token {
	l := newLexer(src, false)
	var out []Token
	for {
		t := l.nextToken()
		out = append(out, t)
		if t.Kind == TokenEOF || t.Kind == TokenError {
			return out
		}
	}
}

// tok is a token as a test row writes it: kind, text and column.
type tok struct {
	kind TokenKind
	text string
	col  int
}

func (t tok) String() string { return fmt.Sprintf("%v %q col %d", t.kind, t.text, t.col) }

func toks(ts []Token) []tok {
	out := make([]tok, len(ts))
	for i, t := range ts {
		out[i] = tok{t.Kind, t.Text, t.Column}
	}
	return out
}

func sameToks(a, b []tok) bool {
	if len(a) != len(b) {
		return false
	}
	for i := range a {
		if a[i] != b[i] {
			return false
		}
	}
	return true
}

func TestLexer(t *testing.T) {
	eof := func(col int) tok { return tok{TokenEOF, "", col} }
	tests := []struct {
		src  string
		want []tok
	}{
		{"", []tok{eof(1)}},
		{" \t\r\n", []tok{eof(5)}},
		{"PartitionKey eq 'Sales'", []tok{{TokenIdentifier, "PartitionKey", 1}, {TokenEq, "eq", 14}, {TokenString, "'Sales'", 17}, eof(24)}},
		{"(A)", []tok{{TokenLeftParen, "(", 1}, {TokenIdentifier, "A", 2}, {TokenRightParen, ")", 3}, eof(4)}},
		{"and or not", []tok{{TokenAnd, "and", 1}, {TokenOr, "or", 5}, {TokenNot, "not", 8}, eof(11)}},
		{"eq ne gt ge lt le", []tok{{TokenEq, "eq", 1}, {TokenNe, "ne", 4}, {TokenGt, "gt", 7}, {TokenGe, "ge", 10}, {TokenLt, "lt", 13}, {TokenLe, "le", 16}, eof(18)}},
		{"true false", []tok{{TokenTrue, "true", 1}, {TokenFalse, "false", 6}, eof(11)}},
		// Operators are lower-case only: other spellings are names, for
		// the parser to explain.
		{"AND Eq", []tok{{TokenIdentifier, "AND", 1}, {TokenIdentifier, "Eq", 5}, eof(7)}},
		{"_a1 Städte", []tok{{TokenIdentifier, "_a1", 1}, {TokenIdentifier, "Städte", 5}, eof(11)}},
		{"42 -7 42L 4.5 1e10 2.5E-3 1e+2 -7L", []tok{
			{TokenNumber, "42", 1}, {TokenNumber, "-7", 4}, {TokenNumber, "42L", 7}, {TokenNumber, "4.5", 11},
			{TokenNumber, "1e10", 15}, {TokenNumber, "2.5E-3", 20}, {TokenNumber, "1e+2", 27}, {TokenNumber, "-7L", 32}, eof(35)}},
		{"''", []tok{{TokenString, "''", 1}, eof(3)}},
		{"'O''Brien' 'a b'", []tok{{TokenString, "'O''Brien'", 1}, {TokenString, "'a b'", 12}, eof(17)}},
		{"'eq and'", []tok{{TokenString, "'eq and'", 1}, eof(9)}},
		{"datetime'2014-08-22T00:50:32Z' guid'a455c695-df98-5678-aaaa-81d3367e5a34'", []tok{
			{TokenTyped, "datetime'2014-08-22T00:50:32Z'", 1}, {TokenTyped, "guid'a455c695-df98-5678-aaaa-81d3367e5a34'", 32}, eof(74)}},
		{"X'0A' binary'0a'", []tok{{TokenTyped, "X'0A'", 1}, {TokenTyped, "binary'0a'", 7}, eof(17)}},
		// A keyword right before a quote is the keyword, then a string.
		{"eq'x'", []tok{{TokenEq, "eq", 1}, {TokenString, "'x'", 3}, eof(6)}},
		{"(Age)eq(5)", []tok{{TokenLeftParen, "(", 1}, {TokenIdentifier, "Age", 2}, {TokenRightParen, ")", 5}, {TokenEq, "eq", 6},
			{TokenLeftParen, "(", 8}, {TokenNumber, "5", 9}, {TokenRightParen, ")", 10}, eof(11)}},
		// Columns count characters, not bytes.
		{"Städte eq\t'東京' and X", []tok{{TokenIdentifier, "Städte", 1}, {TokenEq, "eq", 8}, {TokenString, "'東京'", 11}, {TokenAnd, "and", 16}, {TokenIdentifier, "X", 20}, eof(21)}},

		// Errors: the lexer stops at the first, which names its column.
		{"Name eq 'Smith", []tok{{TokenIdentifier, "Name", 1}, {TokenEq, "eq", 6},
			{TokenError, "unterminated string literal; expected a closing ' (a quote inside a string is written twice: 'O''Brien')", 9}}},
		{"'O''", []tok{{TokenError, "unterminated string literal; expected a closing ' (a quote inside a string is written twice: 'O''Brien')", 1}}},
		{"D eq datetime'2014", []tok{{TokenIdentifier, "D", 1}, {TokenEq, "eq", 3}, {TokenError, "unterminated datetime literal; expected a closing '", 6}}},
		{"é eq $5", []tok{{TokenIdentifier, "é", 1}, {TokenEq, "eq", 3},
			{TokenError, "unexpected character '$'; expected a property name, a literal, an operator or a parenthesis", 6}}},
		{"A eq \x01", []tok{{TokenIdentifier, "A", 1}, {TokenEq, "eq", 3},
			{TokenError, "unexpected character U+0001; expected a property name, a literal, an operator or a parenthesis", 6}}},
		{"Age == 5", []tok{{TokenIdentifier, "Age", 1}, {TokenError, "unexpected '=='; the operator is written 'eq' (operators are eq ne gt ge lt le and or not)", 5}}},
		{`Name eq "Smith"`, []tok{{TokenIdentifier, "Name", 1}, {TokenEq, "eq", 6}, {TokenError, `unexpected '"'; string literals are written in single quotes, as in 'Smith'`, 9}}},
		{"- 5", []tok{{TokenError, "unexpected '-'; a negative number is written with the digits right after the sign, as in -5", 1}}},
		{"1.x", []tok{{TokenError, "expected a digit after the decimal point", 3}}},
		{"1.", []tok{{TokenError, "expected a digit after the decimal point", 3}}},
		{"1e+", []tok{{TokenError, "expected the digits of an exponent", 4}}},
		{"A eq 5x", []tok{{TokenIdentifier, "A", 1}, {TokenEq, "eq", 3}, {TokenError, "unexpected 'x' after the number 5", 7}}},
		{"A eq 5L'", []tok{{TokenIdentifier, "A", 1}, {TokenEq, "eq", 3}, {TokenError, "unexpected ''' after the number 5L", 8}}},
		{"D eq DateTime'x'", []tok{{TokenIdentifier, "D", 1}, {TokenEq, "eq", 3},
			{TokenError, "unknown literal prefix 'DateTime'; expected datetime'…', guid'…', X'…' or binary'…' (prefixes are case-sensitive)", 6}}},
	}
	for _, tt := range tests {
		t.Run(tt.src, func(t *testing.T) {
			if got := toks(lexAll(tt.src)); !sameToks(got, tt.want) {
				t.Errorf("lex(%q)\n got  %v\n want %v", tt.src, got, tt.want)
			}
		})
	}
}

// TestLexerCoversEveryKind keeps TestLexer honest as kinds are added.
func TestLexerCoversEveryKind(t *testing.T) {
	seen := map[TokenKind]bool{}
	for _, src := range []string{"( ) A 'a' 1 X'0A' and or not eq ne gt ge lt le true false", "$"} {
		for _, tk := range lexAll(src) {
			seen[tk.Kind] = true
		}
	}
	for k := TokenError; k <= TokenFalse; k++ {
		if sentinel(k) {
			continue
		}
		if !seen[k] {
			t.Errorf("no token of kind %v", k)
		}
		if strings.HasPrefix(k.String(), "TokenKind(") {
			t.Errorf("kind %d has no name", int(k))
		}
	}
}

func TestLexPartial(t *testing.T) {
	eof := func(col int) tok { return tok{TokenEOF, "", col} }
	tests := []struct {
		src     string
		tokens  []tok
		partial tok
		value   string // partial.StringValue(), when it is a string
	}{
		{"", nil, eof(1), ""},
		{"Age g", []tok{{TokenIdentifier, "Age", 1}}, tok{TokenIdentifier, "g", 5}, ""},
		{"Age gt 30 ", []tok{{TokenIdentifier, "Age", 1}, {TokenGt, "gt", 5}, {TokenNumber, "30", 8}}, eof(11), ""},
		{"Age gt 30 an", []tok{{TokenIdentifier, "Age", 1}, {TokenGt, "gt", 5}, {TokenNumber, "30", 8}}, tok{TokenIdentifier, "an", 11}, ""},
		{"Age gt 30 and", []tok{{TokenIdentifier, "Age", 1}, {TokenGt, "gt", 5}, {TokenNumber, "30", 8}}, tok{TokenAnd, "and", 11}, ""},
		{"Age gt 30", []tok{{TokenIdentifier, "Age", 1}, {TokenGt, "gt", 5}}, tok{TokenNumber, "30", 8}, ""},
		{"Age gt -", []tok{{TokenIdentifier, "Age", 1}, {TokenGt, "gt", 5}}, tok{TokenNumber, "-", 8}, ""},
		{"Age gt 1.", []tok{{TokenIdentifier, "Age", 1}, {TokenGt, "gt", 5}}, tok{TokenNumber, "1.", 8}, ""},
		{"Age gt 1.5e", []tok{{TokenIdentifier, "Age", 1}, {TokenGt, "gt", 5}}, tok{TokenNumber, "1.5e", 8}, ""},
		{"Age gt 1.5e-", []tok{{TokenIdentifier, "Age", 1}, {TokenGt, "gt", 5}}, tok{TokenNumber, "1.5e-", 8}, ""},
		{"PartitionKey eq 'Sa", []tok{{TokenIdentifier, "PartitionKey", 1}, {TokenEq, "eq", 14}}, tok{TokenString, "'Sa", 17}, "Sa"},
		{"PartitionKey eq 'Sales E", []tok{{TokenIdentifier, "PartitionKey", 1}, {TokenEq, "eq", 14}}, tok{TokenString, "'Sales E", 17}, "Sales E"},
		{"Name eq 'O''Br", []tok{{TokenIdentifier, "Name", 1}, {TokenEq, "eq", 6}}, tok{TokenString, "'O''Br", 9}, "O'Br"},
		{"Name eq 'O''", []tok{{TokenIdentifier, "Name", 1}, {TokenEq, "eq", 6}}, tok{TokenString, "'O''", 9}, "O'"},
		{"Name eq '", []tok{{TokenIdentifier, "Name", 1}, {TokenEq, "eq", 6}}, tok{TokenString, "'", 9}, ""},
		// A closed literal is complete.
		{"Name eq 'O''Brien'", []tok{{TokenIdentifier, "Name", 1}, {TokenEq, "eq", 6}, {TokenString, "'O''Brien'", 9}}, eof(19), ""},
		{"Hired ge datetime'20", []tok{{TokenIdentifier, "Hired", 1}, {TokenGe, "ge", 7}}, tok{TokenTyped, "datetime'20", 10}, ""},
		{"Hired ge datetime", []tok{{TokenIdentifier, "Hired", 1}, {TokenGe, "ge", 7}}, tok{TokenIdentifier, "datetime", 10}, ""},
		{"B eq X'0A' and La", []tok{{TokenIdentifier, "B", 1}, {TokenEq, "eq", 3}, {TokenTyped, "X'0A'", 6}, {TokenAnd, "and", 12}}, tok{TokenIdentifier, "La", 16}, ""},
		{"(Fi", []tok{{TokenLeftParen, "(", 1}}, tok{TokenIdentifier, "Fi", 2}, ""},
		{"(A eq 1)", []tok{{TokenLeftParen, "(", 1}, {TokenIdentifier, "A", 2}, {TokenEq, "eq", 4}, {TokenNumber, "1", 7}, {TokenRightParen, ")", 8}}, eof(9), ""},
		{"Name eq 'Zoë' and Städ", []tok{{TokenIdentifier, "Name", 1}, {TokenEq, "eq", 6}, {TokenString, "'Zoë'", 9}, {TokenAnd, "and", 15}}, tok{TokenIdentifier, "Städ", 19}, ""},
		// An error before the cursor ends the tokens; nothing is being typed.
		{"Age eq $ and La", []tok{{TokenIdentifier, "Age", 1}, {TokenEq, "eq", 5},
			{TokenError, "unexpected character '$'; expected a property name, a literal, an operator or a parenthesis", 8}}, eof(16), ""},
		{"Age eq 5x", []tok{{TokenIdentifier, "Age", 1}, {TokenEq, "eq", 5}, {TokenError, "unexpected 'x' after the number 5", 9}}, eof(10), ""},
		{"Age eq - ", []tok{{TokenIdentifier, "Age", 1}, {TokenEq, "eq", 5},
			{TokenError, "unexpected '-'; a negative number is written with the digits right after the sign, as in -5", 8}}, eof(10), ""},
	}
	for _, tt := range tests {
		t.Run(tt.src, func(t *testing.T) {
			tokens, partial := LexPartial(tt.src)
			if got := toks(tokens); !sameToks(got, tt.tokens) {
				t.Errorf("LexPartial(%q) tokens\n got  %v\n want %v", tt.src, got, tt.tokens)
			}
			if got := (tok{partial.Kind, partial.Text, partial.Column}); got != tt.partial {
				t.Errorf("LexPartial(%q) partial = %v, want %v", tt.src, got, tt.partial)
			}
			if partial.Kind == TokenString && partial.StringValue() != tt.value {
				t.Errorf("LexPartial(%q) partial value = %q, want %q", tt.src, partial.StringValue(), tt.value)
			}
			if partial.Pos+len(partial.Text) != len(tt.src) {
				t.Errorf("LexPartial(%q) partial at byte %d ends before the end", tt.src, partial.Pos)
			}
		})
	}
}

// checkPrefixesLex checks that every prefix of src is read while typing as
// the whole of src is read when parsing: the complete tokens are the
// parser's, and the token under the cursor is the start of the parser's next
// one. src must lex without error.
func checkPrefixesLex(t *testing.T, src string) {
	t.Helper()
	full := lexAll(src)
	if full[len(full)-1].Kind == TokenError {
		return
	}
	for k := 0; k <= len(src); k++ {
		if k < len(src) && !utf8.RuneStart(src[k]) {
			continue
		}
		prefix := src[:k]
		tokens, partial := LexPartial(prefix)
		n := len(tokens)
		if n >= len(full) {
			t.Fatalf("LexPartial(%q): %d tokens, but %q has only %d", prefix, n, src, len(full))
		}
		for i, tk := range tokens {
			if tk == full[i] {
				continue
			}
			// A literal closed at the cursor may go on with a doubled quote.
			if i == n-1 && (tk.Kind == TokenString || tk.Kind == TokenTyped) && tk.Pos == full[i].Pos &&
				strings.HasPrefix(full[i].Text, tk.Text+"'") && partial.Kind == TokenEOF {
				continue
			}
			t.Fatalf("LexPartial(%q) token %d = %+v; %q has %+v", prefix, i, tk, src, full[i])
		}
		next := full[n]
		if partial.Kind == TokenEOF {
			if partial.Pos != k || partial.Pos > next.Pos {
				t.Fatalf("LexPartial(%q): cursor token at byte %d, want %d (before %+v)", prefix, partial.Pos, k, next)
			}
			continue
		}
		if partial.Pos != next.Pos || partial.Column != next.Column || !strings.HasPrefix(next.Text, partial.Text) || partial.Pos+len(partial.Text) != k {
			t.Fatalf("LexPartial(%q): cursor token %+v is not the start of %+v in %q", prefix, partial, next, src)
		}
	}
}

// TestLexPartialReadsAsTheParser: typing any of the parser's test filters,
// one character at a time, the completed tokens are always the parser's.
func TestLexPartialReadsAsTheParser(t *testing.T) {
	for _, src := range lexSeeds {
		checkPrefixesLex(t, src)
	}
}

var lexSeeds = []string{
	"PartitionKey eq 'Sales' and RowKey eq '00010'",
	"Name eq 'O''Brien' and Fi eq 'x'",
	"''''",
	"Blob eq X'0A1B' or Blob eq binary'ff' or B eq X''",
	"Born lt datetime'2014-08-22T00:50:32.1234567Z' and Id eq guid'A455C695-DF98-5678-AAAA-81D3367E5A34'",
	"Age gt -5 and Big le 9223372036854775807L and S ge 1.5e3 and T lt 2.5E-3 and U eq 1e+2",
	"not (IsActive) and ((A eq 1) or (B eq 2))",
	"Name eq 'Zoë' and Städte eq '東京'",
	"Name\teq\r\n'x'   and  A eq -7L",
	"eq'x'",
}

// FuzzLexPartial checks the same for any text the lexer accepts.
func FuzzLexPartial(f *testing.F) {
	for _, s := range lexSeeds {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, src string) {
		if len(src) > 200 {
			return // every prefix is lexed: keep the work quadratic in a small n
		}
		checkPrefixesLex(t, src)
	})
}

// The sentinels bracket exactly the reserved words and, among them, the
// comparison operators: every word keyword knows, and nothing else.
func TestTokenKindClasses(t *testing.T) {
	words := map[TokenKind]string{}
	for _, w := range []string{"and", "or", "not", "eq", "ne", "gt", "ge", "lt", "le", "true", "false"} {
		k, ok := keyword(w)
		if !ok {
			t.Fatalf("%q is not a keyword", w)
		}
		words[k] = w
	}
	for k := TokenError; k <= keywordsEnd+2; k++ {
		if sentinel(k) {
			continue
		}
		tok := Token{Kind: k}
		_, isWord := words[k]
		if tok.isKeyword() != isWord {
			t.Errorf("%v: isKeyword %v, a reserved word %v", k, tok.isKeyword(), isWord)
		}
		isOp := k == TokenEq || k == TokenNe || k == TokenGt || k == TokenGe || k == TokenLt || k == TokenLe
		if tok.isComparison() != isOp {
			t.Errorf("%v: isComparison %v", k, tok.isComparison())
		}
		if isWord && k.String() != words[k] {
			t.Errorf("%v is named %q, want %q", k, k.String(), words[k])
		}
	}
}

// sentinel reports whether k marks where a class of kinds begins or ends,
// rather than being a kind of token.
func sentinel(k TokenKind) bool {
	return k == keywordsBegin || k == keywordsEnd || k == comparisonsBegin || k == comparisonsEnd
}
