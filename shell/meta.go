package shell

import (
	"context"
	"errors"
	"fmt"
	"strings"

	"github.com/tstable/tstable/backend"
	"github.com/tstable/tstable/cmdspec"
	"github.com/tstable/tstable/completions"
	"github.com/tstable/tstable/odata"
)

// metaCommand is one of the shell's own commands. Its other names are the
// words people bring from psql, sqlite3 and bash (\q, .quit, \x, \timing,
// .timer, \dt, .tables, \?).
type metaCommand struct {
	name    string
	aliases []string
	usage   string // the synopsis help shows: "use [TABLE]"
	short   string // one line, for the list of commands and completion
	long    string // what help NAME adds
	// run runs it; handled false passes the line on to the command tree
	// (explain TABLE is the explain command).
	run func(s *shell, ctx context.Context, name string, args []string) (status int, handled, quit bool)
}

// metaCommands are the shell's own commands, in the order help lists
// them.
var metaCommands []metaCommand

func init() {
	metaCommands = []metaCommand{
		{name: "use", usage: "use [TABLE]", short: "later commands need no table argument", long: helpUse, run: runUse},
		{name: "next", usage: "next", short: "the next page of the last query", long: helpNext, run: runNext},
		{name: "explain", usage: "explain on|off|draw", short: "query class and counts under every query result (draw: and the key space) (explain TABLE is the command)", long: helpExplain, run: runExplain},
		{name: "expanded", aliases: []string{`\x`}, usage: `expanded on|off|auto (\x toggles)`, short: "one property per line (auto: when a table would not fit)", long: helpExpanded, run: runExpanded},
		{name: "timing", aliases: []string{`\timing`, ".timer"}, usage: `timing on|off (\timing toggles, .timer on|off)`, short: "how long each command took", long: helpTiming, run: runTiming},
		{name: "pager", aliases: []string{`\pset`}, usage: `pager on|off (\pset pager toggles)`, short: "long results through $PAGER (default less -S)", long: helpPager, run: runPager},
		{name: ".tables", aliases: []string{`\dt`}, usage: `.tables (\dt)`, short: "the tables (table list)", long: helpTables, run: runTables},
		{name: "history", usage: "history [N]", short: "the lines typed, numbered (the last N)", long: helpHistory, run: runHistory},
		{name: "clear", usage: "clear", short: "clear the screen (also Ctrl-L)", long: helpClear, run: runClear},
		{name: "help", aliases: []string{`\?`, ".help"}, usage: "help [COMMAND]", short: "the shell's commands, or one command's help", long: helpHelp, run: runHelp},
		{name: "exit", aliases: []string{"quit", `\q`, ".quit", ".exit"}, usage: `exit (quit, \q, .quit; Ctrl-D)`, short: "leave the shell", long: helpExit, run: runExit},
	}
}

// findMeta finds the shell's command named name (or one of its aliases).
func findMeta(name string) (*metaCommand, bool) {
	for i := range metaCommands {
		m := &metaCommands[i]
		if m.name == name {
			return m, true
		}
		for _, a := range m.aliases {
			if a == name {
				return m, true
			}
		}
	}
	return nil, false
}

// metaSuggestions are the shell's own commands, offered by completion
// beside the command tree's; the words of other shells (.tables, \dt)
// are left to those who know them.
func metaSuggestions() []completions.Suggestion {
	out := make([]completions.Suggestion, 0, len(metaCommands))
	for _, m := range metaCommands {
		if !strings.HasPrefix(m.name, ".") {
			out = append(out, completions.Suggestion{Text: m.name, Description: m.short})
		}
	}
	return out
}

// meta runs the shell's own commands. handled is false for any other line.
func (s *shell) meta(ctx context.Context, args []string) (status int, handled, quit bool) {
	m, ok := findMeta(args[0])
	if !ok {
		if strings.HasPrefix(args[0], `\`) || (strings.HasPrefix(args[0], ".") && len(args[0]) > 1) {
			return s.fail(cmdspec.Usagef("", "unknown shell command %q; help lists the shell's commands", args[0])), true, false
		}
		return 0, false, false
	}
	return m.run(s, ctx, args[0], args[1:])
}

// onOff reads the argument of a switch: on or off, or with none, the
// other state when toggle is set (psql's \x, \timing).
func onOff(name string, args []string, cur, toggle bool) (bool, error) {
	switch {
	case len(args) == 0 && toggle:
		return !cur, nil
	case len(args) == 1 && args[0] == "on":
		return true, nil
	case len(args) == 1 && args[0] == "off":
		return false, nil
	}
	return cur, cmdspec.Usagef("", "%s takes on or off", name)
}

func runUse(s *shell, ctx context.Context, _ string, args []string) (int, bool, bool) {
	return s.use(ctx, args), true, false
}

func runNext(s *shell, ctx context.Context, _ string, args []string) (int, bool, bool) {
	if len(args) > 0 {
		return s.fail(cmdspec.Usagef("", "next takes no arguments; it continues the last query")), true, false
	}
	switch {
	case len(s.sess.LastQuery) == 0:
		fmt.Fprintln(s.cfg.IO.ErrOut, "note: no query to continue: next shows the next page of the last query; run one first")
		return cmdspec.ExitOK, true, false
	case s.sess.Continuation == "":
		fmt.Fprintln(s.cfg.IO.ErrOut, "note: no more pages: the last query returned everything")
		return cmdspec.ExitOK, true, false
	}
	next := append(append([]string{}, s.sess.LastQuery...), "--continuation", s.sess.Continuation)
	return s.execTimed(ctx, next), true, false
}

func runExplain(s *shell, _ context.Context, _ string, args []string) (int, bool, bool) {
	if len(args) != 1 || (args[0] != "on" && args[0] != "off" && args[0] != "draw") {
		return 0, false, false // explain TABLE …: the command
	}
	s.sess.Explain = args[0] != "off"
	s.sess.Draw = args[0] == "draw"
	s.say("explain is %s", args[0])
	return cmdspec.ExitOK, true, false
}

func runExpanded(s *shell, _ context.Context, name string, args []string) (int, bool, bool) {
	switch {
	case len(args) == 0 && name == `\x`: // psql's toggle
		if s.sess.Expand == "on" {
			s.sess.Expand = "off"
		} else {
			s.sess.Expand = "on"
		}
	case len(args) == 1 && (args[0] == "on" || args[0] == "off" || args[0] == "auto"):
		s.sess.Expand = strings.TrimSuffix(args[0], "auto")
	case len(args) == 0:
	default:
		return s.fail(cmdspec.Usagef("", "%s takes on, off or auto", name)), true, false
	}
	mode := s.sess.Expand
	if mode == "" {
		mode = "auto"
	}
	fmt.Fprintf(s.cfg.IO.Out, "expanded display is %s\n", mode)
	return cmdspec.ExitOK, true, false
}

func runTiming(s *shell, _ context.Context, name string, args []string) (int, bool, bool) {
	on, err := onOff(name, args, s.sess.Timing, name == `\timing`)
	if err != nil {
		return s.fail(err), true, false
	}
	s.sess.Timing = on
	s.say("timing is %s", onOffText(on))
	return cmdspec.ExitOK, true, false
}

func runPager(s *shell, _ context.Context, name string, args []string) (int, bool, bool) {
	if name == `\pset` {
		if len(args) == 0 || args[0] != "pager" {
			return s.fail(cmdspec.Usagef("", `\pset sets only the pager here: \pset pager [on|off]`)), true, false
		}
		args = args[1:]
	}
	on, err := onOff(name, args, s.pager.on, name == `\pset`)
	if err != nil {
		return s.fail(err), true, false
	}
	s.pager.on = on
	s.say("pager is %s (%s)", onOffText(on), s.pager.describe())
	return cmdspec.ExitOK, true, false
}

func onOffText(on bool) string {
	if on {
		return "on"
	}
	return "off"
}

func runTables(s *shell, ctx context.Context, name string, args []string) (int, bool, bool) {
	if len(args) > 0 {
		return s.fail(cmdspec.Usagef("", "%s takes no arguments; it lists the tables", name)), true, false
	}
	return s.execTimed(ctx, []string{"table", "list"}), true, false
}

func runHistory(s *shell, _ context.Context, _ string, args []string) (int, bool, bool) {
	n := len(s.history.lines)
	if len(args) == 1 {
		if _, err := fmt.Sscanf(args[0], "%d", &n); err != nil || n < 0 {
			return s.fail(cmdspec.Usagef("", "history takes a number of lines; got %q", args[0])), true, false
		}
	} else if len(args) > 1 {
		return s.fail(cmdspec.Usagef("", "history takes at most one number")), true, false
	}
	s.history.print(s.cfg.IO.Out, n)
	return cmdspec.ExitOK, true, false
}

func runClear(s *shell, _ context.Context, _ string, args []string) (int, bool, bool) {
	if len(args) > 0 {
		return s.fail(cmdspec.Usagef("", "clear takes no arguments")), true, false
	}
	if s.cfg.IO.OutTTY {
		fmt.Fprint(s.cfg.IO.Out, "\x1b[H\x1b[2J\x1b[3J")
	}
	return cmdspec.ExitOK, true, false
}

func runHelp(s *shell, ctx context.Context, _ string, args []string) (int, bool, bool) {
	if len(args) == 0 {
		s.help()
		return cmdspec.ExitOK, true, false
	}
	if m, ok := findMeta(args[0]); ok && len(args) == 1 {
		s.metaHelp(m)
		return cmdspec.ExitOK, true, false
	}
	return s.exec(ctx, append(args, "--help")), true, false
}

func runExit(*shell, context.Context, string, []string) (int, bool, bool) {
	return cmdspec.ExitOK, true, true
}

// say writes a confirmation of a change of the shell's settings, on a
// terminal only (a replayed file prints what the command line prints).
func (s *shell) say(format string, args ...any) {
	if s.cfg.IO.InTTY {
		fmt.Fprintf(s.cfg.IO.Out, format+"\n", args...)
	}
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
	if err := s.cfg.Read(ctx, func(b backend.Backend) error {
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
