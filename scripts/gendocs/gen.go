package main

import (
	"bytes"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"time"

	"github.com/spf13/cobra"
	"github.com/spf13/cobra/doc"
	"github.com/tstable/tstable/cmd"
	"github.com/tstable/tstable/iostreams"
)

// tree is tstable's whole command tree, without the generator's stamp.
func tree() *cobra.Command {
	ios, _, _, _ := iostreams.Test()
	root := cmd.NewRoot(ios)
	root.DisableAutoGenTag = true
	return root
}

// writeMarkdown replaces the Markdown pages in dir by the tree's.
func writeMarkdown(dir string) error {
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return err
	}
	old, _ := filepath.Glob(filepath.Join(dir, "*.md"))
	for _, f := range old {
		if err := os.Remove(f); err != nil {
			return err
		}
	}
	root := tree()
	if err := doc.GenMarkdownTree(root, dir); err != nil {
		return err
	}
	return eachTopic(root, func(c *cobra.Command, base string) error {
		return writePage(filepath.Join(dir, base+".md"), func(f *os.File) error { return doc.GenMarkdown(c, f) })
	})
}

// eachTopic calls fn for each help topic of root (tstable filter), which
// the generator's walk of the tree leaves out, with its page's base name.
func eachTopic(root *cobra.Command, fn func(c *cobra.Command, base string) error) error {
	for _, c := range root.Commands() {
		if c.IsAdditionalHelpTopicCommand() {
			if err := fn(c, root.Name()+"_"+c.Name()); err != nil {
				return err
			}
		}
	}
	return nil
}

// writePage creates path and writes it with gen.
func writePage(path string, gen func(*os.File) error) error {
	f, err := os.Create(path)
	if err != nil {
		return err
	}
	if err := gen(f); err != nil {
		f.Close()
		return err
	}
	return f.Close()
}

// noDate is the date the man pages are given, then taken out: cobra's
// generator always writes one (the time of the run, else this).
var noDate = time.Time{}

// writeMan writes the man pages into dir: tstable.1, tstable-query.1, …
// in section 1, with no date.
func writeMan(dir, version string) error {
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return err
	}
	source := "tstable"
	if version != "" {
		source += " " + version
	}
	header := &doc.GenManHeader{Title: "TSTABLE", Section: "1", Source: source, Manual: "tstable manual", Date: &noDate}
	root := tree()
	eachCommand(root, func(c *cobra.Command) { c.Long = keepAligned(c.Long) })
	if err := doc.GenManTree(root, header, dir); err != nil {
		return err
	}
	if err := eachTopic(root, func(c *cobra.Command, base string) error {
		h := *header
		return writePage(filepath.Join(dir, root.Name()+"-"+c.Name()+".1"), func(f *os.File) error { return doc.GenMan(c, &h, f) })
	}); err != nil {
		return err
	}
	pages, _ := filepath.Glob(filepath.Join(dir, "tstable*.1"))
	stamp := []byte(fmt.Sprintf(`"%s"`, noDate.Format("Jan 2006")))
	for _, p := range pages {
		b, err := os.ReadFile(p)
		if err != nil {
			return err
		}
		if err := os.WriteFile(p, bytes.Replace(b, stamp, []byte(`""`), 1), 0o644); err != nil {
			return err
		}
	}
	return nil
}

// eachCommand calls fn for c and every command under it, help topics
// included.
func eachCommand(c *cobra.Command, fn func(*cobra.Command)) {
	fn(c)
	for _, sub := range c.Commands() {
		eachCommand(sub, fn)
	}
}

// keepAligned makes each aligned block of a help text (a run of indented
// lines: a list or a table whose columns line up) a Markdown code block,
// which the man page prints as written (.EX/.EE, no filling) instead of
// joining its lines into a paragraph reflowed to the page's width. The
// block loses the indentation its lines share, which the man page's own
// indentation replaces.
func keepAligned(text string) string {
	lines := strings.Split(text, "\n")
	var out []string
	for i := 0; i < len(lines); {
		if !isIndented(lines[i]) {
			out = append(out, lines[i])
			i++
			continue
		}
		j := i
		for j < len(lines) && isIndented(lines[j]) {
			j++
		}
		if len(out) > 0 && out[len(out)-1] != "" {
			out = append(out, "")
		}
		out = append(out, "```")
		out = append(out, dedent(lines[i:j])...)
		out = append(out, "```")
		if j < len(lines) && lines[j] != "" {
			out = append(out, "")
		}
		i = j
	}
	return strings.Join(out, "\n")
}

// isIndented reports whether line is a line of an aligned block: it
// starts with a space or a tab and holds more than that.
func isIndented(line string) bool {
	return strings.TrimSpace(line) != "" && (line[0] == ' ' || line[0] == '\t')
}

// dedent removes the leading spaces and tabs all lines share.
func dedent(lines []string) []string {
	common := lines[0][:len(lines[0])-len(strings.TrimLeft(lines[0], " \t"))]
	for _, l := range lines[1:] {
		for !strings.HasPrefix(l, common) {
			common = common[:len(common)-1]
		}
	}
	out := make([]string, len(lines))
	for i, l := range lines {
		out[i] = l[len(common):]
	}
	return out
}
