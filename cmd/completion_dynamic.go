package cmd

import (
	"context"
	"strings"

	"github.com/spf13/cobra"
	"github.com/tstable/tstable/backend"
	"github.com/tstable/tstable/cmdspec"
	"github.com/tstable/tstable/completions"
)

// addDynamicCompletion gives the command line's shell completion (bash,
// zsh, fish, powershell) the shell's knowledge of the data, from the same
// completions package: table names for TABLE arguments, PartitionKeys
// after a table and RowKeys after a PartitionKey, property names for
// --select, and the $filter language for --filter.
func addDynamicCompletion(root *cobra.Command, f *Factory) {
	src := completions.NewCache(func(ctx context.Context, fn func(backend.Backend) error) error {
		return f.Read(ctx, "", fn)
	})
	root.RegisterFlagCompletionFunc("output", cobra.FixedCompletions(formatCompletions(), cobra.ShellCompDirectiveNoFileComp))
	root.RegisterFlagCompletionFunc("expanded", cobra.FixedCompletions([]string{"on\tone property per line", "off\ta table", "auto\tone property per line when the keys would not fit"}, cobra.ShellCompDirectiveNoFileComp))
	var walk func(c *cobra.Command)
	walk = func(c *cobra.Command) {
		for _, sub := range c.Commands() {
			walk(sub)
		}
		if !cmdspec.IsTableArg(c, 0) {
			return
		}
		names := cmdspec.ArgNames(c)
		if c.ValidArgsFunction == nil {
			c.ValidArgsFunction = func(c *cobra.Command, args []string, toComplete string) ([]string, cobra.ShellCompDirective) {
				ctx := c.Context()
				if ctx == nil {
					ctx = context.Background()
				}
				switch {
				case len(args) == 0:
					return compStrings(tableSuggestions(ctx, src)), cobra.ShellCompDirectiveNoFileComp
				case len(args) == 1 && len(names) > 1 && names[1] == "PK":
					return src.PartitionKeys(ctx, args[0], toComplete), cobra.ShellCompDirectiveNoFileComp
				case len(args) == 2 && len(names) > 2 && names[2] == "RK":
					return src.RowKeys(ctx, args[0], args[1], toComplete), cobra.ShellCompDirectiveNoFileComp
				case len(args) == 1 && len(names) > 1 && names[1] == "FILE|-":
					return nil, cobra.ShellCompDirectiveDefault // a file
				}
				return nil, cobra.ShellCompDirectiveNoFileComp
			}
		}
		if c.Flags().Lookup("if-match") != nil {
			c.RegisterFlagCompletionFunc("if-match", cobra.FixedCompletions([]string{"*\tany ETag; or the odata.etag that get shows"}, cobra.ShellCompDirectiveNoFileComp))
		}
		for name, complete := range map[string]valueCompleter{"filter": completions.Filter, "select": completions.Select} {
			if c.Flags().Lookup(name) != nil {
				c.RegisterFlagCompletionFunc(name, flagValueCompletion(src, complete))
			}
		}
	}
	walk(root)
}

// valueCompleter completes a flag's value typed so far for a table: the
// suggestions for its last token, and that token.
type valueCompleter func(ctx context.Context, src completions.Source, table, text string) ([]completions.Suggestion, string)

// flagValueCompletion adapts a valueCompleter to cobra. The whole flag
// value is one word: each suggestion is the value typed so far with its
// last token completed.
func flagValueCompletion(src completions.Source, complete valueCompleter) cobra.CompletionFunc {
	return func(c *cobra.Command, args []string, toComplete string) ([]string, cobra.ShellCompDirective) {
		if len(args) == 0 {
			return nil, cobra.ShellCompDirectiveNoFileComp
		}
		// Inside an open quote (--filter "Ag), bash hands over the quote
		// too: complete what follows it, and keep it in front.
		quote := ""
		if strings.HasPrefix(toComplete, `"`) || strings.HasPrefix(toComplete, "'") {
			quote, toComplete = toComplete[:1], toComplete[1:]
		}
		sugg, partial := complete(c.Context(), src, args[0], toComplete)
		head := quote + toComplete[:len(toComplete)-len(partial)]
		out := make([]completions.Suggestion, len(sugg))
		for i, s := range sugg {
			out[i] = completions.Suggestion{Text: head + s.Text, Description: s.Description}
		}
		return compStrings(out), cobra.ShellCompDirectiveNoFileComp | cobra.ShellCompDirectiveNoSpace
	}
}

func tableSuggestions(ctx context.Context, src completions.Source) []completions.Suggestion {
	var out []completions.Suggestion
	for _, t := range src.Tables(ctx) {
		out = append(out, completions.Suggestion{Text: t, Description: "table"})
	}
	return out
}

// compStrings renders suggestions as cobra's "text\tdescription".
func compStrings(in []completions.Suggestion) []string {
	out := make([]string, len(in))
	for i, s := range in {
		out[i] = s.Text
		if s.Description != "" {
			out[i] += "\t" + s.Description
		}
	}
	return out
}

// firstArgOf completes a command's one argument from names (a lesson, a
// sample), and nothing after it.
func firstArgOf(names func() []string) cobra.CompletionFunc {
	return func(c *cobra.Command, args []string, toComplete string) ([]string, cobra.ShellCompDirective) {
		if len(args) > 0 {
			return nil, cobra.ShellCompDirectiveNoFileComp
		}
		return names(), cobra.ShellCompDirectiveNoFileComp
	}
}
