package completions

import (
	"reflect"
	"strings"
	"testing"

	"github.com/google/shlex"
)

func TestSplitWordsWithAndWithoutEscapes(t *testing.T) {
	cases := []struct {
		line         string
		posix, plain []string
	}{
		{`import T C:\data\rows.jsonl`, []string{"import", "T", `C:datarows.jsonl`}, []string{"import", "T", `C:\data\rows.jsonl`}},
		{`--db "C:\Users\ana\My Data\t.db"`, []string{"--db", `C:UsersanaMy Datat.db`}, []string{"--db", `C:\Users\ana\My Data\t.db`}},
		{`check \\server\share\t.db`, []string{"check", `\serversharet.db`}, []string{"check", `\\server\share\t.db`}},
		{`get 'a\b' c`, []string{"get", `a\b`, "c"}, []string{"get", `a\b`, "c"}},
		{`get a\ b`, []string{"get", "a b"}, []string{"get", `a\`, "b"}},
		{`insert T '{"Name":"say \"hi\""}'`, []string{"insert", "T", `{"Name":"say \"hi\""}`}, []string{"insert", "T", `{"Name":"say \"hi\""}`}},
		{`query T --filter "Name eq 'x'" # a comment`, []string{"query", "T", "--filter", "Name eq 'x'"}, []string{"query", "T", "--filter", "Name eq 'x'"}},
		{`get T "" a#b`, []string{"get", "T", "", "a#b"}, []string{"get", "T", "", "a#b"}},
	}
	for _, c := range cases {
		for _, mode := range []struct {
			escapes bool
			want    []string
		}{{true, c.posix}, {false, c.plain}} {
			p := splitWords(c.line, mode.escapes, true)
			got := p.words
			if p.begun {
				got = append(got, p.current)
			}
			if !reflect.DeepEqual(got, mode.want) {
				t.Errorf("splitWords(%q, escapes %v) = %q, want %q", c.line, mode.escapes, got, mode.want)
			}
		}
	}
}

// With escapes, SplitLine splits as the POSIX quoting the shell has
// always used (github.com/google/shlex).
func TestSplitLineAsShlex(t *testing.T) {
	if !BackslashEscapes {
		t.Skip("a backslash is an ordinary character on this system")
	}
	for _, line := range []string{
		`query Employees --filter "LastName eq 'Jones'" --select FirstName`,
		`insert T '{"PartitionKey":"a","RowKey":"b"}'`,
		`get a\ b "c\"d" 'e\f' ""`,
		`x #comment`, `  spaced   out  `, `a"b"c`,
	} {
		want, err := shlex.Split(line)
		got, err2 := SplitLine(line)
		if err != nil || err2 != nil || strings.Join(got, "|") != strings.Join(want, "|") || len(got) != len(want) {
			t.Errorf("SplitLine(%q) = %q, %v; shlex: %q, %v", line, got, err2, want, err)
		}
	}
}

func TestSplitLineRefusesAnOpenQuote(t *testing.T) {
	for _, line := range []string{`get "a`, `get 'a`} {
		if _, err := SplitLine(line); err == nil || !strings.Contains(err.Error(), "not closed") {
			t.Errorf("SplitLine(%q): %v", line, err)
		}
	}
}

func FuzzSplitLine(f *testing.F) {
	f.Add(`query T --filter "A eq 'x y'" 'z\w' C:\a\b # c`)
	f.Fuzz(func(t *testing.T, line string) {
		for _, escapes := range []bool{true, false} {
			p := splitWords(line, escapes, true)
			for _, w := range p.words {
				if !escapes && strings.Count(w, `\`) > strings.Count(line, `\`) {
					t.Fatalf("%q: a word has more backslashes than the line", line)
				}
			}
			if len(p.words) > len(line) {
				t.Fatalf("%q: %d words", line, len(p.words))
			}
			if want := splitWordsRuneByRune(line, escapes, true); !reflect.DeepEqual(p, want) {
				t.Fatalf("%q: %#v; built rune by rune, %#v", line, p, want)
			}
		}
	})
}

// splitWordsRuneByRune is splitWords as it was written first, every word
// built rune by rune: splitWords, which cuts plain words out of the line,
// must split every line as it does.
func splitWordsRuneByRune(line string, escapes, comments bool) partialLine {
	var (
		p      partialLine
		cur    strings.Builder
		inWord bool
	)
	for _, r := range line {
		switch {
		case p.escaped:
			cur.WriteRune(r)
			p.escaped = false
		case p.quote == '\'':
			if r == '\'' {
				p.quote = 0
			} else {
				cur.WriteRune(r)
			}
		case p.quote == '"':
			switch {
			case r == '"':
				p.quote = 0
			case r == '\\' && escapes:
				p.escaped = true
			default:
				cur.WriteRune(r)
			}
		case r == '\\' && escapes:
			p.escaped, inWord = true, true
		case r == '\'' || r == '"':
			p.quote, inWord = r, true
		case r == ' ' || r == '\t':
			if inWord {
				p.words = append(p.words, cur.String())
				cur.Reset()
				inWord = false
			}
		case r == '#' && comments && !inWord:
			p.current = ""
			return p
		default:
			cur.WriteRune(r)
			inWord = true
		}
	}
	p.current, p.begun = cur.String(), inWord
	return p
}
