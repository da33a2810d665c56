package cmd

import (
	"context"
	"errors"
	"fmt"
	"strings"

	"github.com/spf13/cobra"
	"github.com/tstable/tstable/backend"
	"github.com/tstable/tstable/cmdspec"
	"github.com/tstable/tstable/iostreams"
	"github.com/tstable/tstable/odata"
)

// The exit statuses, as cmdspec defines them for every front end.
const (
	ExitOK          = cmdspec.ExitOK
	ExitFailed      = cmdspec.ExitFailed
	ExitUsage       = cmdspec.ExitUsage
	ExitInterrupted = cmdspec.ExitInterrupted
)

// usageErrorf is a usage error (exit status 2) about command c.
func usageErrorf(c *cobra.Command, format string, args ...any) error {
	return cmdspec.Usagef(c.CommandPath(), format, args...)
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

// reportError writes err to standard error as tstable reports every
// error — one line, "error: <Code>: <what and where>", with a caret block
// under a syntax error — and returns the exit status. It is the one
// formatter of error lines, for the command line and the shell alike.
// In the shell (inShell), help hints name the shell's help command.
func reportError(ctx context.Context, ios *iostreams.IOStreams, err error, inShell bool) int {
	msg, status := describeError(ctx, err, inShell)
	writeError(ios, msg, nil)
	return status
}

// describeError renders err as the message for standard error and picks
// the exit status.
func describeError(ctx context.Context, err error, inShell bool) (string, int) {
	var (
		ue  *cmdspec.UsageError
		se  *syntaxError
		sil *silentError
		st  *odata.Error
	)
	switch {
	case errors.As(err, &sil):
		return "", sil.status
	case errors.As(err, &ue):
		return "error: usage: " + ue.Msg + helpHint(ue.Path, inShell), ExitUsage
	case errors.As(err, &se):
		return "error: " + string(odata.CodeInvalidInput) + ": " + se.Error() + "\n" + indent(se.err.Caret()), ExitUsage
	case errors.As(err, &st):
		return "error: " + st.Error(), ExitFailed
	case ctx.Err() != nil || errors.Is(err, context.Canceled):
		return "error: interrupted", ExitInterrupted
	}
	// An error without a code is a failure of the system (the disk, a
	// file) or of tstable's own: coded as the service would code it.
	return "error: " + backend.Coded(err).Error(), ExitFailed
}

// usageArgs makes every argument error of the tree under c a usage error
// by its type, not by its words: cobra's own checks (a command's Args, the
// unknown command under the root) are wrapped as cmdspec.UsageError, as
// its flag errors are by the root's flag error function.
func usageArgs(c *cobra.Command) {
	for _, sub := range c.Commands() {
		usageArgs(sub)
	}
	check := c.Args
	if check == nil {
		check = unknownCommand
	}
	c.Args = func(c *cobra.Command, args []string) error {
		err := check(c, args)
		var ue *cmdspec.UsageError
		if err == nil || errors.As(err, &ue) {
			return err
		}
		return usageErrorf(c, "%v", err)
	}
}

// unknownCommand is cobra's check of a command given no Args: a word
// under the root that names none of its commands is an unknown command,
// with the likely one when there is one.
func unknownCommand(c *cobra.Command, args []string) error {
	if c.HasParent() || !c.HasSubCommands() || len(args) == 0 {
		return nil
	}
	msg := fmt.Sprintf("unknown command %q for %q", args[0], c.CommandPath())
	if c.SuggestionsMinimumDistance <= 0 {
		c.SuggestionsMinimumDistance = 2
	}
	if sugg := c.SuggestionsFor(args[0]); len(sugg) > 0 {
		msg += "; did you mean " + strings.Join(sugg, " or ") + "?"
	}
	return cmdspec.Usagef(c.CommandPath(), "%s", msg)
}

// helpHint points at a command's help: " (see 'tstable get --help')", or
// in the shell, where commands are typed without "tstable", " (see 'help
// get')". An empty path gives none.
func helpHint(path string, inShell bool) string {
	switch {
	case path == "":
		return ""
	case inShell:
		return " (see 'help" + strings.TrimPrefix(path, "tstable") + "')"
	}
	return " (see '" + path + " --help')"
}

// indent prefixes each line with two spaces, so that a caret block stands
// apart from the error line.
func indent(s string) string {
	return "  " + strings.ReplaceAll(s, "\n", "\n  ")
}
