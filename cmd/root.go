// Package cmd is tstable's command tree. The same cobra commands serve the
// command line and the interactive shell: NewRoot builds a fresh tree, and
// Execute runs it with arguments and turns its outcome into an exit status
// and a one-line message on standard error.
//
// Exit status: 0 success; 1 an operation the store refused, or a failure
// while running (I/O, rejected rows, a failed batch); 2 a usage error
// (unknown command or flag, wrong arguments, a bad -o, --top or --page-size,
// a $filter or $select syntax error); 130 interrupted.
//
// Where things are: each command in a file named for it, declaring its
// arguments, whether it writes and which formats it prints on its cobra
// command (cmdspec); the storage it uses resolved once (target.go,
// factory.go); everything it prints going through the Printer
// (printer*.go), which the -o flag and the terminal choose once.
package cmd

import (
	"context"
	"fmt"
	"os"
	"os/signal"
	"runtime/debug"
	"slices"
	"strings"
	"sync"

	"github.com/spf13/cobra"
	"github.com/spf13/pflag"
	"github.com/tstable/tstable/cmdspec"
	"github.com/tstable/tstable/iostreams"
	"github.com/tstable/tstable/odata"
)

// Main runs tstable with the process's streams and the given arguments and
// returns the exit status.
func Main(args []string) int {
	ios := iostreams.System()
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt)
	defer stop()
	return Execute(ctx, newRootFor(&Factory{IO: ios}, args), args, ios)
}

// expandedValues joins --expanded and -x to a value given as the next
// argument (--expanded off, -x auto), as the guides and help write them: the
// flag's value is optional (-x alone is on), so its parser takes a value
// only after '='. Only on, off and auto are taken; after "--" nothing is.
func expandedValues(args []string) []string {
	if !slices.ContainsFunc(args, func(a string) bool { return a == "--expanded" || a == "-x" }) {
		return args // nothing to join (most lines): args as they are
	}
	out := make([]string, 0, len(args))
	for i := 0; i < len(args); i++ {
		a := args[i]
		if a == "--" {
			return append(out, args[i:]...)
		}
		if (a == "--expanded" || a == "-x") && i+1 < len(args) {
			switch args[i+1] {
			case "on", "off", "auto":
				out = append(out, a+"="+args[i+1])
				i++
				continue
			}
		}
		out = append(out, a)
	}
	return out
}

// topCommand is a top-level command: its name, another name it answers
// to (or ""), and how to build it.
type topCommand struct {
	name, alias string
	build       func(*Factory) *cobra.Command
}

// topCommands are the top-level commands, in the order help lists them.
// The tree is built from this list, and a process that runs one of them
// builds only that one (see newRootFor).
func topCommands() []topCommand {
	return []topCommand{
		{"table", "", newTableCmd},
		{"insert", "", newInsertCmd},
		{"upsert", "", newUpsertCmd},
		{"merge", "", newMergeCmd},
		{"replace", "", newReplaceCmd},
		{"get", "", newGetCmd},
		{"delete", "", newDeleteCmd},
		{"query", "", newQueryCmd},
		{"explain", "", newExplainCmd},
		{"batch", "", newBatchCmd},
		{"import", "", newImportCmd},
		{"export", "", newExportCmd},
		{"copy", "", newCopyCmd},
		{"status", "", newStatusCmd},
		{"stats", "", newStatsCmd},
		{"lint", "", newLintCmd},
		{"advise", "", newAdviseCmd},
		{"sample", "", newSampleCmd},
		{"learn", "", newLearnCmd},
		{"shell", "", newShellCmd},
		{"compact", "vacuum", newCompactCmd},
		{"check", "", newCheckCmd},
		{"recover", "", newRecoverCmd},
		{"serve", "", newServeCmd},
		{"filter", "", func(*Factory) *cobra.Command { return newFilterHelp() }},
	}
}

// commandName is the first argument of args that is not a flag of root
// or a flag's value, as cobra will read it: "" when there is none.
func commandName(root *cobra.Command, args []string) string {
	fs := root.PersistentFlags()
	for i := 0; i < len(args); i++ {
		a := args[i]
		switch {
		case a == "--":
			return ""
		case len(a) < 2 || a[0] != '-':
			return a
		case strings.Contains(a, "="):
			continue
		}
		var fl *pflag.Flag
		if strings.HasPrefix(a, "--") {
			fl = fs.Lookup(a[2:])
		} else if len(a) == 2 {
			fl = fs.ShorthandLookup(a[1:])
		}
		if fl == nil {
			return "" // a flag the root does not have: let the whole tree say so
		}
		if fl.NoOptDefVal == "" {
			i++ // its value is the next argument
		}
	}
	return ""
}

// newRootFor builds the tree to run args with: when they name a top-level
// command, a root with only that command, which runs it exactly as the
// whole tree would (its flags, the root's flags, its help) at a fraction
// of the cost of building two dozen commands and their flags, most of a
// quick command's time; otherwise (no command, help, completion, a name
// that is not a command) the whole tree.
func newRootFor(f *Factory, args []string) *cobra.Command {
	root := newRootWith(f, false)
	name := commandName(root, expandedValues(args))
	for _, c := range topCommands() {
		if name == "" || (name != c.name && name != c.alias) {
			continue
		}
		root.AddCommand(c.build(f))
		// cobra's own reading of args must find that command: else the
		// whole tree.
		if found, _, err := root.Find(expandedValues(args)); err == nil && found != root {
			usageArgs(root)
			return root
		}
		break
	}
	return newRoot(f)
}

// NewRoot builds a fresh command tree writing to ios. It keeps no state
// between calls: the shell builds one per line.
func NewRoot(ios *iostreams.IOStreams) *cobra.Command {
	return newRoot(&Factory{IO: ios})
}

// newRoot builds the command tree over f.
func newRoot(f *Factory) *cobra.Command { return newRootWith(f, true) }

// newRootWith builds the root over f: with whole, every command, help and
// completion; without, the root alone, to which the caller adds the one
// command it runs.
func newRootWith(f *Factory, whole bool) *cobra.Command {
	ios := f.IO
	root := &cobra.Command{
		Use:   "tstable",
		Short: "Azure Table Storage semantics on your own machine",
		Long: `tstable is a local, ordered, durable store with the semantics of Azure
Table Storage: tables of entities keyed by PartitionKey and RowKey, the
service's JSON, $filter queries with continuation tokens, entity group
transactions, and an explanation of what every query reads.`,
		Example: `  tstable table create Employees
  tstable import Employees employees.jsonl
  tstable query Employees --filter "PartitionKey eq 'Sales'" --explain
  tstable get Employees Sales empid_000001 -o json`,
		// Any non-empty Version gives --version; the real one is read from
		// the build info only when printed (see the version template).
		Version:       "(see version template)",
		SilenceUsage:  true,
		SilenceErrors: true,
	}
	// The run's settings (the output format among them) are decided once,
	// before any command runs; until then they are the defaults.
	f.printer = defaultPrinter(root, ios)
	var g globalFlags
	g.bind(root)
	root.PersistentPreRunE = func(c *cobra.Command, args []string) error { return g.apply(c, f) }
	// With no command, a terminal gets the shell and anything else help.
	root.RunE = func(c *cobra.Command, args []string) error {
		if len(args) > 0 {
			return usageErrorf(c, "unknown command %q", args[0])
		}
		if f.IO.InTTY && f.IO.OutTTY && f.Session == nil {
			return runShell(c, f)
		}
		return c.Help()
	}
	connectStreams(root, ios)
	root.SetFlagErrorFunc(func(c *cobra.Command, err error) error {
		return usageErrorf(c, "%s", err.Error())
	})

	if whole {
		for _, c := range topCommands() {
			root.AddCommand(c.build(f))
		}
	}
	addTemplateFuncs()
	root.SetVersionTemplate("tstable {{tstableVersion}}\n")
	if !whole {
		// Only one command runs: no completion command and no dynamic
		// completion (completing builds the whole tree: its command line
		// names no command of the list).
		root.CompletionOptions.DisableDefaultCmd = true
		return root
	}
	addDynamicCompletion(root, f)
	root.InitDefaultCompletionCmd()
	root.InitDefaultHelpCmd()
	defer usageArgs(root)
	for _, c := range root.Commands() {
		switch c.Name() {
		case "completion":
			cmdspec.NotInShell(c)
			completeInQuotes(c)
			c.Args = cobra.ArbitraryArgs
			c.RunE = func(c *cobra.Command, args []string) error {
				if len(args) == 0 {
					return usageErrorf(c, "%s needs a shell: bash, zsh, fish or powershell", c.CommandPath())
				}
				return usageErrorf(c, "no completion for %q; choose bash, zsh, fish or powershell", args[0])
			}
		case "help":
			cmdspec.NotInShell(c) // the shell has its own
		}
	}
	return root
}

// addTemplateFuncs adds tstable's functions to cobra's templates. cobra
// keeps them in one map for the process: they are added once, not for
// every tree the shell builds.
var addTemplateFuncs = sync.OnceFunc(func() { cobra.AddTemplateFunc("tstableVersion", version) })

// Execute runs root with args under ctx and returns the exit status. An
// error is written to ios.ErrOut as one line, "error: <Code>: <what and
// where>" (a syntax error adds the text and a caret on the next lines). A
// panic becomes "error: InternalError: …" and status 1, never a stack trace.
func Execute(ctx context.Context, root *cobra.Command, args []string, ios *iostreams.IOStreams) int {
	return execute(ctx, root, args, ios, false)
}

// execute is Execute, for the shell too (inShell: help hints name the
// shell's help).
func execute(ctx context.Context, root *cobra.Command, args []string, ios *iostreams.IOStreams, inShell bool) (status int) {
	return executeAs(ctx, root, args, ios, inShell, false)
}

// executeAs is execute; reused says root is a tree the shell ran before
// and put back as new (see runReused).
func executeAs(ctx context.Context, root *cobra.Command, args []string, ios *iostreams.IOStreams, inShell, reused bool) (status int) {
	defer func() {
		if r := recover(); r != nil {
			var stack []byte
			if os.Getenv("TSTABLE_DEBUG") != "" {
				stack = debug.Stack()
			}
			writeError(ios, fmt.Sprintf("error: %s: %v (please report this with the command you ran)", odata.CodeInternalError, r), stack)
			status = ExitFailed
		}
	}()
	connectStreams(root, ios)
	var err error
	if reused {
		err = runReused(ctx, root, expandedValues(args))
	} else {
		root.SetArgs(expandedValues(args))
		err = root.ExecuteContext(ctx)
	}
	if err == nil {
		return ExitOK
	}
	return reportError(ctx, ios, err, inShell)
}
