package cmd

// Session is what a command may read and update of the interactive
// shell's state while it runs inside the shell. The shell implements it
// and hands it to the command tree it builds for each line; outside the
// shell there is none (Factory.Session is nil).
type Session interface {
	// ExplainFooter reports whether query results get a one-line summary
	// of their class, scanned count and time.
	ExplainFooter() bool
	// ShowTiming reports whether the footer carries the query's time.
	ShowTiming() bool
	// Expanded is the shell's choice of expanded display: "on", "off",
	// or "" (auto) — the default of --expanded inside the shell.
	Expanded() string
	// QueryDone records the query just run and its continuation token
	// ("" when it returned everything), for the shell's `next`.
	QueryDone(args []string, continuation string)
}
