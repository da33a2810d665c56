package cmd

import (
	"io"

	"github.com/spf13/cobra"
	"github.com/tstable/tstable/backend"
	"github.com/tstable/tstable/cmdspec"
	"github.com/tstable/tstable/design"
	"github.com/tstable/tstable/odata"
)

// scanTable streams every entity of table, in key order, through one
// Backend.Query into fn.
func (f *Factory) scanTable(c *cobra.Command, table string, fn func(*odata.Entity)) error {
	return f.Read(c.Context(), table, func(b backend.Backend) error {
		_, err := b.Query(c.Context(), table, backend.QueryRequest{PageSize: 0}, func(e *odata.Entity) error {
			fn(e)
			return nil
		})
		return err
	})
}

func newStatsCmd(f *Factory) *cobra.Command {
	var d drawFlags
	c := &cobra.Command{
		Use:   "stats TABLE",
		Short: "Show the shape of a table: partitions, key lengths, entity sizes, property types",
		Long: `Read a table once, streaming, and show its shape: entities and partitions,
entities per partition (min, median, p99, max), the five largest partitions
and their share of the table, a bar chart of partition sizes, PartitionKey
and RowKey lengths, entity sizes by the service's formula against the 1 MiB
limit, the most properties in one entity against the 252 limit, and every
property with the Edm types it has.

Memory stays small however large the table is. -o json (or jsonl) prints
one object whose top level holds "entities" and "partitions"; -o csv prints
its figures as one row, nested ones under dotted names
(entitiesPerPartition.min, largestPartitions.0.entities).

--draw adds pictures, from the same read: the key space (the partitions
in the service's order, each as wide as its entities), the largest
partitions as bars of their share, and each property as a bar of the
entities holding it, a segment for each Edm type.`,
		Example: "  tstable stats Employees\n  tstable stats LogsSpread -o json\n  tstable stats Orders --draw",
		RunE: func(c *cobra.Command, args []string) error {
			pr := f.printer
			if d.draw && !c.Flags().Changed("output") {
				pr = pr.ForPeopleNow()
			}
			s := newShapeScan(args[0], d.draw && pr.ForPeople())
			if err := f.scanTable(c, args[0], s.add); err != nil {
				return err
			}
			r := s.stats.Result()
			r.Table = args[0]
			if err := pr.Print(r, func(w io.Writer) error { return design.WriteStats(w, r, f.IO.TermWidth()) }); err != nil || s.keys == nil {
				return err
			}
			return pr.Picture(statsPictures(s.keys.Model(), r, pr.DrawStyle()))
		},
	}
	cmdspec.Args(c, "TABLE")
	c.Flags().BoolVar(&d.draw, "draw", false, "draw the key space, the largest partitions' shares and the properties' types")
	return c
}
