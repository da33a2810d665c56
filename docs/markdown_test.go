package docs

import (
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"strings"
)

// A block is one fenced code block of a Markdown file.
type block struct {
	file   string   // the Markdown file, as named to a reader: README.md, docs/serve.md
	line   int      // the line of its opening fence
	lang   string   // the first word of the info string: sh, go, text, …
	attrs  []string // the rest of the info string: file=NAME
	lines  []string // its text, one entry a line
	notRun string   // why it is not run, from <!-- not run: WHY --> just above it
	// A file of the repository the block's commands read, copied into
	// their folder first, from <!-- copied from the repository: PATH to
	// NAME --> just above it (a binary file, such as a database an older
	// tstable wrote, that a file= block cannot hold); the text says so.
	copyFrom, copyTo string
}

// attr is the value of attribute name (name=VALUE) of the info string.
func (b block) attr(name string) string {
	for _, a := range b.attrs {
		if v, ok := strings.CutPrefix(a, name+"="); ok {
			return v
		}
	}
	return ""
}

func (b block) String() string { return fmt.Sprintf("%s:%d", b.file, b.line) }

var (
	notRunRE = regexp.MustCompile(`^<!-- not run: (.+) -->$`)
	copyRE   = regexp.MustCompile(`^<!-- copied from the repository: (\S+) to (\S+) -->$`)
)

// readBlocks returns the fenced code blocks of the Markdown file at path
// (relative to the repository's root), in order.
func readBlocks(path string) ([]block, error) {
	src, err := os.ReadFile(filepath.Join("..", path))
	if err != nil {
		return nil, err
	}
	var blocks []block
	var cur *block
	var fence, prev string
	indent := 0
	for i, line := range strings.Split(string(src), "\n") {
		if cur != nil {
			if strings.TrimSpace(line) == fence {
				blocks = append(blocks, *cur)
				cur = nil
			} else {
				// A fence indented in a list item: its lines carry the indent.
				n := min(indent, len(line)-len(strings.TrimLeft(line, " ")))
				cur.lines = append(cur.lines, line[n:])
			}
			continue
		}
		trimmed := strings.TrimLeft(line, " ")
		if strings.HasPrefix(trimmed, "```") {
			info := strings.Fields(strings.TrimLeft(trimmed, "`"))
			fence = trimmed[:len(trimmed)-len(strings.TrimLeft(trimmed, "`"))]
			indent = len(line) - len(trimmed)
			cur = &block{file: path, line: i + 1}
			if len(info) > 0 {
				cur.lang, cur.attrs = info[0], info[1:]
			}
			if m := notRunRE.FindStringSubmatch(prev); m != nil {
				cur.notRun = m[1]
			}
			if m := copyRE.FindStringSubmatch(prev); m != nil {
				cur.copyFrom, cur.copyTo = m[1], m[2]
			}
			continue
		}
		if strings.TrimSpace(line) != "" {
			prev = strings.TrimSpace(line)
		}
	}
	if cur != nil {
		return nil, fmt.Errorf("%s:%d: a code block is never closed", path, cur.line)
	}
	return blocks, nil
}

// markdownFiles are the Markdown files a reader is sent to: README.md and
// the guides in docs/ (the generated reference is checked by
// scripts/gendocs), relative to the repository's root.
func markdownFiles() ([]string, error) {
	guides, err := filepath.Glob(filepath.Join("..", "docs", "*.md"))
	if err != nil {
		return nil, err
	}
	files := []string{"README.md"}
	for _, g := range guides {
		files = append(files, filepath.ToSlash(strings.TrimPrefix(g, ".."+string(filepath.Separator))))
	}
	return files, nil
}
