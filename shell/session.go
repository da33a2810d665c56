// Package shell is tstable's interactive shell: a go-prompt line editor
// over the same cobra command tree as the command line.
package shell

import "context"

// Session is the shell's state that commands may read and update while they
// run inside the shell. Outside the shell there is no Session.
type Session struct {
	// Table is the table chosen with `use`, or "".
	Table string
	// Explain shows the query class and counts under every query result.
	Explain bool
	// LastQuery is the argument list (without "tstable") of the last query
	// that returned a continuation, and Continuation is that token; `next`
	// re-runs LastQuery with --continuation. Both are cleared when a query
	// completes.
	LastQuery    []string
	Continuation string
}

type sessionKey struct{}

// WithSession returns a context that carries s.
func WithSession(ctx context.Context, s *Session) context.Context {
	return context.WithValue(ctx, sessionKey{}, s)
}

// SessionFrom returns the Session in ctx, or nil outside the shell.
func SessionFrom(ctx context.Context) *Session {
	s, _ := ctx.Value(sessionKey{}).(*Session)
	return s
}
