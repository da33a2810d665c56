package cmd

import (
	"github.com/spf13/cobra"
	"github.com/tstable/tstable/store"
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
		Annotations: tableAnnotation,
		Args:        exactArgs("TABLE"),
		RunE: func(c *cobra.Command, args []string) error {
			format := FormatJSONL
			if f.outputFlag != "" {
				if f.outputFlag != FormatJSONL && f.outputFlag != FormatCSV {
					return usageErrorf(c, "export writes jsonl or csv; got -o %s", f.outputFlag)
				}
				format = f.outputFlag
			}
			p, err := parseQuery(c, args[0], o)
			if err != nil {
				return err
			}
			return f.Read(c.Context(), p.table, func(b store.Backend) error {
				_, err := streamAll(c.Context(), f, b, format, p, store.QueryRequest{Query: p.query}, false, nil)
				return err
			})
		},
	}
	addQueryFlags(c, o)
	return c
}
