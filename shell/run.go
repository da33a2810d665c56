package shell

import (
	"context"
	"fmt"
	"strings"
	"sync"

	"github.com/google/shlex"
	"github.com/spf13/cobra"
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
		return exitOK, false
	}
	args, err := shlex.Split(line)
	if err != nil {
		fmt.Fprintf(s.cfg.IO.ErrOut, "error: usage: %v (quote as a POSIX shell does: --filter \"LastName eq 'Jones'\")\n", err)
		return 2, false
	}
	if len(args) > 0 && args[0] == "tstable" { // pasted from a script
		args = args[1:]
	}
	if len(args) == 0 {
		return exitOK, false
	}
	if st, handled, quit := s.meta(ctx, args); handled {
		return st, quit
	}
	args = s.withTable(ctx, args)
	status = s.exec(ctx, args)
	s.afterCommand(args, status)
	return status, false
}

// exec runs args through the command tree with the session in ctx.
func (s *shell) exec(ctx context.Context, args []string) int {
	return s.runner.run(WithSession(ctx, s.sess), func(ctx context.Context) int {
		return s.cfg.Exec(ctx, args)
	})
}

// readOnly are the commands after which cached completion data stays
// valid.
var readOnly = map[string]bool{
	"query": true, "get": true, "explain": true, "export": true, "stats": true,
	"lint": true, "advise": true, "learn": true, "help": true, "status": true,
}

// afterCommand keeps the session and the completion cache in step with
// what a command did.
func (s *shell) afterCommand(args []string, status int) {
	if readOnly[args[0]] || (args[0] == "table" && len(args) > 1 && args[1] == "list") {
		return
	}
	if s.cache != nil {
		s.cache.Invalidate()
	}
	if status == exitOK && len(args) >= 3 && args[0] == "table" && args[1] == "delete" && strings.EqualFold(args[2], s.sess.Table) {
		fmt.Fprintf(s.cfg.IO.ErrOut, "(table %s was in use; no table in use now)\n", s.sess.Table)
		s.sess.Table = ""
	}
}

// withTable puts the table chosen with `use` in front of a table
// command's arguments when they do not name a table: `get Sales 00010`
// becomes `get Employees Sales 00010`, and `query --filter …` becomes
// `query Employees --filter …`. The table is inserted when fewer
// arguments are given than the command needs, or when the first argument
// is not an existing table and the command takes one more.
func (s *shell) withTable(ctx context.Context, args []string) []string {
	if s.sess.Table == "" || s.tree == nil {
		return args
	}
	cmd, rest, err := s.tree.Find(args)
	if err != nil || cmd == s.tree || cmd.Annotations[completions.TableAnnotation] == "" {
		return args
	}
	positional := positionals(cmd, rest)
	required, max := argCounts(cmd)
	insert := len(positional) < required ||
		(len(positional) < max && !s.isTable(ctx, positional[0]))
	if !insert {
		return args
	}
	path := len(args) - len(rest) // the words naming the command
	out := append([]string{}, args[:path]...)
	out = append(out, s.sess.Table)
	return append(out, rest...)
}

// positionals returns the arguments of rest that are not flags or flag
// values, as cobra will see them.
func positionals(cmd *cobra.Command, rest []string) []string {
	fs := cmd.Flags()
	fs.AddFlagSet(cmd.InheritedFlags())
	var out []string
	for i := 0; i < len(rest); i++ {
		w := rest[i]
		if w == "--" {
			return append(out, rest[i+1:]...)
		}
		if !strings.HasPrefix(w, "-") || w == "-" {
			out = append(out, w)
			continue
		}
		if strings.Contains(w, "=") {
			continue
		}
		var name string
		if strings.HasPrefix(w, "--") {
			name = w[2:]
		} else if len(w) == 2 {
			if f := fs.ShorthandLookup(w[1:]); f != nil {
				name = f.Name
			}
		}
		if f := fs.Lookup(name); f != nil && f.NoOptDefVal == "" {
			i++ // its value
		}
	}
	return out
}

// argCounts reads the usage line: "get TABLE PK RK" needs 3 and takes 3,
// "insert TABLE [JSON|-]" needs 1 and takes 2.
func argCounts(cmd *cobra.Command) (required, max int) {
	for _, f := range strings.Fields(cmd.Use)[1:] {
		if strings.HasPrefix(f, "-") || strings.HasPrefix(f, "[-") {
			break
		}
		max++
		if !strings.HasPrefix(f, "[") {
			required++
		}
	}
	return required, max
}

func (s *shell) isTable(ctx context.Context, name string) bool {
	if s.cache == nil {
		return false
	}
	for _, t := range s.cache.Tables(ctx) {
		if strings.EqualFold(t, name) {
			return true
		}
	}
	return false
}
