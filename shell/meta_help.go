package shell

import (
	"fmt"
	"sort"
	"strings"

	"github.com/tstable/tstable/iostreams"
)

// What help NAME says of each of the shell's own commands.
const (
	helpUse = `Later commands act on TABLE when they name no table: get PK RK,
query --filter …, stats. The prompt shows it. A line that names another
table keeps it (get Logs P1 reads Logs). use alone says which table is in
use.`
	helpNext = `Runs the last query again from where its page ended (its continuation
token), as query --continuation does. The footer says "more: next" while
there is a next page; after the last page, next says so in a note.`
	helpExplain = `explain on shows under every query result its class (point, range,
partition scan, table scan), how many entities it scanned and, with timing
on, how long it took; explain off hides it. On by default on a terminal.
explain draw adds the picture of the table's key space (what the query
read and returned among its partitions); it reads the table once more.
explain TABLE --filter … runs the explain command instead (its help:
explain --help).`
	helpExpanded = `expanded on shows entities one property per line (-[ 1 ]--- then
Name | value, as psql's expanded display); off a table; auto (the default)
one property per line when the keys would not fit a table. \x toggles
between on and off; -x or --expanded on one command overrides it.`
	helpTiming = `timing on says how long each command took, as "Time: 1.2 ms" after it (a
query whose footer says it already gets no second line). Off by default,
as in psql: a query's footer carries its time anyway. \timing toggles it,
as in psql; .timer on|off as in sqlite3.`
	helpPager = `pager on sends a command's output through a pager when it is longer
than the screen: $PAGER, else less -S (long lines are cut, not wrapped;
arrows scroll sideways, q leaves). A table in the pager is not cut to the
terminal's width; a query's footer comes after the pager, on the screen.
Only on a terminal, never when output is piped or redirected. \pset pager
toggles it, as in psql.`
	helpTables  = `Lists the tables, as table list does.`
	helpHistory = `Lists the lines typed in this and earlier sessions, numbered, oldest
first (the last N with a number). Up and Down walk them; Ctrl-R searches
them. Kept in $XDG_STATE_HOME/tstable/history, secrets redacted.`
	helpClear = `Clears the screen, as Ctrl-L does.`
	helpHelp  = `help lists the shell's commands and the command line's; help COMMAND
shows one command's help; help filter the $filter language.`
	helpExit = `Leaves the shell (also quit, \q, .quit, or Ctrl-D on an empty line).`
)

// help lists the shell's commands and the command tree's, each line
// wrapped to the terminal's width.
func (s *shell) help() {
	var b strings.Builder
	b.WriteString("Shell commands:\n")
	for _, m := range metaCommands {
		fmt.Fprintf(&b, "  %-9s %s\n", m.name, m.short)
	}
	if s.tree != nil {
		b.WriteString("\nCommands (as on the command line, without \"tstable\"):\n")
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
			fmt.Fprintf(&b, "  %-9s %s\n", n, short[n])
		}
	}
	fmt.Fprint(s.cfg.IO.Out, iostreams.Wrap(b.String(), s.helpWidth(), listedName))
	fmt.Fprintln(s.cfg.IO.Out, "\n"+s.paragraph(`Quote as a POSIX shell does: query --filter "LastName eq 'Jones'" (on
Windows a backslash is a character of the word, as in C:\data\rows.jsonl);
a line with an open quote goes on on the next line. Tab completes commands,
flags, tables, keys, and inside --filter properties, operators and literals
(on an empty line it lists the commands). Ctrl-R searches the history.
Ctrl-C cancels the line or the running query; Ctrl-D or exit leaves.`)+"\n"+s.paragraph(`help COMMAND shows a command's help (help use, help pager, help query);
help filter the $filter language.`))
}

// listedName is the start of a line of help's lists ("  use       "),
// which the rows it wraps to are indented under.
func listedName(line string) string {
	if len(line) > listIndent && strings.HasPrefix(line, "  ") && strings.TrimSpace(line[:listIndent]) != "" {
		return line[:listIndent]
	}
	return ""
}

// listIndent is where the text of a line of help's lists begins.
const listIndent = len("  ") + 9 + len(" ")

// helpWidth is the width help wraps at: the terminal's (80 when it is
// not known).
func (s *shell) helpWidth() int {
	if w := s.cfg.IO.TermWidth(); w > 0 {
		return w
	}
	return 80
}

// paragraph is text, a paragraph written over several lines, flowed
// again to the help's width (at most 80 columns, to be read).
func (s *shell) paragraph(text string) string {
	return iostreams.Wrap(strings.Join(strings.Fields(text), " "), min(s.helpWidth(), 80), nil)
}

// metaHelp is help NAME for one of the shell's commands.
func (s *shell) metaHelp(m *metaCommand) {
	w := s.cfg.IO.Out
	fmt.Fprintf(w, "%s\n\n%s\n", iostreams.Wrap(m.usage+" — "+m.short+" (a command of the shell)", s.helpWidth(), nil), s.paragraph(m.long))
	if len(m.aliases) > 0 {
		fmt.Fprintf(w, "\nAlso: %s\n", strings.Join(m.aliases, ", "))
	}
}
