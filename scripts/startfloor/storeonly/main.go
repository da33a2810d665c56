// Command storeonly is a point query with the store and nothing else:
// storeonly DB TABLE FILTER.
package main

import (
	"fmt"
	"os"

	"github.com/tstable/tstable/scripts/startfloor/lookup"
)

func main() {
	if len(os.Args) != 4 {
		fmt.Fprintln(os.Stderr, "usage: storeonly DB TABLE FILTER")
		os.Exit(2)
	}
	if err := lookup.Run(os.Args[1], os.Args[2], os.Args[3], os.Stdout); err != nil {
		fmt.Fprintln(os.Stderr, err)
		os.Exit(1)
	}
}
