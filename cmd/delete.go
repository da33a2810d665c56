package cmd

import (
	"fmt"

	"github.com/spf13/cobra"
	"github.com/tstable/tstable/odata"
	"github.com/tstable/tstable/store"
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
		Example:     "  tstable delete Employees Sales 00010",
		Annotations: tableAnnotation,
		Args:        exactArgs("TABLE", "PK", "RK"),
		RunE: func(c *cobra.Command, args []string) error {
			format, err := f.Format(c)
			if err != nil {
				return err
			}
			if err := f.mustExist(args[0]); err != nil {
				return err // no database: nothing to delete
			}
			op := store.Operation{Kind: store.OpDelete, Entity: &odata.Entity{PartitionKey: args[1], RowKey: args[2]}, IfMatch: ifMatch}
			err = f.Write(c.Context(), func(b store.Backend) error {
				_, err := b.Write(c.Context(), args[0], op)
				return err
			})
			if err != nil {
				return err
			}
			if format == FormatTable {
				fmt.Fprintf(f.IO.Out, "deleted (%s, %s) from %s\n", args[1], args[2], args[0])
			}
			return nil
		},
	}
	c.Flags().StringVar(&ifMatch, "if-match", "*", "only if the entity's ETag is this (* for any)")
	return c
}
