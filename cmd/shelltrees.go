package cmd

import (
	"reflect"
	"slices"

	"github.com/spf13/cobra"
	"github.com/spf13/pflag"
	"github.com/tstable/tstable/iostreams"
)

// reusedCommands are the top-level commands whose tree the shell builds
// once and runs again line after line (a script of a thousand gets builds
// one tree, not a thousand): their commands keep no state of a run but
// their flags' values and the Factory, which lineTrees puts back before
// each line. Any other command gets a fresh tree every line.
var reusedCommands = map[string]bool{
	"get": true, "query": true, "insert": true, "upsert": true, "merge": true,
	"replace": true, "delete": true, "explain": true, "table": true,
}

// reuseLineTrees is whether the shell reuses trees (tests compare a
// script run both ways).
var reuseLineTrees = true

// lineTrees are the command trees the shell has built for its lines, one
// for each command of reusedCommands that has run, each put back as new
// before it runs again: every flag at its default and not Changed
// (slices included), every flag set as never parsed, no command holding
// the last line's context, and a Factory as fresh as the one a new tree
// gets. A line therefore means what it means on the command line, as
// TestShellReusedTreeIsFresh checks for every flag of every such command.
type lineTrees struct {
	trees map[string]*lineTree
}

// lineTree is one reusable tree and what it takes to put it back.
type lineTree struct {
	root     *cobra.Command
	f        *Factory
	commands []*commandFlags
	values   map[*pflag.Flag]savedFlag
	// runs counts the lines run since the flag sets were last made anew,
	// and dash says the last line held "--" (see reset).
	runs int
	dash bool
}

// newSetsEvery is how many lines a tree runs before its flag sets are made
// anew: pflag adds each flag a line sets to a list (FlagSet.Visit's),
// which reset does not empty.
const newSetsEvery = 1024

// commandFlags are a command's own flags, local and persistent, as built:
// what its flag sets hold again after a line parsed them.
type commandFlags struct {
	c                 *cobra.Command
	local, persistent []*pflag.Flag
}

// savedFlag is a flag's value as built: a copy of what its Value points
// to, and for a slice flag the slice.
type savedFlag struct {
	saved reflect.Value
	slice []string
	isSet bool // slice holds the slice (a pflag.SliceValue)
}

// tree returns the tree to run args with (args as the shell passes them,
// the global flags first) on a factory whose streams are ios and session
// sess: the one built for args' command before, put back as new (then
// reused is true), or a new one (kept for the next line when its command
// is reusable).
func (lt *lineTrees) tree(base *Factory, ios *iostreams.IOStreams, sess Session, args []string) (root *cobra.Command, f *Factory, reused bool) {
	fresh := func() (*cobra.Command, *Factory) {
		line := &Factory{IO: ios, Session: sess, Opener: base.Opener}
		return newRootFor(line, args), line
	}
	if !reuseLineTrees {
		root, line := fresh()
		return root, line, false
	}
	var name string
	if t := lt.any(); t != nil {
		name = commandName(t.root, expandedValues(args))
	} else {
		root, line := fresh()
		name = commandName(root, expandedValues(args))
		lt.keep(name, root, line)
		return root, line, false
	}
	t := lt.trees[name]
	if t == nil {
		root, line := fresh()
		lt.keep(name, root, line)
		return root, line, false
	}
	if !t.reset(ios, sess, base.Opener) {
		delete(lt.trees, name)
		root, line := fresh()
		return root, line, false
	}
	// cobra finds args' command in the tree, as it did when newRootFor
	// built it: commandName read the same name, past the same flags of
	// the root, the way cobra's Find reads them (a flag it does not know
	// or a shorthand run such as -ox gives no name, and a new tree).
	t.dash = slices.Contains(args, "--")
	return t.root, t.f, true
}

// any is one kept tree, or nil.
func (lt *lineTrees) any() *lineTree {
	for _, t := range lt.trees {
		return t
	}
	return nil
}

// keep records root, built for the command name over line, for the next
// line naming the same command, when it is reusable and holds only that
// command (the whole tree, built for anything else, is not kept).
func (lt *lineTrees) keep(name string, root *cobra.Command, line *Factory) {
	if !reusedCommands[name] || len(root.Commands()) != 1 || root.Commands()[0].Name() != name {
		return
	}
	t, ok := newLineTree(root, line)
	if !ok {
		return
	}
	if lt.trees == nil {
		lt.trees = map[string]*lineTree{}
	}
	lt.trees[name] = t
}

// newLineTree records root's flags as built. ok is false when a flag's
// value is of a kind that cannot be put back (then the tree is not
// reused).
func newLineTree(root *cobra.Command, f *Factory) (*lineTree, bool) {
	t := &lineTree{root: root, f: f, values: map[*pflag.Flag]savedFlag{}}
	ok := true
	var walk func(c *cobra.Command)
	walk = func(c *cobra.Command) {
		// The flags cobra adds when a command runs, added now so that
		// their defaults are recorded too.
		c.InitDefaultHelpFlag()
		c.InitDefaultVersionFlag()
		cf := &commandFlags{c: c}
		c.PersistentFlags().VisitAll(func(fl *pflag.Flag) { cf.persistent = append(cf.persistent, fl) })
		c.LocalNonPersistentFlags().VisitAll(func(fl *pflag.Flag) { cf.local = append(cf.local, fl) })
		for _, fl := range append(append([]*pflag.Flag{}, cf.persistent...), cf.local...) {
			v, saved := saveFlag(fl)
			ok = ok && saved
			t.values[fl] = v
		}
		t.commands = append(t.commands, cf)
		for _, sub := range c.Commands() {
			walk(sub)
		}
	}
	walk(root)
	return t, ok
}

// saveFlag copies fl's value as it is now. ok is false for a value that
// is not a pointer to a plain value (string, bool, number, duration), nor
// a slice flag.
func saveFlag(fl *pflag.Flag) (v savedFlag, ok bool) {
	p := reflect.ValueOf(fl.Value)
	if p.Kind() != reflect.Pointer {
		return v, false
	}
	e := p.Elem()
	switch e.Kind() {
	case reflect.Bool, reflect.String, reflect.Int, reflect.Int8, reflect.Int16, reflect.Int32, reflect.Int64,
		reflect.Uint, reflect.Uint8, reflect.Uint16, reflect.Uint32, reflect.Uint64, reflect.Float32, reflect.Float64:
	case reflect.Struct:
		// pflag's slice values: a pointer to the slice and whether it was
		// set (a second --flag appends). A map's values are not.
		sv, isSlice := fl.Value.(pflag.SliceValue)
		if !isSlice {
			return v, false
		}
		v.slice, v.isSet = append([]string(nil), sv.GetSlice()...), true
	default:
		return v, false
	}
	v.saved = reflect.New(e.Type()).Elem()
	v.saved.Set(e)
	return v, true
}

// restore puts fl's value back to v, unchanged.
func (v savedFlag) restore(fl *pflag.Flag) error {
	reflect.ValueOf(fl.Value).Elem().Set(v.saved)
	fl.Changed = false
	if v.isSet {
		return fl.Value.(pflag.SliceValue).Replace(append([]string(nil), v.slice...))
	}
	return nil
}

// reset puts the tree back as built, on a new Factory over ios, sess and
// opener. It is false when the tree cannot be put back (a flag added
// since it was built).
//
// Every flag's value and Changed are put back. pflag's flag set also
// keeps which flags its parses set (what FlagSet.Visit and NFlag read,
// which no command reads: they read Changed) and where a "--" was
// (ArgsLenAtDash); the sets are made anew after a line with "--" and
// every newSetsEvery lines, which keeps that list short.
func (t *lineTree) reset(ios *iostreams.IOStreams, sess Session, opener Opener) bool {
	t.runs++
	anew := t.dash || t.runs >= newSetsEvery
	if anew {
		t.runs = 0
	}
	for _, cf := range t.commands {
		c := cf.c
		// cobra hands a command the line's context only when the command's
		// own is nil; else it would run with the first line's again.
		//lint:ignore SA1012 nil is what makes cobra take the next line's context
		c.SetContext(nil)
		if !c.Flags().Parsed() {
			continue
		}
		known := true
		c.Flags().VisitAll(func(fl *pflag.Flag) {
			if v, ok := t.values[fl]; !ok || v.restore(fl) != nil {
				known = false
			}
		})
		if !known {
			return false
		}
		if !anew {
			continue
		}
		c.ResetFlags()
		for _, fl := range cf.persistent {
			c.PersistentFlags().AddFlag(fl)
		}
		for _, fl := range cf.local {
			c.Flags().AddFlag(fl)
		}
	}
	// Flags of a parent that only a child's parse set are the parent's
	// persistent ones, shared with the child: put back above. The root's
	// and every command's values that no parse reached are as built.
	*t.f = Factory{IO: ios, Session: sess, Opener: opener}
	t.f.printer = defaultPrinter(t.root, ios)
	return true
}
