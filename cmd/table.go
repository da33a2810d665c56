package cmd

import (
	"errors"
	"io"

	"github.com/spf13/cobra"
	"github.com/tstable/tstable/backend"
	"github.com/tstable/tstable/cmdspec"
	"github.com/tstable/tstable/odata"
)

func newTableCmd(f *Factory) *cobra.Command {
	c := &cobra.Command{
		Use:   "table",
		Short: "Create, list and delete tables",
		RunE: func(c *cobra.Command, args []string) error {
			return usageErrorf(c, "%s needs a subcommand: create, list or delete", c.CommandPath())
		},
	}
	cmdspec.Args(c)
	c.AddCommand(newTableCreateCmd(f), newTableListCmd(f), newTableDeleteCmd(f))
	return c
}

func newTableCreateCmd(f *Factory) *cobra.Command {
	c := &cobra.Command{
		Use:   "create NAME",
		Short: "Create a table",
		Long: `Create a table. Names are 3 to 63 letters and digits, starting with a
letter, as the service requires; they are case-insensitive but kept as
given. The database file is created on first use.`,
		Example: "  tstable table create Employees",
		RunE: func(c *cobra.Command, args []string) error {
			if err := f.Write(c.Context(), func(b backend.Backend) error {
				return b.CreateTable(c.Context(), args[0])
			}); err != nil {
				return err
			}
			return printTableName(f.printer, args[0], "created")
		},
	}
	cmdspec.Args(c, "NAME")
	cmdspec.Writes(c)
	return c
}

func newTableListCmd(f *Factory) *cobra.Command {
	c := &cobra.Command{
		Use:     "list",
		Aliases: []string{"ls"},
		Short:   "List the tables",
		RunE: func(c *cobra.Command, args []string) error {
			var names []string
			err := f.Read(c.Context(), "", func(b backend.Backend) error {
				var err error
				names, err = b.ListTables(c.Context())
				return err
			})
			var missing *missingDatabase
			if err != nil && (!errors.Is(err, errNoDatabase) || errors.As(err, &missing)) {
				return err // a file --db named that is not there is not an empty one
			}
			return printTableNames(f.printer, names)
		},
	}
	cmdspec.Args(c)
	return c
}

func newTableDeleteCmd(f *Factory) *cobra.Command {
	c := &cobra.Command{
		Use:     "delete NAME",
		Aliases: []string{"rm"},
		Short:   "Delete a table and every entity in it",
		Example: "  tstable table delete Employees",
		RunE: func(c *cobra.Command, args []string) error {
			// With no database the table does not exist: the service's code
			// for deleting a missing table is ResourceNotFound.
			if err := f.needDatabase(args[0], odata.CodeResourceNotFound); err != nil {
				return err
			}
			if err := f.Write(c.Context(), func(b backend.Backend) error {
				return b.DeleteTable(c.Context(), args[0])
			}); err != nil {
				return err
			}
			return printTableName(f.printer, args[0], "deleted")
		},
	}
	cmdspec.Args(c, "NAME")
	cmdspec.NamesTable(c)
	cmdspec.Writes(c)
	return c
}

// tableName is a table as the service names it in its lists:
// {"TableName":"…"}.
type tableName struct {
	TableName string `json:"TableName"`
}

// printTableNames writes table names as the service lists them, and for
// people as a table with a count line.
func printTableNames(p *Printer, names []string) error {
	items := []tableName{}
	for _, n := range names {
		items = append(items, tableName{n})
	}
	return p.Print(items, func(w io.Writer) error {
		renderList(w, "TableName", names)
		_, err := io.WriteString(w, plural(int64(len(names)), "table")+"\n")
		return err
	})
}

// printTableName writes the table a command created or deleted: verb and
// its name for people ("created table Orders"), {"TableName":"…"}
// otherwise.
func printTableName(p *Printer, name, verb string) error {
	return p.Print(tableName{name}, func(w io.Writer) error {
		_, err := io.WriteString(w, verb+" table "+name+"\n")
		return err
	})
}
