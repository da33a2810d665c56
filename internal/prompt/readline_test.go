package prompt

import (
	"bytes"
	"io"
	"regexp"
	"strings"
	"testing"
)

// fakeTerminal is a ConsoleParser that hands out the chunks a terminal
// would deliver, one per Read; "" is a Read that finds nothing.
type fakeTerminal struct {
	t      *testing.T
	chunks []string
	reads  int // Reads that returned bytes
	idle   int // Reads after the last chunk
}

func (f *fakeTerminal) Setup() error         { return nil }
func (f *fakeTerminal) TearDown() error      { return nil }
func (f *fakeTerminal) GetWinSize() *WinSize { return &WinSize{Row: 40, Col: 120} }

func (f *fakeTerminal) Read() ([]byte, error) {
	if len(f.chunks) == 0 {
		f.idle++
		if f.idle > 200 { // two seconds of 10 ms polls
			f.t.Fatal("the prompt waits for input the test did not send")
		}
		return nil, nil
	}
	c := f.chunks[0]
	f.chunks = f.chunks[1:]
	if c != "" {
		f.reads++
	}
	return []byte(c), nil
}

// screenWriter keeps what the prompt writes.
type screenWriter struct {
	VT100Writer
	out bytes.Buffer
}

func (w *screenWriter) Flush() error {
	w.out.Write(w.buffer)
	w.buffer = w.buffer[:0]
	return nil
}

// words completes the word before the cursor from a list, and offers the
// whole list on an empty line only after Tab.
func words(list ...string) Completer {
	return func(d Document) []Suggest {
		w := d.GetWordBeforeCursor()
		if d.TextBeforeCursor() == "" && d.LastKeyStroke() != Tab {
			return nil
		}
		var out []Suggest
		for _, x := range list {
			if strings.HasPrefix(x, w) {
				out = append(out, Suggest{Text: x})
			}
		}
		return out
	}
}

func newTestPrompt(t *testing.T, completer Completer, chunks []string, opts ...Option) (*Prompt, *fakeTerminal, *screenWriter) {
	t.Helper()
	term := &fakeTerminal{t: t, chunks: chunks}
	w := &screenWriter{}
	if completer == nil {
		completer = func(Document) []Suggest { return nil }
	}
	opts = append([]Option{OptionParser(term), OptionWriter(w), OptionPrefix("> ")}, opts...)
	return New(func(string) {}, completer, opts...), term, w
}

func readLine(t *testing.T, p *Prompt) string {
	t.Helper()
	line, err := p.ReadLine()
	if err != nil {
		t.Fatalf("ReadLine: %v", err)
	}
	return line
}

// A pasted block arrives in one read; each call returns the next line, and
// the rest stays queued: nothing is read ahead, nothing is lost.
func TestReadLinePastedBlock(t *testing.T) {
	var block strings.Builder
	var want []string
	for i := 0; i < 20; i++ {
		line := "insert T " + strings.Repeat("x", i)
		want = append(want, line)
		block.WriteString(line + "\r")
	}
	p, term, _ := newTestPrompt(t, words("insert"), []string{block.String()})
	for i, w := range want {
		if got := readLine(t, p); got != w {
			t.Fatalf("line %d: got %q, want %q", i+1, got, w)
		}
		if term.reads != 1 {
			t.Fatalf("line %d: %d reads, want the one that brought the block", i+1, term.reads)
		}
	}
	if got := p.history.histories; len(got) != 20 || got[19] != want[19] {
		t.Errorf("history %q", got)
	}
}

// The prompt reads only when the line needs more keys.
func TestReadLineReadsOnlyWhatItNeeds(t *testing.T) {
	p, term, _ := newTestPrompt(t, nil, []string{"first\r", "second\r"})
	if got := readLine(t, p); got != "first" || term.reads != 1 {
		t.Fatalf("got %q after %d reads, want \"first\" after 1", got, term.reads)
	}
	if got := readLine(t, p); got != "second" || term.reads != 2 {
		t.Fatalf("got %q after %d reads, want \"second\" after 2", got, term.reads)
	}
}

// Keys that arrive in one read are keys, never text.
func TestReadLineKeysInOneRead(t *testing.T) {
	cases := []struct {
		name, in, want string
	}{
		{"text then Tab completes", "ta\t\r", "table"},
		{"Left Left then text", "lst\x1b[D\x1b[Di\r", "list"},
		{"Home, text, End", "able list\x1b[Ht\x1b[F!\r", "table list!"},
		{"Ctrl-A and Ctrl-E", "able\x01t\x05s\r", "tables"},
		{"Ctrl-U then Ctrl-L", "junk\x15\x0cok\r", "ok"},
		{"Backspace", "oks\x7f\r", "ok"},
		{"unknown sequences are not text", "a\x1b[15~b\x1bxc\x1b[200~d\x1b[201~\x1bOP\r", "abcd"},
		{"control characters without a binding are not text", "a\x0fb\x1cc\x00\r", "abc"},
		{"Ctrl-C clears the line", "get NotRun\x03ok\r", "ok"},
		{"Enter as LF", "ok\n", "ok"},
		{"UTF-8 text", "Name eq 'Zoë'\r", "Name eq 'Zoë'"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			p, _, _ := newTestPrompt(t, words("table", "query"), []string{c.in})
			if got := readLine(t, p); got != c.want {
				t.Errorf("%q: got %q, want %q", c.in, got, c.want)
			}
		})
	}
}

// An ESC with nothing after it is the Escape key once it has waited for
// the rest of a sequence; it is never text.
func TestReadLineLoneEscape(t *testing.T) {
	chunks := []string{"ab\x1b"}
	for i := 0; i < 10; i++ {
		chunks = append(chunks, "")
	}
	chunks = append(chunks, "c\r")
	p, _, _ := newTestPrompt(t, nil, chunks)
	if got := readLine(t, p); got != "abc" {
		t.Errorf("got %q, want \"abc\"", got)
	}
}

// A sequence split between two reads is one key.
func TestReadLineSequenceAcrossReads(t *testing.T) {
	p, _, _ := newTestPrompt(t, nil, []string{"ac\x1b[", "Db\r"})
	if got := readLine(t, p); got != "abc" {
		t.Errorf("got %q, want \"abc\"", got)
	}
}

// Ctrl-D on an empty line is io.EOF; Enter on an empty line is "".
func TestReadLineCtrlD(t *testing.T) {
	p, _, _ := newTestPrompt(t, nil, []string{"\r\x04"})
	if line, err := p.ReadLine(); line != "" || err != nil {
		t.Fatalf("Enter: %q, %v", line, err)
	}
	if line, err := p.ReadLine(); line != "" || err != io.EOF {
		t.Fatalf("Ctrl-D: %q, %v; want io.EOF", line, err)
	}
}

// DiscardInput drops the rest of a pasted block.
func TestDiscardInput(t *testing.T) {
	p, term, _ := newTestPrompt(t, nil, []string{"one\rtwo\rthree\r", "four\r"})
	readLine(t, p)
	p.DiscardInput()
	if got := readLine(t, p); got != "four" || term.reads != 2 {
		t.Errorf("got %q after %d reads, want \"four\" after 2", got, term.reads)
	}
}

func TestTab(t *testing.T) {
	cases := []struct {
		name, in, want string
	}{
		{"a single match is inserted at once", "q\t\r", "query"},
		{"several: the first Tab inserts what they begin with", "t\t\r", "ta"},
		{"several: the second Tab selects the first", "t\t\t\r", "table"},
		{"several: the third Tab the next", "t\t\t\t\r", "tail"},
		{"on an empty line: the second Tab selects the first command", "\t\t\r", "table"},
		{"no match: nothing", "x\t\r", "x"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			p, _, _ := newTestPrompt(t, words("table", "tail", "query"), []string{c.in})
			if got := readLine(t, p); got != c.want {
				t.Errorf("%q: got %q, want %q", c.in, got, c.want)
			}
		})
	}
}

// A placeholder (the form of a literal, such as 0) is shown by Tab, never
// inserted by it alone, nor is what placeholders begin with; a second
// Tab selects it.
func TestTabShowsAPlaceholder(t *testing.T) {
	placeholders := func(texts ...string) Completer {
		return func(d Document) []Suggest {
			if !strings.HasSuffix(d.TextBeforeCursor(), "gt ") {
				return nil
			}
			var out []Suggest
			for _, x := range texts {
				out = append(out, Suggest{Text: x, Description: "a number", Placeholder: true})
			}
			return out
		}
	}
	cases := []struct {
		name, in, want string
		texts          []string
	}{
		{"one placeholder: Tab shows it", "Age gt \t\r", "Age gt ", []string{"0"}},
		{"one placeholder: the second Tab selects it", "Age gt \t\t\r", "Age gt 0", []string{"0"}},
		{"placeholders: what they begin with is not inserted", "Age gt \t\r", "Age gt ", []string{"10", "12"}},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			p, _, w := newTestPrompt(t, placeholders(c.texts...), []string{c.in})
			if got := readLine(t, p); got != c.want {
				t.Errorf("%q: got %q, want %q", c.in, got, c.want)
			}
			if !strings.Contains(w.out.String(), "a number") {
				t.Errorf("%q: the placeholder was not shown: %q", c.in, w.out.String())
			}
		})
	}
}

// Tab on an empty line lists the commands, without choosing one.
func TestTabOnEmptyLineShowsTheList(t *testing.T) {
	p, _, w := newTestPrompt(t, words("table", "tail", "query"), []string{"\t", "\r"})
	readLine(t, p)
	out := w.out.String()
	first := strings.Index(out, "\t") // nothing is ever written as a TAB
	if first >= 0 {
		t.Errorf("a TAB was written: %q", out)
	}
	// The render after the Tab, before Enter, shows all three.
	renders := strings.Split(out, "\x1b[?25l")
	if len(renders) < 3 {
		t.Fatalf("renders: %q", renders)
	}
	shown := renders[2]
	for _, s := range []string{"table", "tail", "query"} {
		if !strings.Contains(shown, s) {
			t.Errorf("%q is not listed after Tab: %q", s, shown)
		}
	}
	if strings.Contains(renders[1], "table") {
		t.Errorf("the empty prompt listed suggestions before Tab: %q", renders[1])
	}
}

// sgr matches the parameters of every Select Graphic Rendition sequence.
var sgr = regexp.MustCompile(`\x1b\[([0-9;]*)m`)

func TestHistorySearch(t *testing.T) {
	history := []string{"table list", "query Employees --filter x", "get Employees a 1", "query Logs", "query Logs"}
	cases := []struct {
		name string
		in   []string // what each read brings
		want []string // the lines read
	}{
		{"the newest match", []string{"\x12quer\r"}, []string{"query Logs"}},
		{"Ctrl-R again: the next older, different match", []string{"\x12quer\x12\r"}, []string{"query Employees --filter x"}},
		{"typing narrows from the match shown", []string{"\x12Emp", "loyees --", "\r"}, []string{"query Employees --filter x"}},
		{"Backspace widens from the newest", []string{"\x12quex\x7f\r"}, []string{"query Logs"}},
		{"Ctrl-G puts the line back", []string{"typed\x12quer\x07\r"}, []string{"typed"}},
		{"another key accepts and acts", []string{"\x12get\x05 2\r"}, []string{"get Employees a 1 2"}},
		{"the cursor is at the match", []string{"\x12Employees a\x0b\r"}, []string{"get "}},
		{"no older match keeps the line", []string{"\x12table\x12\r"}, []string{"table list"}},
		{"Ctrl-R Ctrl-R repeats the last search", []string{"\x12Emp\rnew\r\x12\x12\x12\r"}, []string{"get Employees a 1", "new", "query Employees --filter x"}},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			p, _, _ := newTestPrompt(t, nil, c.in, OptionHistory(append([]string(nil), history...)))
			for i, want := range c.want {
				if got := readLine(t, p); got != want {
					t.Errorf("%q: line %d is %q, want %q", c.in, i+1, got, want)
				}
			}
		})
	}
}

// Escape cancels a search once it has waited for the rest of a sequence.
func TestHistorySearchEscape(t *testing.T) {
	chunks := []string{"typed\x12quer\x1b"}
	for i := 0; i < 10; i++ {
		chunks = append(chunks, "")
	}
	chunks = append(chunks, "\r")
	p, _, _ := newTestPrompt(t, nil, chunks, OptionHistory([]string{"query Logs"}))
	if got := readLine(t, p); got != "typed" {
		t.Errorf("got %q, want \"typed\"", got)
	}
}

// What the search shows: its own prompt, the match, and no suggestions.
func TestHistorySearchScreen(t *testing.T) {
	menu := func(d Document) []Suggest { // a menu whenever there is text
		if d.Text == "" {
			return nil
		}
		return []Suggest{{Text: "query", Description: "MENU"}}
	}
	p, term, w := newTestPrompt(t, menu, nil, OptionHistory([]string{"query Employees", "query Logs"}))
	term.chunks = []string{"\x12quer", "\x12", "\x12zz", "\r"}
	readLine(t, p)
	renders := strings.Split(w.out.String(), "\x1b[?25l")
	want := []string{
		"(reverse-i-search)`quer': query Logs",
		"(reverse-i-search)`quer': query Employees",
		"(failed reverse-i-search)`querzz': query Employees",
	}
	all := strings.Join(renders, "")
	plain := sgr.ReplaceAllString(all, "")
	for _, s := range want {
		if !strings.Contains(plain, s) {
			t.Errorf("the screen never showed %q:\n%q", s, plain)
		}
	}
	if strings.Contains(plain, "MENU") {
		t.Errorf("suggestions were shown during the search:\n%q", plain)
	}
	if !strings.Contains(plain, "> query Employees\n") {
		t.Errorf("the accepted line is not shown after the prompt:\n%q", plain)
	}
}

func TestNoColor(t *testing.T) {
	keys := []string{"t", "\t", "\t", "\r"} // the menu, then a selected suggestion
	p, _, w := newTestPrompt(t, words("table", "tail"), keys, OptionNoColor(), OptionPrefixTextColor(Cyan))
	readLine(t, p)
	reverse := false
	for _, m := range sgr.FindAllStringSubmatch(w.out.String(), -1) {
		switch m[1] {
		case "0":
		case "0;7":
			reverse = true
		default:
			t.Errorf("a colour was written: %q", m[0])
		}
	}
	if !reverse {
		t.Error("the selected suggestion is not in reverse video")
	}

	// Colours by default.
	p, _, w = newTestPrompt(t, words("table", "tail"), []string{"t", "\t", "\t", "\r"}, OptionPrefixTextColor(Cyan))
	readLine(t, p)
	if !strings.Contains(w.out.String(), "\x1b[0;36;49m") {
		t.Errorf("no cyan prefix without OptionNoColor: %q", w.out.String())
	}
}

// With OptionInterruptReturns, Ctrl-C makes ReadLine return ErrInterrupted;
// with OptionManualHistory the lines read are not in the history until
// AddHistory puts them there.
func TestReadLineInterruptAndManualHistory(t *testing.T) {
	p, _, _ := newTestPrompt(t, nil, []string{"half\x03whole\r"}, OptionInterruptReturns(), OptionManualHistory())
	if line, err := p.ReadLine(); line != "" || err != ErrInterrupted {
		t.Fatalf("Ctrl-C: %q, %v", line, err)
	}
	if got := readLine(t, p); got != "whole" {
		t.Fatalf("after Ctrl-C: %q", got)
	}
	if len(p.history.histories) != 0 {
		t.Errorf("history %q, want none", p.history.histories)
	}
	p.AddHistory("a command\nover two lines")
	if got := p.history.histories; len(got) != 1 {
		t.Errorf("history %q", got)
	}
}
