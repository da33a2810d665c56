package cmd

import (
	"context"
	"errors"
	"path/filepath"

	"github.com/spf13/cobra"
	"github.com/spf13/pflag"
	"github.com/tstable/tstable/backend"
	"github.com/tstable/tstable/cmdspec"
	"github.com/tstable/tstable/iostreams"
	"github.com/tstable/tstable/shell"
)

func newShellCmd(f *Factory) *cobra.Command {
	c := &cobra.Command{
		Use:   "shell",
		Short: "Interactive shell over the same commands",
		Long: `An interactive shell: every command works without the "tstable" prefix,
on the same database. Its own commands (help NAME says more of each):

  use TABLE        later commands need no table argument (get PK RK, query --filter …)
  next             the next page of the last query
  explain on|off|draw   the query class and scanned count under every query result
                   (draw: and the picture of the key space)
  expanded on|off|auto, \x   one property per line
  timing on|off, \timing, .timer   how long each command took (off by default)
  pager on|off, \pset pager   output longer than the screen through $PAGER
                   (default less -S); never when output is not a terminal
  .tables, \dt     the tables
  history [N]      the lines typed, numbered
  clear            clear the screen (also Ctrl-L)
  help [COMMAND]   the shell's commands, or one command's help (also \?)
  exit, quit, \q   leave (also Ctrl-D)

Tab completes commands, flags, table names, PartitionKeys and RowKeys, and
inside --filter property names, operators, keywords and the literals that
fit the property's type; a single match is followed by a space. The keys
of readline work: Ctrl-A/E, Alt-b/f and Ctrl-Left/Right, Ctrl-W, Alt-d,
Ctrl-K, Ctrl-U, Ctrl-Y, Ctrl-_ (undo), Ctrl-R (history search). A line
with an open quote, or ending with a backslash, goes on on the next line.
Ctrl-C cancels the line being typed or the running query. History is
shared by every session, in tstable's state folder:
$XDG_STATE_HOME/tstable/history or ~/.local/state/tstable/history; on
Windows %LOCALAPPDATA%\tstable\history.

When standard input is not a terminal, the shell reads commands line by
line with no prompt (lines starting with # are comments), explain and
timing start off, and the output is what the same command-line calls
print; it exits 1 when any command failed.`,
		Example: "  tstable shell\n  tstable shell < lesson.txt",
		RunE: func(c *cobra.Command, args []string) error {
			return runShell(c, f)
		},
	}
	cmdspec.Args(c)
	cmdspec.NotInShell(c)
	return c
}

// runShell runs the shell on f's streams with the global flags given to
// this command tree passed on to every command it runs.
func runShell(c *cobra.Command, f *Factory) error {
	global := globalFlagArgs(c)
	if _, err := f.shellLabel(); err != nil {
		return err
	}
	// A script of many commands makes much short-lived garbage (each
	// line's words, transaction, entity and printer; a command tree for
	// a command not reused) and keeps little.
	defer collectLess(400)()
	var trees lineTrees
	kept := &keptDB{}
	defer kept.letGo()
	f.kept = kept // completion's reads and the first check use it too
	cfg := shell.Config{
		IO: f.IO,
		Exec: func(ctx context.Context, sess *shell.Session, ios *iostreams.IOStreams, args []string) int {
			args = append(append([]string{}, global...), args...)
			tree, line, reused := trees.tree(f, ios, sess, args)
			if kept.serves(tree, args) {
				line.kept = kept
			}
			return executeAs(ctx, tree, args, ios, true, reused)
		},
		Report: func(err error) int {
			return reportError(context.Background(), f.IO, err, true)
		},
		Tree: func() *cobra.Command { return NewRoot(f.IO) },
		Read: func(ctx context.Context, fn func(backend.Backend) error) error {
			err := f.Read(ctx, "", fn)
			if errors.Is(err, errNoDatabase) {
				return shell.ErrNoDatabase
			}
			return err
		},
		Check: func(ctx context.Context) error {
			// Open once, so that a file locked by another process is said
			// at once; a file not there yet is left to the first command
			// that writes (nothing is created before). A person at the
			// prompt is told before typing when a writer could not get the
			// file: the file is opened for writing. A script's lines run
			// as they would one by one on the command line: the file is
			// opened for reading (a reader beside it is no obstacle to
			// them, and the checks of a file opened for writing, which
			// walk its tree, wait for the first line that writes).
			if err := f.needDatabase("", ""); err != nil {
				if errors.Is(err, errNoDatabase) {
					return nil
				}
				return err
			}
			if !f.IO.InTTY {
				return f.Read(ctx, "", func(backend.Backend) error { return nil })
			}
			return f.Write(ctx, func(backend.Backend) error { return nil })
		},
		Label: func() string {
			// Resolved again: a tstable serve may have started or stopped
			// holding the file since the last command.
			now := *f
			now.target = f.resolveAgain
			label, _ := now.shellLabel()
			return label
		},
		HistoryPath: shell.DefaultHistoryPath(),
	}
	if status := shell.Run(c.Context(), cfg); status != ExitOK {
		return &silentError{status: status}
	}
	return nil
}

// globalFlagArgs returns the persistent flags set on the command line
// (--db, -o, …) as arguments, so every command the shell runs sees them.
func globalFlagArgs(c *cobra.Command) []string {
	var out []string
	c.Root().PersistentFlags().VisitAll(func(fl *pflag.Flag) {
		if fl.Changed {
			out = append(out, "--"+fl.Name+"="+fl.Value.String())
		}
	})
	return out
}

// shellLabel names the storage in the shell's prompt: the remote account,
// nothing for the default local database, else the file's name.
func (f *Factory) shellLabel() (string, error) {
	t, err := f.Target()
	switch {
	case err != nil:
		return "", err
	case t.Served != "":
		return "served " + filepath.Base(t.Path), nil
	case t.IsRemote():
		account, _, err := t.Remote.Where()
		if err != nil {
			return "", err
		}
		return "remote " + account, nil
	case t.Path == defaultDBPath():
		return "", nil
	}
	return filepath.Base(t.Path), nil
}
