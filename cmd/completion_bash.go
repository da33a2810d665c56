package cmd

import (
	_ "embed"
	"io"

	"github.com/spf13/cobra"
)

// quotedBashCompletion follows cobra's bash completion script: it
// completes a word inside an open quote (--filter "LastN<Tab>), which
// cobra's script leaves to nothing, by the same completions.
//
//go:embed completion_quoted.bash
var quotedBashCompletion string

// plainBashCompletion lets cobra's bash script run without the
// bash-completion package: its own reading of the words typed, and of
// file names, where that package's functions are missing.
//
//go:embed completion_plain.bash
var plainBashCompletion string

// completeInQuotes makes `completion bash` write cobra's script and then
// quotedBashCompletion and plainBashCompletion.
func completeInQuotes(completion *cobra.Command) {
	for _, sh := range completion.Commands() {
		if sh.Name() != "bash" {
			continue
		}
		sh.RunE = func(c *cobra.Command, args []string) error {
			noDesc, _ := c.Flags().GetBool("no-descriptions")
			out := c.OutOrStdout()
			if err := c.Root().GenBashCompletionV2(out, !noDesc); err != nil {
				return err
			}
			_, err := io.WriteString(out, "\n"+quotedBashCompletion+plainBashCompletion)
			return err
		}
		sh.Run = nil
	}
}
