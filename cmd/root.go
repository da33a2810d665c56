// Package cmd is tstable's command tree. The same cobra commands serve the
// command line and the interactive shell: NewRoot builds a fresh tree, and
// Execute runs it with arguments and turns its outcome into an exit status
// and a one-line message on standard error.
//
// Exit status: 0 success; 1 an operation the store refused, or a failure
// while running (I/O, rejected rows, a failed batch); 2 a usage error
// (unknown command or flag, wrong arguments, a bad -o, --top or --page-size,
// a $filter or $select syntax error); 130 interrupted.
package cmd

import (
	"context"
	"errors"
	"fmt"
	"os"
	"os/signal"
	"runtime/debug"
	"strings"

	"github.com/spf13/cobra"
	"github.com/tstable/tstable/completions"
	"github.com/tstable/tstable/iostreams"
	"github.com/tstable/tstable/odata"
)

// Exit statuses.
const (
	ExitOK          = 0
	ExitFailed      = 1
	ExitUsage       = 2
	ExitInterrupted = 130
)

// Main runs tstable with the process's streams and the given arguments and
// returns the exit status.
func Main(args []string) int {
	ios := iostreams.System()
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt)
	defer stop()
	return Execute(ctx, NewRoot(ios), args, ios)
}

// commandConstructors are the commands added by other files of this package
// through addCommand (shell, stats, …), in registration order.
var commandConstructors []func(*Factory) *cobra.Command

// addCommand registers a command constructor; call it from an init func.
// NewRoot calls every constructor for each tree it builds.
func addCommand(c func(*Factory) *cobra.Command) {
	commandConstructors = append(commandConstructors, c)
}

// NewRoot builds a fresh command tree writing to ios. It keeps no state
// between calls: the shell builds one per line.
func NewRoot(ios *iostreams.IOStreams) *cobra.Command {
	f := &Factory{IO: ios}
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
  tstable get Employees Sales 00010 -o json`,
		SilenceUsage:  true,
		SilenceErrors: true,
	}
	// With no command, a terminal gets the shell and anything else help.
	root.RunE = func(c *cobra.Command, args []string) error {
		if len(args) > 0 {
			return usageErrorf(c, "unknown command %q", args[0])
		}
		if f.IO.InTTY && f.IO.OutTTY {
			return runShell(c, f)
		}
		return c.Help()
	}
	root.SetIn(ios.In)
	root.SetOut(ios.Out)
	root.SetErr(ios.ErrOut)
	root.SetFlagErrorFunc(func(c *cobra.Command, err error) error {
		return usageErrorf(c, "%s", err.Error())
	})
	pf := root.PersistentFlags()
	pf.StringVar(&f.dbFlag, "db", "", "database `file` (default $TSTABLE_DB, else "+displayDefaultDB()+")")
	pf.StringVarP(&f.outputFlag, "output", "o", "", "output `format`: table, json, jsonl or csv (default table on a terminal, jsonl otherwise)")
	pf.StringVar(&f.connFlag, "connection-string", "", "use the remote account of this connection `string` (default $AZURE_STORAGE_CONNECTION_STRING); not with --db")
	pf.StringVar(&f.accountURLFlag, "account-url", "", "use the remote table endpoint at this `URL`, signed in with Azure AD (the Azure SDK's default credentials)")

	root.AddCommand(
		newTableCmd(f),
		newInsertCmd(f),
		newUpsertCmd(f),
		newMergeCmd(f),
		newReplaceCmd(f),
		newGetCmd(f),
		newDeleteCmd(f),
		newQueryCmd(f),
		newExplainCmd(f),
		newBatchCmd(f),
		newImportCmd(f),
		newExportCmd(f),
	)
	for _, c := range commandConstructors {
		root.AddCommand(c(f))
	}
	addDynamicCompletion(root, f)
	root.InitDefaultCompletionCmd()
	for _, c := range root.Commands() {
		if c.Name() == "completion" {
			c.Args = cobra.ArbitraryArgs
			c.RunE = func(c *cobra.Command, args []string) error {
				if len(args) == 0 {
					return usageErrorf(c, "%s needs a shell: bash, zsh, fish or powershell", c.CommandPath())
				}
				return usageErrorf(c, "no completion for %q; choose bash, zsh, fish or powershell", args[0])
			}
		}
	}
	return root
}

// Execute runs root with args under ctx and returns the exit status. An
// error is written to ios.ErrOut as one line, "error: <Code>: <what and
// where>" (a syntax error adds the text and a caret on the next lines). A
// panic becomes "error: internal: …" and status 1, never a stack trace.
func Execute(ctx context.Context, root *cobra.Command, args []string, ios *iostreams.IOStreams) (status int) {
	defer func() {
		if r := recover(); r != nil {
			fmt.Fprintf(ios.ErrOut, "error: internal: %v (please report this with the command you ran)\n", r)
			if os.Getenv("TSTABLE_DEBUG") != "" {
				ios.ErrOut.Write(debug.Stack())
			}
			status = ExitFailed
		}
	}()
	root.SetArgs(args)
	root.SetIn(ios.In)
	root.SetOut(ios.Out)
	root.SetErr(ios.ErrOut)
	err := root.ExecuteContext(ctx)
	if err == nil {
		return ExitOK
	}
	msg, code := describeError(ctx, root, err)
	if msg != "" {
		fmt.Fprintln(ios.ErrOut, msg)
	}
	return code
}

// usageError is a command used the wrong way (exit status 2).
type usageError struct {
	msg  string
	path string // the command path, for the help hint
}

func (e *usageError) Error() string { return e.msg }

func usageErrorf(c *cobra.Command, format string, args ...any) error {
	return &usageError{msg: fmt.Sprintf(format, args...), path: c.CommandPath()}
}

// syntaxError is a $filter or $select that does not parse (exit status 2).
type syntaxError struct {
	flag string // "--filter" or "--select"
	err  *odata.SyntaxError
}

func (e *syntaxError) Error() string { return e.flag + ": " + e.err.Error() }

// silentError carries an exit status for a failure already reported.
type silentError struct{ status int }

func (e *silentError) Error() string { return fmt.Sprintf("exit status %d", e.status) }

// describeError renders err as the message for standard error and picks
// the exit status.
func describeError(ctx context.Context, root *cobra.Command, err error) (string, int) {
	var (
		ue  *usageError
		se  *syntaxError
		sil *silentError
		st  *odata.Error
	)
	switch {
	case errors.As(err, &sil):
		return "", sil.status
	case errors.As(err, &ue):
		return "error: usage: " + ue.msg + " (see '" + ue.path + " --help')", ExitUsage
	case errors.As(err, &se):
		return "error: " + string(odata.CodeInvalidInput) + ": " + se.Error() + "\n" + indent(se.err.Caret()), ExitUsage
	case errors.As(err, &st):
		return "error: " + st.Error(), ExitFailed
	case ctx.Err() != nil || errors.Is(err, context.Canceled):
		return "error: interrupted", ExitInterrupted
	}
	// Cobra's own errors for commands and arguments are usage errors.
	m := err.Error()
	if first, rest, ok := strings.Cut(m, "\n"); ok { // "unknown command … Did you mean this?\n\tquery"
		var sugg []string
		for _, l := range strings.Split(rest, "\n") {
			if strings.HasPrefix(l, "\t") {
				sugg = append(sugg, strings.TrimSpace(l))
			}
		}
		m = first
		if len(sugg) > 0 {
			m += "; did you mean " + strings.Join(sugg, " or ") + "?"
		}
	}
	for _, p := range []string{"unknown command", "unknown flag", "unknown shorthand flag", "accepts ", "requires ", "invalid argument", "flag needs an argument"} {
		if strings.HasPrefix(m, p) {
			return "error: usage: " + m + " (see '" + root.CommandPath() + " --help')", ExitUsage
		}
	}
	return "error: " + m, ExitFailed
}

// indent prefixes each line with two spaces, so that a caret block stands
// apart from the error line.
func indent(s string) string {
	return "  " + strings.ReplaceAll(s, "\n", "\n  ")
}

// exactArgs checks the positional arguments by name: "TABLE", "PK", …;
// a trailing "[X]" is optional.
func exactArgs(names ...string) cobra.PositionalArgs {
	required := 0
	for _, n := range names {
		if !strings.HasPrefix(n, "[") {
			required++
		}
	}
	return func(c *cobra.Command, args []string) error {
		if len(args) == 0 && required > 0 {
			return usageErrorf(c, "%s needs %s", c.CommandPath(), strings.Join(names, " "))
		}
		if len(args) < required {
			return usageErrorf(c, "%s needs %s; missing %s", c.CommandPath(), strings.Join(names, " "), strings.Join(names[len(args):required], " "))
		}
		if len(args) > len(names) {
			return usageErrorf(c, "%s takes %s; unexpected %q", c.CommandPath(), strings.Join(names, " "), args[len(names)])
		}
		return nil
	}
}

// tableAnnotation marks a command whose first argument is a table, so the
// shell can insert the table chosen with `use`.
var tableAnnotation = map[string]string{completions.TableAnnotation: "arg"}
