package docs

import (
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
	"unicode"
)

var (
	inlineLinkRE = regexp.MustCompile(`\]\(([^)\s]+)\)`)
	refLinkRE    = regexp.MustCompile(`(?m)^\[[^\]]+\]:\s*(\S+)`)
	codeSpanRE   = regexp.MustCompile("`[^`\n]*`")
	headingRE    = regexp.MustCompile(`(?m)^#{1,6} +(.+?) *#*$`)
)

// Every relative link of README, the guides and the reference leads to a
// file that is there, and a link to a section (#name) to a heading of
// that file.
func TestLinks(t *testing.T) {
	files, err := markdownFiles()
	if err != nil {
		t.Fatal(err)
	}
	ref, _ := filepath.Glob(filepath.Join("..", "docs", "reference", "*.md"))
	for _, r := range ref {
		files = append(files, filepath.ToSlash(strings.TrimPrefix(r, ".."+string(filepath.Separator))))
	}
	for _, f := range files {
		for _, target := range links(t, f) {
			if err := checkLink(f, target); err != "" {
				t.Errorf("%s: link %s: %s", f, target, err)
			}
		}
	}
}

// links are the link targets of a Markdown file outside code.
func links(t *testing.T, file string) []string {
	src, err := os.ReadFile(filepath.Join("..", file))
	if err != nil {
		t.Fatal(err)
	}
	text := codeSpanRE.ReplaceAllString(withoutFences(string(src)), "")
	var out []string
	for _, re := range []*regexp.Regexp{inlineLinkRE, refLinkRE} {
		for _, m := range re.FindAllStringSubmatch(text, -1) {
			out = append(out, m[1])
		}
	}
	return out
}

// withoutFences is a Markdown text without its fenced code blocks.
func withoutFences(src string) string {
	var b strings.Builder
	in := false
	for _, line := range strings.Split(src, "\n") {
		if strings.HasPrefix(strings.TrimSpace(line), "```") {
			in = !in
			continue
		}
		if !in {
			b.WriteString(line + "\n")
		}
	}
	return b.String()
}

// checkLink says what is wrong with a link of file, or "".
func checkLink(file, target string) string {
	if strings.Contains(target, "://") || strings.HasPrefix(target, "mailto:") {
		return ""
	}
	path, anchor, _ := strings.Cut(target, "#")
	dest := file
	if path != "" {
		dest = filepath.ToSlash(filepath.Join(filepath.Dir(file), path))
		if _, err := os.Stat(filepath.Join("..", dest)); err != nil {
			return "no such file " + dest
		}
	}
	if anchor == "" {
		return ""
	}
	if !strings.HasSuffix(dest, ".md") {
		return "a section of a file that is not Markdown"
	}
	src, err := os.ReadFile(filepath.Join("..", dest))
	if err != nil {
		return err.Error()
	}
	for _, a := range anchors(withoutFences(string(src))) {
		if a == anchor {
			return ""
		}
	}
	return "no heading of " + dest + " makes #" + anchor
}

// anchors are the names GitHub gives a file's headings: lower case,
// spaces as hyphens, punctuation dropped, a repeated name numbered.
func anchors(src string) []string {
	seen := map[string]int{}
	var out []string
	for _, m := range headingRE.FindAllStringSubmatch(src, -1) {
		a := slug(m[1])
		if n := seen[a]; n > 0 {
			out = append(out, a+"-"+itoa(n))
		} else {
			out = append(out, a)
		}
		seen[a]++
	}
	return out
}

func slug(heading string) string {
	heading = regexp.MustCompile(`\[([^\]]*)\]\([^)]*\)`).ReplaceAllString(heading, "$1")
	var b strings.Builder
	for _, r := range strings.ToLower(heading) {
		switch {
		case r == ' ':
			b.WriteRune('-')
		case r == '-' || r == '_' || unicode.IsLetter(r) || unicode.IsNumber(r):
			b.WriteRune(r)
		}
	}
	return b.String()
}
