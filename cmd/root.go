// Package cmd is tstable's command tree. The same cobra commands serve the
// command line and the interactive shell.
package cmd

import (
	"fmt"
	"os"

	"github.com/spf13/cobra"
)

// Main runs tstable with the given arguments and returns the exit status.
func Main(args []string) int {
	root := &cobra.Command{Use: "tstable", Short: "Azure Table Storage semantics on your own machine", SilenceUsage: true, SilenceErrors: true}
	root.SetArgs(args)
	if err := root.Execute(); err != nil {
		fmt.Fprintln(os.Stderr, "error:", err)
		return 2
	}
	return 0
}
