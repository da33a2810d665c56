package prompt

import (
	"strings"
	"testing"
)

// Readline's editing keys, each sent with the text around it in one read.
func TestEditingKeys(t *testing.T) {
	cases := []struct {
		name   string
		chunks []string
		want   string
	}{
		{"Alt-b twice", []string{"one two\x1bb\x1bbX\r"}, "Xone two"},
		{"Alt-f", []string{"one two\x01\x1bfX\r"}, "oneX two"},
		{"Alt-b over punctuation", []string{"--filter \"Age\x1bbX\r"}, "--filter \"XAge"},
		{"Ctrl-Left and Ctrl-Right", []string{"one two three\x1b[1;5D\x1b[1;5D\x1b[1;5CX\r"}, "one twoX three"},
		{"Ctrl-W kills back to a space", []string{"query --filter x\x17y\r"}, "query --filter y"},
		{"Ctrl-W twice, one kill, yanked", []string{"a b c\x17\x17\x19\r"}, "a b c"},
		{"Alt-d", []string{"one two\x01\x1bd\r"}, " two"},
		{"Alt-Backspace", []string{"one two-three\x1b\x7f\r"}, "one two-"},
		{"Ctrl-K and Ctrl-Y", []string{"abc def\x01\x1bf\x0b\x01\x19\r"}, " defabc"},
		{"Ctrl-U and Ctrl-Y", []string{"abc\x15x\x19\r"}, "xabc"},
		{"undo a kill", []string{"abc def\x17\x1f\r"}, "abc "[:4] + "def"},
		{"undo text typed key by key at once", []string{"a", "b", "c", "\x1f\r"}, ""},
		{"undo, undo", []string{"abc\x17", "d", "e", "f\x1f\x1f\r"}, "abc"},
		{"undo more than there was", []string{"ab\x1f\x1f\x1fc\r"}, "c"},
		{"a move ends text typed in a row", []string{"table ist\x1bbl\x01\x1bf\x1bfs\x1f\r"}, "table list"},
		{"undo a completion", []string{"q\t\x1f\r"}, "q"},
		{"undo a yank", []string{"ab\x17c\x19\x1f\r"}, "c"},
		{"UTF-8 words", []string{"Zoë Müller\x1bb\x1bd\r"}, "Zoë "},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			p, _, _ := newTestPrompt(t, words("query"), c.chunks)
			if got := readLine(t, p); got != c.want {
				t.Errorf("%q: got %q, want %q", c.chunks, got, c.want)
			}
		})
	}
}

// The kill ring outlives the line; the undo list does not.
func TestKillRingAcrossLines(t *testing.T) {
	p, _, _ := newTestPrompt(t, nil, []string{"keep this\x15\r", "\x19\x1f\x1f\r"})
	if got := readLine(t, p); got != "" {
		t.Fatalf("first line %q", got)
	}
	if got := readLine(t, p); got != "" {
		t.Errorf("second line: got %q, want the yank undone and nothing more", got)
	}
	p, _, _ = newTestPrompt(t, nil, []string{"keep this\x15\r", "\x19\r"})
	readLine(t, p)
	if got := readLine(t, p); got != "keep this" {
		t.Errorf("yank on the next line: %q", got)
	}
}

// With bracketed paste, the terminal is asked to mark pastes, and a Tab
// inside a paste is text; line ends in a paste still end lines. Without
// the marks a Tab completes.
func TestBracketedPaste(t *testing.T) {
	p, _, screen := newTestPrompt(t, words("query"), []string{"\x1b[200~insert '{\"Note\":\"a\tb\"}'\rq\tx\x1b[201~\r"}, OptionBracketedPaste())
	if got := readLine(t, p); got != "insert '{\"Note\":\"a\tb\"}'" {
		t.Errorf("first pasted line: %q", got)
	}
	if got := readLine(t, p); got != "q\tx" {
		t.Errorf("second pasted line: %q", got)
	}
	out := screen.out.String()
	if !strings.Contains(out, bracketedPasteOn) || !strings.Contains(out, bracketedPasteOff) {
		t.Errorf("the terminal was not asked for bracketed paste: %q", out)
	}
	if !strings.Contains(out, "a^Ib") {
		t.Errorf("the Tab is not shown as ^I: %q", out)
	}
	p, _, _ = newTestPrompt(t, words("query"), []string{"q\t x\r"}, OptionBracketedPaste())
	if got := readLine(t, p); got != "query x" {
		t.Errorf("a typed Tab: %q", got)
	}
}

// OptionCompletionSpace puts a space after a completion inserted at once,
// when it says so; what several completions begin with gets none.
func TestCompletionSpace(t *testing.T) {
	space := OptionCompletionSpace(func(line string) bool { return !strings.HasSuffix(line, "'") })
	cases := []struct{ in, want string }{
		{"q\tE\r", "query E"},
		{"d\t\r", "datetime'"},
		{"t\tx\r", "tax"}, // table, tail: their common start, no space
		{"q\t\x1b[D\x1b[D\x1b[C\x1b[C\r", "query "},
	}
	for _, c := range cases {
		p, _, _ := newTestPrompt(t, words("query", "datetime'", "table", "tail"), []string{c.in}, space)
		if got := readLine(t, p); got != c.want {
			t.Errorf("%q: got %q, want %q", c.in, got, c.want)
		}
	}
	p, _, _ := newTestPrompt(t, words("query"), []string{"q\tE\r"})
	if got := readLine(t, p); got != "queryE" {
		t.Errorf("without the option: %q", got)
	}
}

// Any keys, editing keys among them, in one read: the prompt never
// panics, and the cursor stays inside the line.
func FuzzEditingKeys(f *testing.F) {
	for _, s := range []string{"one two\x1bb\x1bd\x19\x1f", "a b c\x17\x17\x19\x1f\x1f", "\x1b[200~a\tb\x1b[201~", "x\x0b\x15\x19\x1b\x7f\x1bf\x1b[1;5D", "q\t\x1f\x1f\x1f"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, keys string) {
		p, term, _ := newTestPrompt(t, words("query", "table", "tail"), []string{keys + "\r"}, OptionBracketedPaste(), OptionCompletionSpace(func(string) bool { return true }))
		for i := 0; i < 1000 && (len(term.chunks) > 0 || len(p.keys.pending) > 0); i++ {
			if _, err := p.ReadLine(); err != nil {
				return
			}
			if n := len([]rune(p.buf.Text())); p.buf.cursorPosition < 0 || p.buf.cursorPosition > n {
				t.Fatalf("cursor %d in a line of %d", p.buf.cursorPosition, n)
			}
		}
	})
}
