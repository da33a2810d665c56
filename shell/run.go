package shell

import (
	"context"
	"errors"
	"fmt"
	"strings"
	"sync"
	"time"
	"unicode"

	"github.com/spf13/cobra"
	"github.com/tstable/tstable/cmdspec"
	"github.com/tstable/tstable/completions"
)

// runner runs one command at a time and lets an interrupt cancel it.
type runner struct {
	mu     sync.Mutex
	cancel context.CancelFunc
}

// run calls fn with a context that Interrupt cancels.
func (r *runner) run(ctx context.Context, fn func(context.Context) int) int {
	ctx, cancel := context.WithCancel(ctx)
	r.mu.Lock()
	r.cancel = cancel
	r.mu.Unlock()
	defer func() {
		r.mu.Lock()
		r.cancel = nil
		r.mu.Unlock()
		cancel()
	}()
	return fn(ctx)
}

// Interrupt cancels the running command, if any, and reports whether
// there was one.
func (r *runner) Interrupt() bool {
	r.mu.Lock()
	defer r.mu.Unlock()
	if r.cancel == nil {
		return false
	}
	r.cancel()
	return true
}

// execLine runs one line and returns its exit status, and whether the
// shell should end.
func (s *shell) execLine(ctx context.Context, line string) (status int, quit bool) {
	line = strings.TrimSpace(line)
	if line == "" || strings.HasPrefix(line, "#") {
		return cmdspec.ExitOK, false
	}
	args, err := splitLine(line)
	if err != nil {
		return s.fail(cmdspec.Usagef("", "%v (quote a word with spaces as a shell does: --filter \"LastName eq 'Jones'\")", err)), false
	}
	if len(args) > 0 && args[0] == "tstable" { // pasted from a script
		args = args[1:]
	}
	if len(args) == 0 {
		return cmdspec.ExitOK, false
	}
	if st, handled, quit := s.meta(ctx, args); handled {
		return st, quit
	}
	cmd, rest, err := s.findCommand(args) // once a line: finding is most of a small command's cost
	args = s.withTable(ctx, args, cmd, rest, err)
	status = s.execTimed(ctx, args)
	s.afterCommand(ctx, cmd, err, status)
	return status, false
}

// splitLine splits a line into words as a POSIX shell does, but for a
// line that starts with one of psql's backslash commands (\x, \q,
// \timing), or help and one: that command is kept as typed.
func splitLine(line string) ([]string, error) {
	if rest, ok := strings.CutPrefix(line, "help "); ok && strings.HasPrefix(strings.TrimSpace(rest), `\`) {
		words, err := splitLine(strings.TrimSpace(rest))
		return append([]string{"help"}, words...), err
	}
	if !strings.HasPrefix(line, `\`) {
		return completions.SplitLine(line)
	}
	i := strings.IndexFunc(line, unicode.IsSpace)
	if i < 0 {
		return []string{line}, nil
	}
	rest, err := completions.SplitLine(line[i:])
	return append([]string{line[:i]}, rest...), err
}

// execTimed runs args through the command tree and, with timing on, says
// how long it took, unless a query's footer said it already.
func (s *shell) execTimed(ctx context.Context, args []string) int {
	s.sess.queried = false
	began := time.Now()
	status := s.exec(ctx, args)
	if s.cfg.IO.InTTY {
		// Only the prompt shows the label: lines read from a file or a
		// pipe ask nothing of the file system for it.
		s.refreshLabel()
	}
	if s.sess.Timing && !(s.sess.queried && s.sess.Explain) {
		fmt.Fprintf(s.cfg.IO.ErrOut, "Time: %.1f ms\n", float64(time.Since(began).Microseconds())/1000)
	}
	return status
}

// exec runs args through the command tree with the session, its output
// through the pager when that is on.
func (s *shell) exec(ctx context.Context, args []string) int {
	ios, done := s.commandStreams()
	defer done()
	return s.runner.run(ctx, func(ctx context.Context) int {
		return s.cfg.Exec(ctx, s.sess, ios, args)
	})
}

// fail reports an error of the shell's own, as every command's errors are
// reported, and returns its exit status.
func (s *shell) fail(err error) int { return s.cfg.Report(err) }

// afterCommand keeps the session and the completion cache in step with
// what a command did (cmd, or the error of finding it): data may have
// changed after a command that writes, and the table in use is forgotten
// when it is deleted.
func (s *shell) afterCommand(ctx context.Context, cmd *cobra.Command, err error, status int) {
	if err == nil && !cmdspec.IsWrite(cmd) {
		return
	}
	if s.cache != nil {
		s.cache.Invalidate()
	}
	if status == cmdspec.ExitOK && s.sess.Table != "" && !s.isTable(ctx, s.sess.Table) {
		fmt.Fprintf(s.cfg.IO.ErrOut, "(table %s was deleted; no table in use now)\n", s.sess.Table)
		s.sess.Table = ""
	}
}

// findCommand finds the command args name in the tree.
func (s *shell) findCommand(args []string) (*cobra.Command, []string, error) {
	if s.tree == nil {
		return nil, nil, errors.New("no command tree")
	}
	return cmdspec.Find(s.tree, args)
}

// withTable puts the table chosen with `use` in front of a table
// command's arguments when they do not name a table, by the rule
// completion follows too (cmdspec.TableImplied): `get Sales 00010` becomes
// `get Employees Sales 00010`, and `query --filter …` becomes
// `query Employees --filter …`, but `get Logs P1` stays as typed. cmd,
// rest and err are what findCommand found for args.
func (s *shell) withTable(ctx context.Context, args []string, cmd *cobra.Command, rest []string, err error) []string {
	if s.sess.Table == "" {
		return args
	}
	if err != nil || cmd == s.tree {
		return args
	}
	if !cmdspec.TableImplied(cmd, cmdspec.Positionals(cmd, rest), func(name string) bool { return s.isTable(ctx, name) }) {
		return args
	}
	path := len(args) - len(rest) // the words naming the command
	out := append([]string{}, args[:path]...)
	out = append(out, s.sess.Table)
	return append(out, rest...)
}

func (s *shell) isTable(ctx context.Context, name string) bool {
	if s.cache == nil {
		return false
	}
	return completions.HasTable(ctx, s.cache, name)
}
