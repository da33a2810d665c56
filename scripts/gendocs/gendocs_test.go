package main

import (
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"testing"
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
