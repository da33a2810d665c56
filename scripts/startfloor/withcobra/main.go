// Command withcobra is the same point query as storeonly behind one cobra
// command with tstable's flags: withcobra --db DB query TABLE -o jsonl
// --filter FILTER.
package main

import (
	"fmt"
	"os"

	"github.com/spf13/cobra"
	"github.com/tstable/tstable/scripts/startfloor/lookup"
)

func main() {
	var db, filter, output string
	root := &cobra.Command{Use: "withcobra", SilenceUsage: true}
	root.PersistentFlags().StringVar(&db, "db", "", "database file")
	query := &cobra.Command{
		Use:  "query TABLE",
		Args: cobra.ExactArgs(1),
		RunE: func(c *cobra.Command, args []string) error {
			if output != "jsonl" {
				return fmt.Errorf("only -o jsonl is written here")
			}
			return lookup.Run(db, args[0], filter, c.OutOrStdout())
		},
	}
	query.Flags().StringVar(&filter, "filter", "", "the $filter")
	query.Flags().StringVarP(&output, "output", "o", "jsonl", "format")
	root.AddCommand(query)
	if err := root.Execute(); err != nil {
		os.Exit(1)
	}
}
