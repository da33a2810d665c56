package shell

import (
	"context"
	"errors"
	"fmt"
	"sort"
	"strings"

	"github.com/tstable/tstable/cmdspec"
	"github.com/tstable/tstable/completions"
	"github.com/tstable/tstable/odata"
	"github.com/tstable/tstable/store"
)

// metaSuggestions are the shell's own commands, offered by completion
// beside the command tree's.
var metaSuggestions = []completions.Suggestion{
	{Text: "use", Description: "use TABLE: later commands need no table argument"},
	{Text: "next", Description: "the next page of the last query"},
	{Text: "explain", Description: "explain on|off: query class and counts under every result (or explain TABLE)"},
	{Text: "expanded", Description: "expanded on|off|auto: one property per line (auto: when a table would not fit)"},
	{Text: "help", Description: "help [COMMAND]: the shell's commands, or one command's help"},
	{Text: "exit", Description: "leave the shell (also Ctrl-D)"},
}

// meta runs the shell's own commands. handled is false for any other line.
func (s *shell) meta(ctx context.Context, args []string) (status int, handled, quit bool) {
	out := s.cfg.IO.Out
	switch args[0] {
	case "exit", "quit", `\q`:
		return cmdspec.ExitOK, true, true
	case "use":
		return s.use(ctx, args[1:]), true, false
	case "next":
		if len(args) > 1 {
			return s.fail(cmdspec.Usagef("", "next takes no arguments; it continues the last query")), true, false
		}
		if s.sess.Continuation == "" {
			return s.fail(errors.New("no more pages: the last query returned everything (or run a query first)")), true, false
		}
		next := append(append([]string{}, s.sess.LastQuery...), "--continuation", s.sess.Continuation)
		return s.exec(ctx, next), true, false
	case "explain":
		if len(args) == 2 && (args[1] == "on" || args[1] == "off") {
			s.sess.Explain = args[1] == "on"
			if s.cfg.IO.InTTY {
				fmt.Fprintf(out, "explain is %s\n", args[1])
			}
			return cmdspec.ExitOK, true, false
		}
	case "expanded", `\x`:
		switch {
		case len(args) == 1 && args[0] == `\x`: // psql's toggle
			if s.sess.Expand == "on" {
				s.sess.Expand = "off"
			} else {
				s.sess.Expand = "on"
			}
		case len(args) == 2 && (args[1] == "on" || args[1] == "off" || args[1] == "auto"):
			s.sess.Expand = strings.TrimSuffix(args[1], "auto")
		case len(args) == 1:
		default:
			return s.fail(cmdspec.Usagef("", "expanded takes on, off or auto")), true, false
		}
		mode := s.sess.Expand
		if mode == "" {
			mode = "auto"
		}
		fmt.Fprintf(out, "expanded display is %s\n", mode)
		return cmdspec.ExitOK, true, false
	case "help":
		if len(args) > 1 {
			return s.exec(ctx, append(args[1:], "--help")), true, false
		}
		s.help()
		return cmdspec.ExitOK, true, false
	}
	return 0, false, false
}

// use chooses the table that later commands act on.
func (s *shell) use(ctx context.Context, args []string) int {
	out := s.cfg.IO.Out
	switch len(args) {
	case 0:
		if s.sess.Table == "" {
			fmt.Fprintln(out, "no table in use (use TABLE chooses one)")
		} else {
			fmt.Fprintln(out, s.sess.Table)
		}
		return cmdspec.ExitOK
	case 1:
	default:
		return s.fail(cmdspec.Usagef("", "use takes one table name"))
	}
	if s.cfg.Read == nil {
		s.sess.Table = args[0]
		return cmdspec.ExitOK
	}
	if s.cache != nil {
		s.cache.Invalidate()
	}
	// Read the tables here rather than through the completion cache, so
	// that a database locked or damaged is said as such.
	var tables []string
	if err := s.cfg.Read(ctx, func(b store.Backend) error {
		var err error
		tables, err = b.ListTables(ctx)
		return err
	}); err != nil && !errors.Is(err, ErrNoDatabase) {
		return s.fail(err)
	}
	for _, t := range tables {
		if strings.EqualFold(t, args[0]) {
			s.sess.Table = t
			s.sess.LastQuery, s.sess.Continuation = nil, ""
			return cmdspec.ExitOK
		}
	}
	hint := "create it with: table create " + args[0]
	if len(tables) > 0 {
		hint = "the tables are " + strings.Join(tables, ", ") + "; or " + hint
	}
	return s.fail(odata.Errorf(odata.CodeTableNotFound, "table %q does not exist (%s)", args[0], hint))
}

// help lists the shell's commands and the command tree's.
func (s *shell) help() {
	w := s.cfg.IO.Out
	fmt.Fprintln(w, "Shell commands:")
	for _, m := range metaSuggestions {
		fmt.Fprintf(w, "  %-9s %s\n", m.Text, m.Description)
	}
	if s.tree != nil {
		fmt.Fprintln(w, "\nCommands (as on the command line, without \"tstable\"):")
		var names []string
		short := map[string]string{}
		for _, c := range s.tree.Commands() {
			if !c.IsAvailableCommand() || c.Name() == "shell" || c.Name() == "completion" || c.Name() == "help" {
				continue
			}
			names = append(names, c.Name())
			short[c.Name()] = c.Short
		}
		sort.Strings(names)
		for _, n := range names {
			fmt.Fprintf(w, "  %-9s %s\n", n, short[n])
		}
	}
	fmt.Fprintln(w, `
Quote as a POSIX shell does: query --filter "LastName eq 'Jones'" (on
Windows a backslash is a character of the word, as in C:\data\rows.jsonl).
Tab completes commands, flags, tables, and inside --filter properties,
operators and literals (on an empty line it lists the commands). Ctrl-R
searches the history (Ctrl-R again for older, Enter runs, Ctrl-G leaves).
Ctrl-C cancels the line or the running query; Ctrl-D or exit leaves.
help COMMAND shows a command's flags; help filter the $filter language.`)
}
