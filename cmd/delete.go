package cmd

import (
	"fmt"

	"github.com/spf13/cobra"
	"github.com/tstable/tstable/backend"
	"github.com/tstable/tstable/cmdspec"
	"github.com/tstable/tstable/odata"
)

func newDeleteCmd(f *Factory) *cobra.Command {
	var ifMatch string
	c := &cobra.Command{
		Use:   "delete TABLE PK RK",
		Short: "Delete one entity",
		Long: `Delete one entity by its keys. It fails with ResourceNotFound when there is
none, and with UpdateConditionNotSatisfied when --if-match names another
ETag than the entity's ('*', the default, matches any). Prints nothing
except in table format ("deleted …").`,
		Example: "  tstable delete Employees Sales empid_000001",
		RunE: func(c *cobra.Command, args []string) error {
			op := backend.Operation{Kind: backend.OpDelete, Entity: &odata.Entity{PartitionKey: args[1], RowKey: args[2]}, IfMatch: ifMatch}
			// With no database there is nothing to delete, and no file is
			// created to say so.
			err := f.needDatabase(args[0], odata.CodeTableNotFound)
			if err == nil {
				err = f.Write(c.Context(), func(b backend.Backend) error {
					_, err := b.Write(c.Context(), args[0], op)
					return err
				})
			}
			if err != nil {
				return err
			}
			return f.printer.Tell(fmt.Sprintf("deleted (%s, %s) from %s", args[1], args[2], args[0]))
		},
	}
	cmdspec.Args(c, "TABLE", "PK", "RK")
	cmdspec.Writes(c)
	addIfMatch(c, &ifMatch)
	return c
}
