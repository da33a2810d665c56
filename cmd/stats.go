package cmd

import (
	"io"
	"strconv"

	"github.com/spf13/cobra"
	"github.com/tstable/tstable/cmdspec"
	"github.com/tstable/tstable/design"
	"github.com/tstable/tstable/odata"
	"github.com/tstable/tstable/store"
)

// scanTable streams every entity of table, in key order, through one
// Backend.Query into fn.
func (f *Factory) scanTable(c *cobra.Command, table string, fn func(*odata.Entity)) error {
	return f.Read(c.Context(), table, func(b store.Backend) error {
		_, err := b.Query(c.Context(), table, store.QueryRequest{PageSize: 0}, func(e *odata.Entity) error {
			fn(e)
			return nil
		})
		return err
	})
}

func newStatsCmd(f *Factory) *cobra.Command {
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
the figures as metric,value rows.`,
		Example: "  tstable stats Employees\n  tstable stats Logs -o json",
		RunE: func(c *cobra.Command, args []string) error {
			s := design.NewStats()
			if err := f.scanTable(c, args[0], s.Add); err != nil {
				return err
			}
			r := s.Result()
			r.Table = args[0]
			return f.printer.Report(Report{
				JSON: r,
				CSV:  statsCSV(r),
				Text: func(w io.Writer) error { return design.WriteStats(w, r, f.IO.TermWidth()) },
			})
		},
	}
	cmdspec.Args(c, "TABLE")
	return c
}

// statsCSV is the figures of a summary as metric,value rows.
func statsCSV(r *design.Summary) [][]string {
	i := func(n int64) string { return strconv.FormatInt(n, 10) }
	fl := func(x float64) string { return strconv.FormatFloat(x, 'g', -1, 64) }
	rows := [][2]string{
		{"entities", i(r.Entities)}, {"partitions", i(r.Partitions)},
		{"entitiesPerPartition.min", i(r.EntitiesPerPartition.Min)}, {"entitiesPerPartition.median", i(r.EntitiesPerPartition.Median)},
		{"entitiesPerPartition.p99", i(r.EntitiesPerPartition.P99)}, {"entitiesPerPartition.max", i(r.EntitiesPerPartition.Max)},
		{"partitionKeyLength.min", i(r.PartitionKeyLength.Min)}, {"partitionKeyLength.avg", fl(r.PartitionKeyLength.Avg)}, {"partitionKeyLength.max", i(r.PartitionKeyLength.Max)},
		{"rowKeyLength.min", i(r.RowKeyLength.Min)}, {"rowKeyLength.avg", fl(r.RowKeyLength.Avg)}, {"rowKeyLength.max", i(r.RowKeyLength.Max)},
		{"entitySize.avg", fl(r.EntitySize.Avg)}, {"entitySize.max", i(r.EntitySize.Max)}, {"entitySize.maxShareOfLimit", fl(r.EntitySize.ShareOfLimit)},
		{"propertyCount.max", strconv.Itoa(r.PropertyCount.Max)}, {"propertyCount.limit", strconv.Itoa(r.PropertyCount.Limit)},
	}
	for _, p := range r.LargestPartitions {
		rows = append(rows, [2]string{"largestPartition." + p.PartitionKey, i(p.Entities)})
	}
	for _, p := range r.Properties {
		for _, t := range p.Types {
			rows = append(rows, [2]string{"property." + p.Name + "@" + t.Type, i(t.Entities)})
		}
	}
	out := [][]string{{"metric", "value"}}
	for _, row := range rows {
		out = append(out, row[:])
	}
	return out
}
