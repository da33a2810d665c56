package completions

import (
	"context"
	"sort"
	"strings"

	"github.com/spf13/cobra"
	"github.com/spf13/pflag"
	"github.com/tstable/tstable/cmdspec"
	"github.com/tstable/tstable/odata"
)

// Line completes command lines typed in the shell, from the same cobra
// command tree the command line runs.
type Line struct {
	// Root is the command tree. It is only inspected, never executed.
	Root *cobra.Command
	// Source answers table, property and PartitionKey questions; nil
	// offers no data-dependent suggestions.
	Source Source
	// Table returns the table chosen with `use`, or "".
	Table func() string
	// Extra are commands the shell adds to the tree's (use, next, …).
	Extra []Suggestion
}

// Complete returns the suggestions for line, the text before the cursor.
// Each suggestion's Text replaces what follows the line's last space.
func (l *Line) Complete(ctx context.Context, line string) []Suggestion {
	p := splitPartial(line)
	if len(p.words) == 0 {
		return matchingRaw(line, p.current, l.commandSuggestions(l.Root, true))
	}
	switch strings.ToLower(p.words[0]) {
	case "use":
		if len(p.words) == 1 {
			return matchingRaw(line, p.current, l.tableSuggestions(ctx))
		}
		return nil
	case "explain":
		if len(p.words) == 1 && !strings.HasPrefix(p.current, "-") {
			onOff := []Suggestion{{"on", "show the query class and counts under every result"}, {"off", "hide them"}, {"draw", "and draw the table's key space"}}
			return matchingRaw(line, p.current, append(onOff, l.tableSuggestions(ctx)...))
		}
	case "help":
		if len(p.words) == 1 {
			return matchingRaw(line, p.current, l.commandSuggestions(l.Root, false))
		}
		return nil
	}

	// Walk the command path.
	cmd := l.Root
	rest := p.words
	for len(rest) > 0 && !strings.HasPrefix(rest[0], "-") {
		sub := findSub(cmd, rest[0])
		if sub == nil {
			break
		}
		cmd, rest = sub, rest[1:]
	}
	if cmd == l.Root {
		return nil // an unknown command: nothing sensible to offer
	}

	// Positional arguments given, and a flag waiting for its value.
	positional := cmdspec.Positionals(cmd, rest)
	var pending *pflag.Flag // the last word is a flag still waiting for its value
	for _, w := range rest {
		if pending != nil {
			pending = nil
			continue
		}
		if f := cmdspec.LookupFlag(cmd, w); f != nil && cmdspec.TakesValue(f) && !strings.Contains(w, "=") {
			pending = f
		}
	}
	table := l.effectiveTable(ctx, cmd, positional)

	switch {
	case pending != nil:
		return l.flagValue(ctx, cmd, pending, table, line, p.current, p.quote)
	case strings.HasPrefix(p.current, "-"):
		if name, value, ok := strings.Cut(p.current, "="); ok {
			if f := cmdspec.LookupFlag(cmd, name); f != nil {
				return l.flagValue(ctx, cmd, f, table, line, value, p.quote)
			}
			return nil
		}
		return matchingRaw(line, p.current, flagSuggestions(cmd))
	}
	if len(positional) == 0 && cmd.HasAvailableSubCommands() {
		return matchingRaw(line, p.current, l.commandSuggestions(cmd, false))
	}
	return matchingRaw(line, p.current, l.positional(ctx, cmd, positional, p.current))
}

// commandSuggestions lists the subcommands of cmd (and at the root, the
// shell's extras).
func (l *Line) commandSuggestions(cmd *cobra.Command, withExtra bool) []Suggestion {
	var out []Suggestion
	extra := map[string]bool{}
	if withExtra {
		out = append(out, l.Extra...)
		for _, x := range l.Extra {
			extra[x.Text] = true
		}
	}
	for _, c := range cmd.Commands() {
		if !c.IsAvailableCommand() || l.hidden(c) || extra[c.Name()] {
			continue // the shell's own word of that name says both
		}
		out = append(out, Suggestion{c.Name(), c.Short})
	}
	sort.SliceStable(out, func(i, j int) bool { return out[i].Text < out[j].Text })
	return out
}

func (l *Line) hidden(c *cobra.Command) bool { return !cmdspec.InShell(c) }

func findSub(cmd *cobra.Command, name string) *cobra.Command {
	for _, c := range cmd.Commands() {
		if c.Name() == name || c.HasAlias(name) {
			return c
		}
	}
	return nil
}

// effectiveTable is the table the command will act on: its first
// positional argument, or the table in use when the shell will insert it.
func (l *Line) effectiveTable(ctx context.Context, cmd *cobra.Command, positional []string) string {
	if !cmdspec.TakesTable(cmd) {
		return ""
	}
	if l.tableInserted(ctx, cmd, positional) {
		return l.Table()
	}
	if len(positional) > 0 {
		return positional[0]
	}
	return ""
}

// tableInserted tells whether the shell will put the table in use in
// front of these positional arguments: cmdspec.TableImplied, the rule the
// shell runs by.
func (l *Line) tableInserted(ctx context.Context, cmd *cobra.Command, positional []string) bool {
	if l.Table == nil || l.Table() == "" {
		return false
	}
	return cmdspec.TableImplied(cmd, positional, func(name string) bool { return l.isTable(ctx, name) })
}

func (l *Line) isTable(ctx context.Context, name string) bool { return HasTable(ctx, l.Source, name) }

// HasTable reports whether src knows a table of that name (table names
// are case-insensitive); a nil src knows none.
func HasTable(ctx context.Context, src Source, name string) bool {
	if src == nil {
		return false
	}
	for _, t := range src.Tables(ctx) {
		if strings.EqualFold(t, name) {
			return true
		}
	}
	return false
}

// positional suggests the next positional argument by its name in the
// usage line.
func (l *Line) positional(ctx context.Context, cmd *cobra.Command, given []string, current string) []Suggestion {
	names := cmdspec.ArgNames(cmd)
	idx := len(given)
	table := ""
	if cmdspec.TakesTable(cmd) {
		switch {
		case l.tableInserted(ctx, cmd, given) && len(given) == 0:
			// Either the table in use is implied (offer the argument after
			// TABLE) or another table is being named: offer both.
			var out []Suggestion
			if len(names) > 1 {
				out = l.argSuggestions(ctx, cmd, 1, l.Table(), "", current)
			}
			return append(out, l.tableSuggestions(ctx)...)
		case l.tableInserted(ctx, cmd, given):
			idx++
			table = l.Table()
		case len(given) > 0:
			table = given[0]
		}
	}
	if idx >= len(names) {
		return nil
	}
	prev := ""
	if len(given) > 0 {
		prev = given[len(given)-1]
	}
	if cmdspec.IsTableArg(cmd, idx) || names[idx] == "PK" || names[idx] == "RK" {
		// Known here, with the table in use when the shell implies it
		// (the command's own completion sees only the words typed).
		return l.argSuggestions(ctx, cmd, idx, table, prev, current)
	}
	if cmd.ValidArgsFunction != nil {
		vals, _ := cmd.ValidArgsFunction(cmd, given, current)
		var out []Suggestion
		for _, v := range vals {
			text, desc, _ := strings.Cut(v, "\t")
			out = append(out, Suggestion{text, desc})
		}
		return out
	}
	return nil
}

// argSuggestions offers values for c's argument at index i: tables for a
// table argument, PartitionKeys for PK, and for RK the RowKeys of the
// partition prev (the argument before).
func (l *Line) argSuggestions(ctx context.Context, cmd *cobra.Command, i int, table, prev, current string) []Suggestion {
	names := cmdspec.ArgNames(cmd)
	switch {
	case cmdspec.IsTableArg(cmd, i):
		return l.tableSuggestions(ctx)
	case i < len(names) && names[i] == "PK" && table != "" && l.Source != nil:
		var out []Suggestion
		for _, pk := range l.Source.PartitionKeys(ctx, table, current) {
			out = append(out, Suggestion{pk, "a PartitionKey in " + table})
		}
		return out
	case i < len(names) && names[i] == "RK" && table != "" && l.Source != nil && i > 0:
		var out []Suggestion
		for _, rk := range l.Source.RowKeys(ctx, table, prev, current) {
			out = append(out, Suggestion{rk, "a RowKey in " + table + ", partition " + odata.Quote(prev)})
		}
		return out
	}
	return nil
}

func (l *Line) tableSuggestions(ctx context.Context) []Suggestion {
	if l.Source == nil {
		return nil
	}
	var out []Suggestion
	for _, t := range l.Source.Tables(ctx) {
		out = append(out, Suggestion{t, "table"})
	}
	return out
}

// flagValue completes the value of flag f (value is what is typed of it,
// unquoted; quote the shell quote still open in it).
func (l *Line) flagValue(ctx context.Context, cmd *cobra.Command, f *pflag.Flag, table, line, value string, quote rune) []Suggestion {
	switch f.Name {
	case "filter":
		sugg, partial := Filter(ctx, l.Source, table, value)
		if quote == '\'' {
			return replaced(line, inSingleQuotes(partial), singleQuoted(sugg))
		}
		return replaced(line, partial, sugg)
	case "select":
		sugg, partial := Select(ctx, l.Source, table, value)
		return replaced(line, partial, sugg)
	}
	if fn, ok := cmd.GetFlagCompletionFunc(f.Name); ok {
		vals, _ := fn(cmd, nil, value)
		var out []Suggestion
		for _, v := range vals {
			text, desc, _ := strings.Cut(v, "\t")
			out = append(out, Suggestion{text, desc})
		}
		return matchingRaw(line, value, out)
	}
	return nil
}

// Select completes a comma-separated $select list typed so far.
func Select(ctx context.Context, src Source, table, text string) ([]Suggestion, string) {
	partial := text[strings.LastIndexByte(text, ',')+1:]
	chosen := map[string]bool{}
	for _, n := range strings.Split(text, ",") {
		chosen[strings.TrimSpace(n)] = true
	}
	var all []Suggestion
	for _, s := range propertySuggestions(ctx, src, table) {
		if !chosen[s.Text] {
			all = append(all, s)
		}
	}
	return matching(all, partial, true), partial
}

// matchingRaw keeps the suggestions starting with partial and turns them
// into replacements for the chunk after the line's last space.
func matchingRaw(line, partial string, all []Suggestion) []Suggestion {
	return replaced(line, partial, matching(all, partial, true))
}

func replaced(line, partial string, sugg []Suggestion) []Suggestion {
	out := make([]Suggestion, 0, len(sugg))
	for _, s := range sugg {
		if t := replacement(line, partial, s.Text); t != "" {
			out = append(out, Suggestion{t, s.Description})
		}
	}
	return out
}
func flagSuggestions(cmd *cobra.Command) []Suggestion {
	var out []Suggestion
	add := func(f *pflag.Flag) {
		if f.Hidden || f.Name == "help" {
			return
		}
		out = append(out, Suggestion{"--" + f.Name, f.Usage})
	}
	cmd.LocalFlags().VisitAll(add)
	cmd.InheritedFlags().VisitAll(add)
	sort.SliceStable(out, func(i, j int) bool { return out[i].Text < out[j].Text })
	return out
}
