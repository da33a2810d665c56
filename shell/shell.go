package shell

import (
	"context"
	"errors"
	"strings"

	"github.com/spf13/cobra"
	"github.com/tstable/tstable/completions"
	"github.com/tstable/tstable/iostreams"
)

// Config is what the shell needs from the command line that starts it.
// The shell never implements a command itself: every line that is not one
// of its own conveniences (use, next, explain on|off, help, exit) runs
// through Exec, the same command tree as the command line.
type Config struct {
	IO *iostreams.IOStreams
	// Exec runs one command's arguments (without "tstable") through a new
	// command tree that sees the session, on the streams given (IO, or IO
	// through a pager), and returns its exit status. It writes its own
	// output and errors.
	Exec func(ctx context.Context, sess *Session, io *iostreams.IOStreams, args []string) int
	// Report writes an error of the shell's own (a line that does not
	// parse, `use` of a missing table) as the command line writes errors,
	// and returns its exit status.
	Report func(err error) int
	// Tree builds a command tree for completion and for reading commands'
	// usage lines; it is never executed.
	Tree func() *cobra.Command
	// Read opens storage for reading, for completion and for `use`; with
	// no database file yet it returns ErrNoDatabase.
	Read completions.ReadFunc
	// Check runs once before the first line; an error (the database is
	// locked by another process, say) is printed and ends the shell.
	Check func(ctx context.Context) error
	// Label names the backend in the prompt and the banner ("" for the
	// local default). It is asked again after every command, so that the
	// prompt follows the backend commands really use (a file that a
	// tstable serve started or stopped holding meanwhile). nil: none.
	Label func() string
	// HistoryPath is the file of shared history ("" keeps none).
	HistoryPath string
}

// ErrNoDatabase is what Config.Read returns when there is no database
// file yet: no tables, not a failure.
var ErrNoDatabase = errors.New("no database file")

// Run runs the shell until exit, Ctrl-D or the end of standard input, and
// returns its exit status. On a terminal it is an interactive go-prompt
// shell; otherwise it reads commands line by line, printing no prompt,
// so a file of commands replays as the same command-line calls would.
// Ctrl-C (an interrupt) never ends it: it cancels the line being typed or
// the command running.
func Run(ctx context.Context, cfg Config) int {
	// The shell outlives interrupts: each command gets its own cancel.
	ctx = context.WithoutCancel(ctx)
	s := newShell(cfg)
	if cfg.Check != nil {
		if err := cfg.Check(ctx); err != nil {
			return cfg.Report(err)
		}
	}
	if cfg.IO.InTTY {
		return s.interactive(ctx)
	}
	return s.lines(ctx)
}

// shell is one running shell.
type shell struct {
	cfg     Config
	sess    *Session
	cache   *completions.Cache
	tree    *cobra.Command
	line    *completions.Line
	history *history
	runner  runner
	pager   pagerState
	label   string // Config.Label's answer after the last command
	open    rune   // the command being read goes on: the open quote or '\\' (see openEnd)
}

func newShell(cfg Config) *shell {
	s := &shell{cfg: cfg, sess: &Session{Explain: cfg.IO.InTTY, footerTime: cfg.IO.InTTY}, pager: pagerState{on: cfg.IO.InTTY}}
	if cfg.Read != nil {
		s.cache = completions.NewCache(cfg.Read)
	}
	if cfg.Tree != nil {
		s.tree = cfg.Tree()
	}
	s.line = &completions.Line{
		Root:  s.tree,
		Table: func() string { return s.sess.Table },
		Extra: metaSuggestions(),
	}
	if s.cache != nil {
		s.line.Source = s.cache
	}
	s.history = openHistory(cfg.HistoryPath)
	s.refreshLabel()
	return s
}

// refreshLabel asks Config.Label which backend commands use now.
func (s *shell) refreshLabel() {
	if s.cfg.Label != nil {
		s.label = s.cfg.Label()
	}
}

// prompt is the prefix before the cursor: "tstable:Employees> ", or
// while a command goes on on the next line, the quote it is inside of (or
// a backslash) before the ">": "tstable:Employees\"> ".
func (s *shell) prompt() string {
	var b strings.Builder
	b.WriteString("tstable")
	if s.label != "" {
		b.WriteString("[" + s.label + "]")
	}
	if s.sess.Table != "" {
		b.WriteString(":" + s.sess.Table)
	}
	if s.open != 0 {
		b.WriteRune(s.open)
	}
	b.WriteString("> ")
	return b.String()
}
