package shell

import (
	"context"
	"fmt"
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
	// command tree under ctx, which carries the Session, and returns its
	// exit status. It writes its own output and errors.
	Exec func(ctx context.Context, args []string) int
	// Tree builds a command tree for completion and for reading commands'
	// usage lines; it is never executed.
	Tree func() *cobra.Command
	// Read opens storage for reading, for completion and for `use`.
	Read completions.ReadFunc
	// Check runs once before the first line; an error (the database is
	// locked by another process, say) is printed and ends the shell.
	Check func(ctx context.Context) error
	// Label names the backend in the prompt and the banner ("" for the
	// local default).
	Label string
	// HistoryPath is the file of shared history ("" keeps none).
	HistoryPath string
}

// Exit statuses of Run.
const (
	exitOK     = 0
	exitFailed = 1
)

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
			fmt.Fprintln(cfg.IO.ErrOut, "error: "+err.Error())
			return exitFailed
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
}

func newShell(cfg Config) *shell {
	s := &shell{cfg: cfg, sess: &Session{Explain: cfg.IO.InTTY}}
	if cfg.Read != nil {
		s.cache = completions.NewCache(cfg.Read)
	}
	if cfg.Tree != nil {
		s.tree = cfg.Tree()
	}
	s.line = &completions.Line{
		Root:   s.tree,
		Table:  func() string { return s.sess.Table },
		Extra:  metaSuggestions,
		Hidden: []string{"shell", "completion", "help"},
	}
	if s.cache != nil {
		s.line.Source = s.cache
	}
	s.history = openHistory(cfg.HistoryPath)
	return s
}

// prompt is the prefix before the cursor: "tstable:Employees> ".
func (s *shell) prompt() string {
	var b strings.Builder
	b.WriteString("tstable")
	if s.cfg.Label != "" {
		b.WriteString("[" + s.cfg.Label + "]")
	}
	if s.sess.Table != "" {
		b.WriteString(":" + s.sess.Table)
	}
	b.WriteString("> ")
	return b.String()
}
