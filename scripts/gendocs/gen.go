package main

import (
	"bytes"
	"fmt"
	"os"
	"path/filepath"
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
