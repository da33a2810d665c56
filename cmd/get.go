package cmd

import (
	"github.com/spf13/cobra"
	"github.com/tstable/tstable/backend"
	"github.com/tstable/tstable/cmdspec"
	"github.com/tstable/tstable/odata"
)

func newGetCmd(f *Factory) *cobra.Command {
	var sel string
	c := &cobra.Command{
		Use:   "get TABLE PK RK",
		Short: "Read one entity by its keys",
		Long: `Read one entity by PartitionKey and RowKey: a point query. It fails with
ResourceNotFound when there is none. --select keeps the named properties:
in json output as the service answers $select, odata.etag and the named
ones only (PartitionKey, RowKey and Timestamp when named; a missing one
null); the table still shows the keys.`,
		Example: "  tstable get Employees Sales empid_000001 --select Age,Email -o json",
		RunE: func(c *cobra.Command, args []string) error {
			names, err := parseSelectFlag(sel)
			if err != nil {
				return err
			}
			var e *odata.Entity
			err = f.Read(c.Context(), args[0], func(b backend.Backend) error {
				e, err = b.Get(c.Context(), args[0], args[1], args[2])
				return err
			})
			if err != nil {
				return err
			}
			return f.printer.SelectedEntity(e, names)
		},
	}
	cmdspec.Args(c, "TABLE", "PK", "RK")
	c.Flags().StringVar(&sel, "select", "", "properties to return, comma-separated (`a,b`)")
	return c
}
