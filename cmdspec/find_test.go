package cmdspec

import (
	"reflect"
	"testing"

	"github.com/spf13/cobra"
)

// findTree is a root with global flags, leaf commands (one with an
// alias), a group with subcommands, and a leaf that checks no arguments.
func findTree() *cobra.Command {
	root := &cobra.Command{Use: "tstable"}
	root.PersistentFlags().String("db", "", "")
	root.PersistentFlags().StringP("output", "o", "", "")
	root.PersistentFlags().StringP("expanded", "x", "", "")
	root.PersistentFlags().Lookup("expanded").NoOptDefVal = "on"
	run := func(*cobra.Command, []string) error { return nil }
	get := &cobra.Command{Use: "get TABLE PK RK", Args: cobra.ArbitraryArgs, RunE: run}
	get.Flags().String("select", "", "")
	query := &cobra.Command{Use: "query TABLE", Aliases: []string{"q"}, Args: cobra.ArbitraryArgs, RunE: run}
	query.Flags().Int("top", 0, "")
	table := &cobra.Command{Use: "table", Args: cobra.ArbitraryArgs}
	table.AddCommand(&cobra.Command{Use: "create NAME", Args: cobra.ArbitraryArgs, RunE: run})
	loose := &cobra.Command{Use: "loose", RunE: run} // no Args: cobra checks its words
	root.AddCommand(get, query, table, loose)
	return root
}

// Find answers what cobra's Find answers, for the lines it reads off the
// root and for those it leaves to cobra.
func TestFindIsCobrasFind(t *testing.T) {
	for _, args := range [][]string{
		{"get", "T", "p", "r", "-o", "jsonl"},
		{"--db=x.db", "get", "T", "p", "r"},
		{"--db=x.db", "-o=json", "get", "T", "get", "--select", "A"},
		{"-x=on", "query", "T", "--top", "3"},
		{"--db", "x.db", "get", "T", "p", "r"},
		{"-o", "json", "get"},
		{"-x", "get", "T"},
		{"--", "get", "T"},
		{"-", "get"},
		{"", "get", "T"},
		{"q", "T"},
		{"table", "create", "N"},
		{"table"},
		{"loose", "a"},
		{"nope", "a"},
		{"get"},
		{},
		{"--db=x.db"},
	} {
		want, wantRest, wantErr := findTree().Find(args)
		got, gotRest, gotErr := Find(findTree(), args)
		if got.CommandPath() != want.CommandPath() || !reflect.DeepEqual(gotRest, wantRest) || (gotErr == nil) != (wantErr == nil) {
			t.Errorf("%q: %s %q %v; cobra finds %s %q %v", args, got.CommandPath(), gotRest, gotErr, want.CommandPath(), wantRest, wantErr)
		}
	}
}

// The lines of a script's usual shape are read off the root, not
// searched for by cobra.
func TestFindReadsLeavesOffTheRoot(t *testing.T) {
	root := findTree()
	for _, args := range [][]string{{"get", "T", "p", "r", "-o", "jsonl"}, {"--db=x.db", "-o=json", "query", "T"}} {
		if _, _, ok := findLeaf(root, args); !ok {
			t.Errorf("%q is left to cobra's search", args)
		}
	}
}
