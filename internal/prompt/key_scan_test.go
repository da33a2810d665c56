package prompt

import (
	"bufio"
	"bytes"
	"reflect"
	"testing"
)

// scanAll splits data into events as a reader would: with atEOF, to the
// end; without, up to what may still be the start of a longer event.
func scanAll(t testing.TB, data []byte, atEOF bool) (events []string, rest []byte) {
	t.Helper()
	for len(data) > 0 {
		n, tok, err := ScanKeys(data, atEOF)
		if err != nil {
			t.Fatalf("ScanKeys(%q): %v", data, err)
		}
		if n == 0 {
			if atEOF {
				t.Fatalf("ScanKeys(%q, atEOF) asked for more data", data)
			}
			break
		}
		if n != len(tok) || n > len(data) {
			t.Fatalf("ScanKeys(%q) = %d, %q", data, n, tok)
		}
		events = append(events, string(tok))
		data = data[n:]
	}
	return events, data
}

func TestScanKeys(t *testing.T) {
	cases := []struct {
		name string
		in   string
		want []string
	}{
		{"text then Tab", "ta\t", []string{"ta", "\t"}},
		{"a literal in a filter then Tab", `query T --filter "Name eq 'Sa` + "\t", []string{`query T --filter "Name eq 'Sa`, "\t"}},
		{"Left Left", "\x1b[D\x1b[D", []string{"\x1b[D", "\x1b[D"}},
		{"Ctrl-U Ctrl-L", "\x15\x0c", []string{"\x15", "\x0c"}},
		{"Ctrl-R and a search", "\x12quer", []string{"\x12", "quer"}},
		{"a pasted block, CR line ends", "get T a 1\rget T a 2\r", []string{"get T a 1", "\r", "get T a 2", "\r"}},
		{"a pasted block, LF line ends", "one\ntwo\n", []string{"one", "\n", "two", "\n"}},
		{"CR LF is two keys", "x\r\n", []string{"x", "\r", "\n"}},
		{"Backspace and NUL", "ab\x7f\x00", []string{"ab", "\x7f", "\x00"}},
		{"arrows and text", "lst\x1b[D\x1b[Di\x1b[C\x1b[C\r", []string{"lst", "\x1b[D", "\x1b[D", "i", "\x1b[C", "\x1b[C", "\r"}},
		{"Ctrl-Right with parameters", "\x1b[1;5Cw", []string{"\x1b[1;5C", "w"}},
		{"Delete and PageUp", "\x1b[3~\x1b[5~", []string{"\x1b[3~", "\x1b[5~"}},
		{"F5 and F12", "\x1b[15~\x1b[24~", []string{"\x1b[15~", "\x1b[24~"}},
		{"SS3: F1 and application Up", "\x1bOP\x1bOA", []string{"\x1bOP", "\x1bOA"}},
		{"SS3 with a modifier", "\x1bO2Q", []string{"\x1bO2Q"}},
		{"Linux console F1", "\x1b[[Ax", []string{"\x1b[[A", "x"}},
		{"Shift-Tab", "\x1b[Z", []string{"\x1b[Z"}},
		{"bracketed paste markers", "\x1b[200~a b\x1b[201~", []string{"\x1b[200~", "a b", "\x1b[201~"}},
		{"SGR mouse report", "\x1b[<0;12;5M", []string{"\x1b[<0;12;5M"}},
		{"intermediate byte", "\x1b[2 q", []string{"\x1b[2 q"}},
		{"Alt-b Alt-f", "\x1bb\x1bf", []string{"\x1bb", "\x1bf"}},
		{"Alt-Backspace", "\x1b\x7f", []string{"\x1b\x7f"}},
		{"Alt-[ at the end", "\x1b[", []string{"\x1b["}},
		{"Escape then Enter", "\x1b\r", []string{"\x1b", "\r"}},
		{"Escape then an arrow", "\x1b\x1b[A", []string{"\x1b", "\x1b[A"}},
		{"Escape at the end", "abc\x1b", []string{"abc", "\x1b"}},
		{"Escape then UTF-8", "\x1bé", []string{"\x1b", "é"}},
		{"a control character ends a sequence", "\x1b[1\x15x", []string{"\x1b[1", "\x15", "x"}},
		{"a sequence cut off at the end", "\x1b[1;", []string{"\x1b[1;"}},
		{"UTF-8 text", "日本語 ü\t", []string{"日本語 ü", "\t"}},
		{"invalid UTF-8 stays text", "a\xffb", []string{"a\xffb"}},
		{"a UTF-8 character cut off at the end", "ab\xe6\x97", []string{"ab\xe6\x97"}},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			got, _ := scanAll(t, []byte(c.in), true)
			if !reflect.DeepEqual(got, c.want) {
				t.Errorf("ScanKeys(%q)\n got %q\nwant %q", c.in, got, c.want)
			}
		})
	}
}

// Without atEOF, what may be the start of a longer event waits for more.
func TestScanKeysWaitsForTheRest(t *testing.T) {
	cases := []struct {
		in   string
		want []string
		rest string
	}{
		{"\x1b", nil, "\x1b"},
		{"ab\x1b", []string{"ab"}, "\x1b"},
		{"\x1b[", nil, "\x1b["},
		{"\x1b[1;5", nil, "\x1b[1;5"},
		{"\x1bO", nil, "\x1bO"},
		{"\x1b[[", nil, "\x1b[["},
		{"ab\xe6\x97", []string{"ab"}, "\xe6\x97"},
		{"\xe6\x97", nil, "\xe6\x97"},
		{"\x1b[D\x1b", []string{"\x1b[D"}, "\x1b"},
		{"done\r", []string{"done", "\r"}, ""},
	}
	for _, c := range cases {
		got, rest := scanAll(t, []byte(c.in), false)
		if !reflect.DeepEqual(got, c.want) || string(rest) != c.rest {
			t.Errorf("ScanKeys(%q) without atEOF = %q, rest %q; want %q, rest %q", c.in, got, rest, c.want, c.rest)
		}
		// The rest of the data completes it.
		full := c.in + "x"
		if got, rest := scanAll(t, []byte(full), false); len(rest) != 0 || len(got) == 0 {
			t.Errorf("ScanKeys(%q) = %q, rest %q", full, got, rest)
		}
	}
}

// ScanKeys is a bufio.SplitFunc.
func TestScanKeysWithScanner(t *testing.T) {
	sc := bufio.NewScanner(bytes.NewReader([]byte("ta\t\x1b[Dx\x1b")))
	sc.Split(ScanKeys)
	var got []string
	for sc.Scan() {
		got = append(got, sc.Text())
	}
	if want := []string{"ta", "\t", "\x1b[D", "x", "\x1b"}; !reflect.DeepEqual(got, want) {
		t.Errorf("got %q, want %q", got, want)
	}
}

// checkEvents checks what every split must give: events that make up the
// input, each of them one key: text without control characters or ESC, one
// control character, or a sequence starting with ESC.
func checkEvents(t *testing.T, data []byte, events []string, rest []byte) {
	t.Helper()
	var joined []byte
	for _, e := range events {
		if e == "" {
			t.Fatalf("an empty event in %q", events)
		}
		switch {
		case e[0] == 0x1b:
		case isControl(e[0]):
			if len(e) != 1 {
				t.Fatalf("event %q: a control character with more after it", e)
			}
		default:
			if i := bytes.IndexFunc([]byte(e), func(r rune) bool { return r == 0x1b || r < 0x20 || r == 0x7f }); i >= 0 {
				t.Fatalf("text event %q holds a control character", e)
			}
		}
		joined = append(joined, e...)
	}
	joined = append(joined, rest...)
	if !bytes.Equal(joined, data) {
		t.Fatalf("events %q and rest %q do not make up the input %q", events, rest, data)
	}
}

func FuzzScanKeys(f *testing.F) {
	for _, s := range []string{
		"ta\t", "\x1b[D\x1b[D\x15\x0c\x12", "a\rb\rc\r", "\x1b[200~x\x1b[201~", "\x1bOP\x1b[[A",
		"\x1b", "\x1b[1;", "日本\xe6\x97", "\x1b\x1b[A\x1bb\x1b\x7f", "\x1b[<0;1;1M\x00\xff",
	} {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		events, rest := scanAll(t, data, true)
		if len(rest) != 0 {
			t.Fatalf("atEOF left %q", rest)
		}
		checkEvents(t, data, events, rest)

		events, rest = scanAll(t, data, false)
		checkEvents(t, data, events, rest)
		if len(rest) > 0 {
			// What is left is a single unfinished event.
			if more, _ := scanAll(t, rest, true); len(more) != 1 {
				t.Fatalf("the rest %q is %d events", rest, len(more))
			}
		}
	})
}
