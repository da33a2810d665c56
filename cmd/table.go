package cmd

import (
	"bufio"
	"encoding/csv"
	"errors"
	"fmt"
	"strconv"

	"github.com/olekukonko/tablewriter"
	"github.com/spf13/cobra"
	"github.com/tstable/tstable/store"
)

func newTableCmd(f *Factory) *cobra.Command {
	c := &cobra.Command{
		Use:   "table",
		Short: "Create, list and delete tables",
		Args:  exactArgs(),
		RunE: func(c *cobra.Command, args []string) error {
			return usageErrorf(c, "%s needs a subcommand: create, list or delete", c.CommandPath())
		},
	}
	c.AddCommand(newTableCreateCmd(f), newTableListCmd(f), newTableDeleteCmd(f))
	return c
}

func newTableCreateCmd(f *Factory) *cobra.Command {
	return &cobra.Command{
		Use:   "create NAME",
		Short: "Create a table",
		Long: `Create a table. Names are 3 to 63 letters and digits, starting with a
letter, as the service requires; they are case-insensitive but kept as
given. The database file is created on first use.`,
		Example: "  tstable table create Employees",
		Args:    exactArgs("NAME"),
		RunE: func(c *cobra.Command, args []string) error {
			format, err := f.Format(c)
			if err != nil {
				return err
			}
			if err := f.Write(c.Context(), func(b store.Backend) error {
				return b.CreateTable(c.Context(), args[0])
			}); err != nil {
				return err
			}
			return f.writeTableNames(format, args[:1], "created table ")
		},
	}
}

func newTableListCmd(f *Factory) *cobra.Command {
	return &cobra.Command{
		Use:     "list",
		Aliases: []string{"ls"},
		Short:   "List the tables",
		Args:    exactArgs(),
		RunE: func(c *cobra.Command, args []string) error {
			format, err := f.Format(c)
			if err != nil {
				return err
			}
			var names []string
			err = f.Read(c.Context(), "", func(b store.Backend) error {
				names, err = b.ListTables(c.Context())
				return err
			})
			if err != nil && !errors.Is(err, errNoDatabase) {
				return err
			}
			return f.writeTableNames(format, names, "")
		},
	}
}

func newTableDeleteCmd(f *Factory) *cobra.Command {
	return &cobra.Command{
		Use:     "delete NAME",
		Aliases: []string{"rm"},
		Short:   "Delete a table and every entity in it",
		Example: "  tstable table delete Employees",
		Args:    exactArgs("NAME"),
		RunE: func(c *cobra.Command, args []string) error {
			format, err := f.Format(c)
			if err != nil {
				return err
			}
			if err := f.mustExist(args[0]); err != nil {
				return err // no database: the table does not exist
			}
			if err := f.Write(c.Context(), func(b store.Backend) error {
				return b.DeleteTable(c.Context(), args[0])
			}); err != nil {
				return err
			}
			return f.writeTableNames(format, args[:1], "deleted table ")
		},
	}
}

// writeTableNames prints table names as the service lists them:
// {"TableName":"…"} objects in json and jsonl, a TableName column in csv,
// and in table format a table with a count line, or "<verb>NAME" lines
// when verb is set (create, delete).
func (f *Factory) writeTableNames(format string, names []string, verb string) error {
	w := bufio.NewWriter(f.IO.Out)
	switch format {
	case FormatJSON:
		if verb != "" {
			fmt.Fprintf(w, "{\"TableName\":%s}\n", strconv.Quote(names[0]))
			break
		}
		w.WriteString("{\n  \"value\": [")
		for i, n := range names {
			if i > 0 {
				w.WriteString(",")
			}
			fmt.Fprintf(w, "\n    {\"TableName\":%s}", jsonQuote(n))
		}
		if len(names) > 0 {
			w.WriteString("\n  ")
		}
		w.WriteString("]\n}\n")
	case FormatJSONL:
		for _, n := range names {
			fmt.Fprintf(w, "{\"TableName\":%s}\n", jsonQuote(n))
		}
	case FormatCSV:
		cw := csv.NewWriter(w)
		cw.Write([]string{"TableName"})
		for _, n := range names {
			cw.Write([]string{n})
		}
		cw.Flush()
	default:
		if verb != "" {
			fmt.Fprintf(w, "%s%s\n", verb, names[0])
			break
		}
		t := tablewriter.NewWriter(w)
		t.SetHeader([]string{"TableName"})
		t.SetAutoFormatHeaders(false)
		t.SetAlignment(tablewriter.ALIGN_LEFT)
		for _, n := range names {
			t.Append([]string{n})
		}
		t.Render()
		if len(names) == 1 {
			w.WriteString("1 table\n")
		} else {
			fmt.Fprintf(w, "%d tables\n", len(names))
		}
	}
	return w.Flush()
}

// jsonQuote returns s as a JSON string. Table names are plain ASCII, so
// strconv.Quote's escapes agree with JSON's.
func jsonQuote(s string) string { return strconv.Quote(s) }
