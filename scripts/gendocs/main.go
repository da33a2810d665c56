// Command gendocs writes tstable's command reference from its command
// tree: one Markdown page per command (docs/reference/, committed and
// checked by this package's test) and one man page per command
// (tstable.1, tstable-query.1, …), with cobra's doc generator.
//
//	go run ./scripts/gendocs -md docs/reference -man bin/man/man1
//
// make docs (or make man) runs it. The pages hold no date and nothing of
// the machine that wrote them, so the same tree always gives the same
// bytes.
package main

import (
	"flag"
	"fmt"
	"os"
)

func main() {
	md := flag.String("md", "", "write the Markdown reference into this `folder` (its old pages are removed)")
	man := flag.String("man", "", "write the man pages into this `folder`")
	version := flag.String("version", "", "the `version` the man pages name as their source")
	flag.Parse()
	if *md == "" && *man == "" {
		fmt.Fprintln(os.Stderr, "usage: gendocs [-md FOLDER] [-man FOLDER] [-version V]")
		os.Exit(2)
	}
	if *md != "" {
		if err := writeMarkdown(*md); err != nil {
			fmt.Fprintln(os.Stderr, "error:", err)
			os.Exit(1)
		}
	}
	if *man != "" {
		if err := writeMan(*man, *version); err != nil {
			fmt.Fprintln(os.Stderr, "error:", err)
			os.Exit(1)
		}
	}
}
