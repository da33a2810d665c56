package main

import (
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"testing"

	"github.com/spf13/cobra"
)

// committed is the reference in the repository.
const committed = "../../docs/reference"

// The committed reference is what the command tree gives: a command, a
// flag or a help text changed without `make docs` fails here.
func TestReferenceIsUpToDate(t *testing.T) {
	fresh := t.TempDir()
	if err := writeMarkdown(fresh); err != nil {
		t.Fatal(err)
	}
	want, got := pages(t, fresh), pages(t, committed)
	if !slices.Equal(want, got) {
		t.Fatalf("docs/reference/ holds %v; the command tree gives %v: run make docs", got, want)
	}
	for _, name := range want {
		a, _ := os.ReadFile(filepath.Join(fresh, name))
		b, _ := os.ReadFile(filepath.Join(committed, name))
		if string(a) != string(b) {
			t.Errorf("docs/reference/%s differs from what the command tree gives: run make docs", name)
		}
	}
}

// Every command has its page, and every page its man page; neither
// carries a date.
func TestEveryCommandHasItsPages(t *testing.T) {
	md, man := t.TempDir(), t.TempDir()
	if err := writeMarkdown(md); err != nil {
		t.Fatal(err)
	}
	if err := writeMan(man, ""); err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{"tstable.md", "tstable_query.md", "tstable_table_create.md", "tstable_serve.md", "tstable_completion_powershell.md", "tstable_filter.md"} {
		if !slices.Contains(pages(t, md), want) {
			t.Errorf("no %s", want)
		}
	}
	mans := pages(t, man)
	if len(mans) != len(pages(t, md)) || !slices.Contains(mans, "tstable-query.1") || !slices.Contains(mans, "tstable.1") {
		t.Errorf("man pages %v for Markdown pages %v", mans, pages(t, md))
	}
	page, _ := os.ReadFile(filepath.Join(man, "tstable-query.1"))
	th, _, _ := strings.Cut(string(page[strings.Index(string(page), ".TH"):]), "\n")
	if th != `.TH "TSTABLE" "1" "" "tstable" "tstable manual"` {
		t.Errorf("the man page's title line is %q", th)
	}
	for _, dir := range []string{md, man} {
		for _, p := range pages(t, dir) {
			b, _ := os.ReadFile(filepath.Join(dir, p))
			if strings.Contains(string(b), "Auto generated") || dated.Match(b) {
				t.Errorf("%s carries a date or the generator's stamp", p)
			}
		}
	}
}

// The pages do not depend on the machine: its user's folders, the
// environment's database.
func TestReferenceDoesNotDependOnTheMachine(t *testing.T) {
	a, b := t.TempDir(), t.TempDir()
	if err := writeMarkdown(a); err != nil {
		t.Fatal(err)
	}
	t.Setenv("HOME", t.TempDir())
	t.Setenv("XDG_DATA_HOME", t.TempDir())
	t.Setenv("TSTABLE_DB", filepath.Join(t.TempDir(), "x.db"))
	t.Setenv("TSTABLE_WAIT", "9s")
	if err := writeMarkdown(b); err != nil {
		t.Fatal(err)
	}
	for _, p := range pages(t, a) {
		x, _ := os.ReadFile(filepath.Join(a, p))
		y, _ := os.ReadFile(filepath.Join(b, p))
		if string(x) != string(y) {
			t.Errorf("%s changes with the environment", p)
		}
	}
}

// dated matches a date as cobra's generator writes one ("Nov 2026",
// "25-Nov-2026").
var dated = regexp.MustCompile(`\b(Jan|Feb|Mar|Apr|May|Jun|Jul|Aug|Sep|Oct|Nov|Dec)[ -]\d{4}\b`)

func pages(t *testing.T, dir string) []string {
	t.Helper()
	entries, err := os.ReadDir(dir)
	if err != nil {
		t.Fatal(err)
	}
	var out []string
	for _, e := range entries {
		out = append(out, e.Name())
	}
	return out
}

// The aligned blocks of the help (the shell's own commands, import's
// formats and modes, lint's rules, the filter topic's literals) keep their
// lines and columns in the man pages: each is a no-fill block (.EX/.EE) in
// the page's source, and man prints each of its lines as written, none
// joined into a paragraph and reflowed at 80 columns (checked with groff
// where it is installed, as man renders the page).
func TestManPagesKeepAlignedBlocks(t *testing.T) {
	dir := t.TempDir()
	if err := writeMan(dir, ""); err != nil {
		t.Fatal(err)
	}
	groff, err := exec.LookPath("groff")
	if err != nil {
		t.Log("groff is not installed (apt-get install groff-base): the pages' source is checked, not how man prints them")
	}
	var pagesWithBlocks []string
	eachCommand(tree(), func(c *cobra.Command) {
		blocks := alignedBlocks(c.Long)
		if len(blocks) == 0 {
			return
		}
		page := strings.ReplaceAll(c.CommandPath(), " ", "-") + ".1"
		pagesWithBlocks = append(pagesWithBlocks, page)
		src, err := os.ReadFile(filepath.Join(dir, page))
		if err != nil {
			t.Fatal(err)
		}
		nofill := noFillBlocks(string(src))
		var printed []string
		if groff != "" {
			printed = renderMan(t, groff, filepath.Join(dir, page))
		}
		for _, b := range blocks {
			if !slices.ContainsFunc(nofill, func(n []string) bool { return slices.Equal(n, b) }) {
				t.Errorf("%s: the aligned block\n%s\nis not a no-fill block (.EX/.EE) of the page, which holds\n%s", page, strings.Join(b, "\n"), src)
			}
			if printed != nil && !printedAsWritten(printed, b) {
				t.Errorf("%s: man does not print the aligned block\n%s\nas written; it prints\n%s", page, strings.Join(b, "\n"), strings.Join(printed, "\n"))
			}
		}
	})
	for _, want := range []string{"tstable-shell.1", "tstable-import.1", "tstable-lint.1", "tstable-filter.1"} {
		if !slices.Contains(pagesWithBlocks, want) {
			t.Errorf("%s has no aligned block to check (pages with one: %v)", want, pagesWithBlocks)
		}
	}
}

// alignedBlocks returns the runs of indented lines of a help text, each
// without the indentation its lines share.
func alignedBlocks(text string) [][]string {
	var blocks [][]string
	lines := strings.Split(text, "\n")
	for i := 0; i < len(lines); i++ {
		j := i
		for j < len(lines) && isIndented(lines[j]) {
			j++
		}
		if j > i {
			blocks = append(blocks, dedent(lines[i:j]))
			i = j
		}
	}
	return blocks
}

// noFillBlocks returns the lines of each .EX/.EE block of a man page's
// source, as they print (roff's escapes undone).
func noFillBlocks(src string) [][]string {
	var blocks [][]string
	var cur []string
	in := false
	for _, l := range strings.Split(src, "\n") {
		switch {
		case l == ".EX":
			in, cur = true, nil
		case l == ".EE":
			in = false
			blocks = append(blocks, cur)
		case in:
			cur = append(cur, strings.NewReplacer(`\&`, "", `\\`, `\`).Replace(l))
		}
	}
	return blocks
}

// renderMan prints a man page as man does on an 80-column terminal,
// without bold or underline.
func renderMan(t *testing.T, groff, page string) []string {
	t.Helper()
	out, err := exec.Command(groff, "-k", "-man", "-Tutf8", "-rLL=80n", "-P-cbou", page).Output()
	if err != nil {
		t.Fatalf("groff %s: %v", page, err)
	}
	lines := strings.Split(string(out), "\n")
	for i, l := range lines {
		lines[i] = strings.TrimRight(l, " ")
	}
	return lines
}

// printedAsWritten reports whether the lines of block follow one another
// in printed, each at the same margin: its lines and columns kept.
func printedAsWritten(printed, block []string) bool {
	for i, l := range printed {
		margin := len(l) - len(strings.TrimLeft(l, " "))
		if l[margin:] != block[0] || i+len(block) > len(printed) {
			continue
		}
		ok := true
		for k, b := range block {
			if printed[i+k] != strings.Repeat(" ", margin)+b {
				ok = false
				break
			}
		}
		if ok {
			return true
		}
	}
	return false
}
