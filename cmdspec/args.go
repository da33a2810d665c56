package cmdspec

import (
	"fmt"
	"strings"

	"github.com/spf13/cobra"
)

// Annotation keys on cobra commands.
const (
	argsKey       = "tstable.args"        // the positional argument names, space-separated
	writesKey     = "tstable.writes"      // "true" when the command writes
	namesTableKey = "tstable.names-table" // "true": the first argument names an existing table (not supplied by use)
	notInShellKey = "tstable.not-in-shell"
)

// TableArg is the argument name of a table the command acts on, which
// the shell's `use` may supply.
const TableArg = "TABLE"

func annotate(c *cobra.Command, key, value string) {
	if c.Annotations == nil {
		c.Annotations = map[string]string{}
	}
	c.Annotations[key] = value
}

// Args declares c's positional arguments by name ("TABLE", "PK", "RK";
// "[JSON|-]" in brackets is optional) and sets c.Args to check them, with
// usage errors that name what is missing or unexpected.
func Args(c *cobra.Command, names ...string) {
	annotate(c, argsKey, strings.Join(names, " "))
	required := 0
	for _, n := range names {
		if !strings.HasPrefix(n, "[") {
			required++
		}
	}
	c.Args = func(c *cobra.Command, args []string) error {
		switch {
		case len(args) == 0 && required > 0:
			return Usagef(c.CommandPath(), "%s needs %s", c.CommandPath(), strings.Join(names, " "))
		case len(args) < required:
			return Usagef(c.CommandPath(), "%s needs %s; missing %s", c.CommandPath(), strings.Join(names, " "), strings.Join(names[len(args):required], " "))
		case len(args) > len(names) && c.HasSubCommands():
			return unknownSub(c, args[0])
		case len(args) > len(names) && len(names) == 0:
			return Usagef(c.CommandPath(), "%s takes no arguments; unexpected %q", c.CommandPath(), args[0])
		case len(args) > len(names):
			return Usagef(c.CommandPath(), "%s takes %s; unexpected %q", c.CommandPath(), strings.Join(names, " "), args[len(names)])
		}
		return nil
	}
}

// Writes marks c as a command that changes stored data.
func Writes(c *cobra.Command) { annotate(c, writesKey, "true") }

// NamesTable marks c's first argument as the name of an existing table
// that the user must give (table delete): completion offers the tables,
// and `use` never supplies it.
func NamesTable(c *cobra.Command) { annotate(c, namesTableKey, "true") }

// NotInShell marks a command the shell does not offer (shell, completion,
// and help, which the shell has its own of).
func NotInShell(c *cobra.Command) { annotate(c, notInShellKey, "true") }

// ArgNames returns c's positional argument names without brackets:
// "get TABLE PK RK" gives TABLE, PK, RK.
func ArgNames(c *cobra.Command) []string {
	var out []string
	for _, n := range strings.Fields(c.Annotations[argsKey]) {
		out = append(out, strings.Trim(n, "[]"))
	}
	return out
}

// ArgCounts returns how many positional arguments c needs and takes.
func ArgCounts(c *cobra.Command) (required, max int) {
	for _, n := range strings.Fields(c.Annotations[argsKey]) {
		max++
		if !strings.HasPrefix(n, "[") {
			required++
		}
	}
	return required, max
}

// TakesTable reports whether c's first argument is a table that `use`
// may supply.
func TakesTable(c *cobra.Command) bool {
	names := ArgNames(c)
	return len(names) > 0 && names[0] == TableArg
}

// IsTableArg reports whether c's argument at index i is a table's name
// (for completion).
func IsTableArg(c *cobra.Command, i int) bool {
	names := ArgNames(c)
	return i == 0 && len(names) > 0 && (names[0] == TableArg || c.Annotations[namesTableKey] == "true")
}

// IsWrite reports whether c changes stored data.
func IsWrite(c *cobra.Command) bool { return c.Annotations[writesKey] == "true" }

// InShell reports whether the shell offers c.
func InShell(c *cobra.Command) bool { return c.Annotations[notInShellKey] != "true" }

// TableImplied is the rule for the shell's `use`: given the positional
// arguments typed for c, is the table in use put in front of them? It is
// when c takes a table and either no argument is given, or the first one
// is not an existing table's name and there is room for one more.
// isTable answers whether a name is an existing table.
func TableImplied(c *cobra.Command, positional []string, isTable func(string) bool) bool {
	if !TakesTable(c) {
		return false
	}
	if len(positional) == 0 {
		return true
	}
	_, max := ArgCounts(c)
	return len(positional) < max && !isTable(positional[0])
}

// unknownSub is the usage error for a word that names none of c's
// subcommands, with the likely one when there is one.
func unknownSub(c *cobra.Command, word string) error {
	var subs []string
	for _, s := range c.Commands() {
		if s.IsAvailableCommand() {
			subs = append(subs, s.Name())
		}
	}
	msg := fmt.Sprintf("%s has no command %q; choose %s", c.CommandPath(), word, strings.Join(subs, ", "))
	if c.SuggestionsMinimumDistance <= 0 {
		c.SuggestionsMinimumDistance = 2
	}
	if sugg := c.SuggestionsFor(word); len(sugg) > 0 {
		msg = fmt.Sprintf("%s has no command %q; did you mean %s?", c.CommandPath(), word, strings.Join(sugg, " or "))
	}
	return Usagef(c.CommandPath(), "%s", msg)
}
