package cmd

import (
	"github.com/spf13/cobra"
	"github.com/tstable/tstable/backend"
	"github.com/tstable/tstable/cmdspec"
	"github.com/tstable/tstable/design"
)

func newExportCmd(f *Factory) *cobra.Command {
	o := &queryOptions{pageSize: 1000}
	c := &cobra.Command{
		Use:   "export TABLE",
		Short: "Write every entity (or those matching --filter) as JSONL or CSV",
		Long: `Write a table's entities, streaming, in key order: JSONL by default (the
service's JSON, one entity per line, every type annotated so that import
reads it back exactly), or CSV with -o csv (typed Name@Edm.X headers; an
empty String cannot be told from an absent property in CSV, so use JSONL
for exact copies).`,
		Example: `  tstable export Employees > employees.jsonl
  tstable export Employees --filter "PartitionKey eq 'Sales'" -o csv > sales.csv`,
		RunE: func(c *cobra.Command, args []string) error {
			p, err := parseQuery(c, args[0], o)
			if err != nil {
				return err
			}
			list := f.printer.Entities(Columns{})
			var notes []design.FilterNote
			err = f.Read(c.Context(), p.table, func(b backend.Backend) error {
				res, err := queryInto(c.Context(), b, p.table, backend.QueryRequest{Query: p.query}, list)
				if err == nil && res.Returned == 0 {
					notes = neverTrue(c.Context(), b, p.table, p.query.Filter)
				}
				return err
			})
			if err != nil {
				list.Abandon()
				return err
			}
			defer f.printer.FilterNotes(notes)
			return list.Close(ListEnd{})
		},
	}
	cmdspec.Args(c, "TABLE")
	onlyFormats(c, FormatJSONL, FormatCSV)
	addFilterFlag(c, o)
	return c
}
