// Command tstable is a local, ordered, durable store with the semantics of
// Azure Table Storage, a command line for scripts and an interactive shell.
package main

import (
	"os"

	"github.com/tstable/tstable/cmd"
)

func main() {
	os.Exit(cmd.Main(os.Args[1:]))
}
