// Package shell is tstable's interactive shell: a go-prompt line editor
// over the same cobra command tree as the command line.
package shell

// Session is the shell's state that commands read and update while they
// run inside it. The command tree sees it through an interface of its own
// (ExplainFooter, QueryDone); outside the shell there is none.
type Session struct {
	// Table is the table chosen with `use`, or "".
	Table string
	// Explain shows the query class and counts under every query result.
	Explain bool
	// Draw draws the table's key space under every query result too
	// (explain draw).
	Draw bool
	// LastQuery is the argument list (without "tstable") of the last query
	// that returned a continuation, and Continuation is that token; `next`
	// re-runs LastQuery with --continuation. Both are cleared when a query
	// completes.
	LastQuery    []string
	Continuation string
	// Expand is the expanded display chosen with `expanded`: "on", "off"
	// or "" (auto).
	Expand string
	// Timing says after each command how long it took (`timing on`; off
	// by default, as psql's \timing).
	Timing bool

	footerTime bool // a query's footer carries its time (interactively, not when replaying lines)

	queried bool // the command running is a query (it called QueryDone)
}

// ShowTiming reports whether a query's footer carries its time: always
// in the interactive shell, never when replaying lines (whose output is
// what the command line prints), or with timing on.
func (s *Session) ShowTiming() bool { return s.footerTime || s.Timing }

// Expanded is the expanded display chosen in the shell: "on", "off" or
// "" for auto.
func (s *Session) Expanded() string { return s.Expand }

// ExplainFooter reports whether query results get the one-line summary of
// their class and counts.
func (s *Session) ExplainFooter() bool { return s.Explain }

// ExplainDraw reports whether query results get the picture of the
// table's key space under their summary.
func (s *Session) ExplainDraw() bool { return s.Explain && s.Draw }

// QueryDone records the query just run: its arguments and continuation
// token when there are more pages (for `next`), else nothing.
func (s *Session) QueryDone(args []string, continuation string) {
	s.queried = true
	if continuation == "" {
		s.LastQuery, s.Continuation = nil, ""
		return
	}
	s.LastQuery, s.Continuation = args, continuation
}
