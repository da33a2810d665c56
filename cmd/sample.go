package cmd

import (
	"context"
	"fmt"
	"io"
	"iter"
	"strings"

	"github.com/spf13/cobra"
	"github.com/tstable/tstable/backend"
	"github.com/tstable/tstable/cmdspec"
	"github.com/tstable/tstable/odata"
	"github.com/tstable/tstable/samples"
)

func newSampleCmd(f *Factory) *cobra.Command {
	c := &cobra.Command{
		Use:   "sample",
		Short: "Sample datasets that show good and bad table designs",
		Long: `Sample datasets, generated in the binary (the same data on every machine):

  employees  the design guide's Marketing/Sales employees, every Edm type,
             department entities beside employees, an email_ secondary index
  logs       the same events twice: LogsByDate (the day as PartitionKey, the
             append-only anti-pattern) and LogsSpread (hashed shards,
             inverted-ticks RowKeys: the log-tail pattern)
  orders     compound keys (customer / order date) and index entities
  bad        BadDesign and BadSinglePartition: every lint warning`,
		Example: "  tstable sample list\n  tstable sample load employees\n  tstable sample load logs --size 10000",
		RunE: func(c *cobra.Command, args []string) error {
			return usageErrorf(c, "%s needs a subcommand: list or load", c.CommandPath())
		},
	}
	cmdspec.Args(c)
	c.AddCommand(newSampleListCmd(f), newSampleLoadCmd(f))
	return c
}

func newSampleListCmd(f *Factory) *cobra.Command {
	c := &cobra.Command{
		Use:     "list",
		Aliases: []string{"ls"},
		Short:   "List the sample datasets",
		RunE: func(c *cobra.Command, args []string) error {
			type item struct {
				Name        string   `json:"name"`
				Tables      []string `json:"tables"`
				DefaultSize int      `json:"defaultSize"`
				SizeUnit    string   `json:"sizeUnit"`
				Summary     string   `json:"summary"`
			}
			var items []item
			for _, d := range samples.List() {
				it := item{Name: d.Name, DefaultSize: d.DefaultSize, SizeUnit: d.SizeUnit, Summary: d.Summary}
				for _, t := range d.Tables(1, "") {
					it.Tables = append(it.Tables, t.Name)
				}
				items = append(items, it)
			}
			return f.printer.Print(items, func(w io.Writer) error {
				for _, it := range items {
					fmt.Fprintf(w, "%-10s %s\n%-10s tables: %s; --size %d %s by default\n", it.Name, it.Summary, "", strings.Join(it.Tables, " "), it.DefaultSize, it.SizeUnit)
				}
				return nil
			})
		},
	}
	cmdspec.Args(c)
	return c
}

func newSampleLoadCmd(f *Factory) *cobra.Command {
	var table string
	var size int
	var intoExisting bool
	c := &cobra.Command{
		Use:   "load NAME",
		Short: "Create a sample dataset's tables and fill them",
		Long: `Create the dataset's tables and write its entities with Insert Or
Replace. A table that already holds entities is left alone unless
--into-existing is given (then loading twice gives the same table). --size sets the
dataset's size (employees, events, orders or entities; see sample list).
--table renames the table; for a dataset of several tables it replaces
their common stem (logs --table Audit loads AuditByDate and AuditSpread).`,
		Example:           "  tstable sample load employees\n  tstable sample load logs --size 100000 --table Audit",
		ValidArgsFunction: firstArgOf(samples.Names),
		RunE: func(c *cobra.Command, args []string) error {
			d, ok := samples.Lookup(args[0])
			if !ok {
				return usageErrorf(c, "no sample named %q; choose one of %s", args[0], strings.Join(samples.Names(), ", "))
			}
			if size < 0 || (c.Flags().Changed("size") && size == 0) {
				return usageErrorf(c, "--size must be 1 or more; got %d", size)
			}
			if table != "" {
				if err := odata.ValidateTableName(table); err != nil {
					return usageErrorf(c, "--table: %s", err.(*odata.Error).Message)
				}
			}
			var done []sampleLoaded
			err := f.Write(c.Context(), func(b backend.Backend) error {
				tables := d.Tables(size, table)
				for _, t := range tables {
					err := b.CreateTable(c.Context(), t.Name)
					if odata.IsCode(err, odata.CodeTableAlreadyExists) && !intoExisting {
						if empty, err := tableIsEmpty(c.Context(), b, t.Name); err != nil || !empty {
							if err != nil {
								return err
							}
							return odata.Errorf(odata.CodeTableAlreadyExists, "table %s already exists and holds entities; load the sample under another name with --table NAME, or write into it with --into-existing", t.Name)
						}
					} else if err != nil && !odata.IsCode(err, odata.CodeTableAlreadyExists) {
						return err
					}
				}
				for _, t := range tables {
					src, stop := source(t.Entities)
					bar := f.printer.Progress("loading "+t.Name, -1, "entities")
					res, err := b.Load(c.Context(), t.Name, backend.OpInsertOrReplace, src, backend.LoadOptions{
						Progress: func(written int64) { bar.Set(written) },
					})
					bar.Finish()
					stop()
					if err != nil {
						if res != nil && res.Written > 0 {
							done = append(done, sampleLoaded{t.Name, res.Written}) // committed before the load stopped
						}
						return err
					}
					done = append(done, sampleLoaded{t.Name, res.Written})
				}
				return nil
			})
			if err != nil {
				if c.Context().Err() != nil {
					f.printer.Note("%s", sampleInterrupted(f, done))
				}
				return err
			}
			return f.printer.Print(done, func(w io.Writer) error {
				for _, l := range done {
					fmt.Fprintf(w, "loaded %s into %s\n", countLine(l.Entities), l.Table)
				}
				return nil
			})
		},
	}
	cmdspec.Args(c, "NAME")
	cmdspec.Writes(c)
	c.Flags().StringVar(&table, "table", "", "load into table `T` instead of the dataset's own name")
	c.Flags().BoolVar(&intoExisting, "into-existing", false, "write into a table that already holds entities (Insert Or Replace)")
	c.Flags().IntVar(&size, "size", 0, "dataset size `N` (default: the dataset's own)")
	return c
}

// sampleLoaded is what sample load prints of one table.
type sampleLoaded struct {
	Table    string `json:"table"`
	Entities int64  `json:"entities"`
}

// sampleInterrupted says what an interrupted sample load kept: the
// entities committed into each table before the interrupt, or nothing
// when the database it was creating was removed.
func sampleInterrupted(f *Factory, done []sampleLoaded) string {
	if t, err := f.Target(); err == nil && !t.IsRemote() && !exists(t.Path) {
		return "sample load was interrupted: nothing was loaded (the new database " + t.Path + " was not kept)"
	}
	if len(done) == 0 {
		return "sample load was interrupted before any of its entities was committed"
	}
	var parts []string
	for _, l := range done {
		parts = append(parts, countLine(l.Entities)+" into "+l.Table)
	}
	return "sample load was interrupted after loading " + strings.Join(parts, ", ") + "; nothing more was loaded"
}

// tableIsEmpty reports whether table holds no entity.
func tableIsEmpty(ctx context.Context, b backend.Backend, table string) (bool, error) {
	res, err := b.Query(ctx, table, backend.QueryRequest{PageSize: 1}, func(*odata.Entity) error { return nil })
	if err != nil {
		return false, err
	}
	return res.Returned == 0, nil
}

// source turns a generator into the store's EntitySource; stop releases
// the generator when the load ends early.
func source(seq iter.Seq[*odata.Entity]) (backend.EntitySource, func()) {
	next, stop := iter.Pull(seq)
	return func() (*odata.Entity, error) {
		e, ok := next()
		if !ok {
			return nil, io.EOF
		}
		return e, nil
	}, stop
}
