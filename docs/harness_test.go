package docs

import (
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"testing"
	"time"
)

// What a terminal shows: a progress bar overwritten by the line that
// replaces it, an erased line, colours dropped.
func TestScreen(t *testing.T) {
	for _, c := range []struct {
		raw  string
		want []string
	}{
		{"a\r\nb\r\n", []string{"a", "b"}},
		{"\r| loading 10% \r              \rloaded 5 entities\r\n", []string{"loaded 5 entities"}},
		{"abcdef\rxy\x1b[K\n", []string{"xy"}},
		{"\x1b[1;32mok\x1b[0m\n", []string{"ok"}},
		{"\x1b]2;title\x07text", []string{"text"}},
		{"tab\there  \n", []string{"tab\there"}},
	} {
		if got := screen(c.raw); !slices.Equal(got, c.want) {
			t.Errorf("screen(%q) = %q, want %q", c.raw, got, c.want)
		}
	}
}

// The output a document shows matches the run line for line; "..."
// stands for any lines; what changes between runs is masked alike.
func TestMatches(t *testing.T) {
	got := []string{"a", "b", "c"}
	for _, c := range []struct {
		want []string
		ok   bool
	}{
		{[]string{"a", "b", "c"}, true},
		{[]string{"a", "b"}, false},
		{[]string{"a", "x", "c"}, false},
		{[]string{"a", "..."}, true},
		{[]string{"...", "c"}, true},
		{[]string{"a", "...", "b", "c"}, true},
		{[]string{"...", "d"}, false},
	} {
		if matches(c.want, got) != c.ok {
			t.Errorf("matches(%q, %q) = %v", c.want, got, !c.ok)
		}
	}
	doc := normalize([]string{`imported 4 entities into People in 0.0s (1659 entities/s)`, `odata.etag | W/"datetime'2025-06-01T10%3A00%3A00.1234567Z'"`, `at http://127.0.0.1:41113/x`})
	now := strings.ReplaceAll(time.Now().UTC().Format("2006-01-02T15:04:05.0000000Z"), ":", "%3A")
	run := normalize([]string{`imported 4 entities into People in 0.1s (2100 entities/s)`, `odata.etag | W/"datetime'` + now + `'"`, `at http://127.0.0.1:40007/x`})
	if !slices.Equal(doc, run) {
		t.Errorf("masked differently:\n%q\n%q", doc, run)
	}
	if !slices.Equal(normalize([]string{"tstable devel 1a2b3c4d5e6f+dirty (2026-11-23)"}), normalize([]string{"tstable devel"})) {
		t.Error("a build's commit is not masked")
	}
	if slices.Equal(normalize([]string{"HireDate | 2023-06-16T09:00:00.0000000Z"}), normalize([]string{"HireDate | 2023-06-16T09:00:01.0000000Z"})) {
		t.Error("a stored DateTime is masked")
	}
	if slices.Equal(normalize([]string{"imported 4 entities"}), normalize([]string{"imported 5 entities"})) {
		t.Error("a count is masked")
	}
	if !hasPrefix([]string{"serving x"}, []string{"serving x", "(Ctrl-C to stop)"}) || hasPrefix([]string{"serving y"}, []string{"serving x"}) {
		t.Error("hasPrefix")
	}
}

// A transcript's commands, their output and exit status; a script's
// lines; a line ending in & runs in the background.
func TestShSteps(t *testing.T) {
	steps := shSteps(block{line: 10, lines: []string{
		"$ tstable get People Sales 99999   # exit 1",
		"error: ResourceNotFound: …",
		"$ tstable serve --addr 127.0.0.1:0 &",
		"serving …",
		"$ tstable query People \\",
		"    --top 1",
	}})
	if len(steps) != 3 {
		t.Fatalf("%d steps: %+v", len(steps), steps)
	}
	if s := steps[0]; s.exit != 1 || !s.check || !slices.Equal(s.want, []string{"error: ResourceNotFound: …"}) || s.line != 11 {
		t.Errorf("first step %+v", s)
	}
	if s := steps[1]; !s.background || s.command != "tstable serve --addr 127.0.0.1:0" {
		t.Errorf("second step %+v", s)
	}
	if s := steps[2]; s.command != "tstable query People \\\n    --top 1" || len(s.want) != 0 || s.exit != 0 {
		t.Errorf("third step %+v", s)
	}
	script := shSteps(block{lines: []string{"# a comment", "tstable table list", "", "tstable lint T   # exit 1 when there are warnings"}})
	if len(script) != 2 || script[0].check || script[1].exit != 1 {
		t.Errorf("script steps %+v", script)
	}
}

// Summaries of commands split into alternatives; shell sessions into what
// is typed and what is shown.
func TestSynopsisAndShellLines(t *testing.T) {
	b := block{lang: "text", lines: []string{"tstable get TABLE PK RK   # one entity", "tstable query TABLE [--filter F]", "                      [--all]", "tstable check | recover A B"}}
	if !isSynopsis(b) {
		t.Fatal("not a synopsis")
	}
	want := [][]string{{"tstable get TABLE PK RK"}, {"tstable query TABLE [--filter F] [--all]"}, {"tstable check", "recover A B"}}
	if got := synopsisLines(b); !slices.EqualFunc(got, want, slices.Equal[[]string]) {
		t.Errorf("synopsis %q", got)
	}
	typed, shown := shellLines(block{lang: "text", lines: []string{"tstable> use T", "tstable:T> get a b", "PartitionKey | a", "tstable[served t.db]:T> next"}})
	if !slices.Equal(typed, []string{"use T", "get a b", "next"}) || !slices.Equal(shown, []string{"PartitionKey | a"}) {
		t.Errorf("typed %q, shown %q", typed, shown)
	}
}

// GitHub's names for headings, as links to sections use them.
func TestSlug(t *testing.T) {
	for heading, want := range map[string]string{
		"Build, run, test":                            "build-run-test",
		"The `$filter` language":                      "the-filter-language",
		"What a query reads: its class":               "what-a-query-reads-its-class",
		"Microsoft Entra ID tokens (`--oauth basic`)": "microsoft-entra-id-tokens---oauth-basic",
	} {
		if got := slug(heading); got != want {
			t.Errorf("slug(%q) = %q, want %q", heading, got, want)
		}
	}
}

var indentedRE = regexp.MustCompile(`^(    |\t)\S`)

// Examples are fenced, so that the tests find them: an indented code
// block (after a blank line, outside a list) is refused.
func TestExamplesAreFenced(t *testing.T) {
	files, err := markdownFiles()
	if err != nil {
		t.Fatal(err)
	}
	for _, f := range files {
		src, err := os.ReadFile(filepath.Join("..", f))
		if err != nil {
			t.Fatal(err)
		}
		lines := strings.Split(withoutFences(string(src)), "\n")
		prev := ""
		for i := 1; i < len(lines); i++ {
			if strings.TrimSpace(lines[i-1]) != "" {
				prev = lines[i-1]
				continue
			}
			inList := strings.HasPrefix(prev, "- ") || strings.HasPrefix(prev, "  ") || regexp.MustCompile(`^\d+\. `).MatchString(prev)
			if indentedRE.MatchString(lines[i]) && !inList {
				t.Errorf("%s: an indented code block (%q): fence it (```sh) so that it is run", f, lines[i])
			}
		}
	}
}

// The screen never fails on what a program writes, escape sequences cut
// short included.
func FuzzScreen(f *testing.F) {
	f.Add("\r| loading \x1b[K\rdone\n")
	f.Add("\x1b[")
	f.Add("\x1b]2;t")
	f.Fuzz(func(t *testing.T, raw string) {
		for _, l := range screen(raw) {
			if strings.ContainsAny(l, "\r\n") {
				t.Fatalf("a line holds a line break: %q", l)
			}
		}
	})
}
