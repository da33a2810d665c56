package cmd

import (
	"io"

	"github.com/spf13/cobra"
	"github.com/tstable/tstable/backend"
	"github.com/tstable/tstable/cmdspec"
	"github.com/tstable/tstable/design"
	"github.com/tstable/tstable/keyspace"
	"github.com/tstable/tstable/odata"
)

func newExplainCmd(f *Factory) *cobra.Command {
	o := &queryOptions{pageSize: odata.MaxTop}
	var d drawFlags
	c := &cobra.Command{
		Use:   "explain TABLE",
		Short: "Run a query and explain what it read",
		Long: `Run a query to the end, without printing its entities, and explain it: the
design guide's query class (point, range, partition-scan or table-scan),
the key ranges read, how many entities were scanned and returned, in how
many pages, and what a table designer could do about it.

With -o json (or jsonl) the explanation is one object:
{"class":"range","ranges":[…],"scanned":12,"returned":12,"pages":1,"density":1,"diagnosis":"row-range","reason":"…","advice":"…"}
"diagnosis" is a stable id of why the class is what it is (row-range,
partition-filtered, key-not-string, …): scripts match on it, not on the
words of "reason".

On a terminal at least 40 columns wide, explain also draws the table's key
space: its partitions in the service's order as cells as wide as their
entities, the entities the query returned, those it scanned without
returning them, and those it did not read. Drawing reads the whole table
once more (its keys and the filter's properties). --draw draws it off a
terminal too (in the table format unless -o says otherwise), --no-draw
never; a remote table is drawn only with --draw, since drawing reads every
entity of it. Colours only on a colour terminal (NO_COLOR turns them off),
ASCII unless the locale is UTF-8.`,
		Example: `  tstable explain Employees --filter "PartitionKey eq 'Sales' and Age gt 30"
  tstable explain Orders --filter "PartitionKey eq 'cust_00001'" --draw`,
		RunE: func(c *cobra.Command, args []string) error {
			if d.draw && d.noDraw {
				return usageErrorf(c, "--draw and --no-draw cannot go together; give one")
			}
			p, err := parseQuery(c, args[0], o)
			if err != nil {
				return err
			}
			pr := f.printer
			if d.draw && !c.Flags().Changed("output") {
				pr = pr.ForPeopleNow()
			}
			draw := d.wants(pr)
			if draw && !d.draw {
				if t, err := f.Target(); err != nil || t.IsRemote() {
					draw = false // a remote table is read whole only when asked
				}
			}
			var picture *keyspace.Model
			var res *backend.QueryResult
			var notes []design.FilterNote
			err = f.Read(c.Context(), p.table, func(b backend.Backend) error {
				res, err = b.Query(c.Context(), p.table, backend.QueryRequest{Query: p.query}, func(*odata.Entity) error { return nil })
				if err == nil && res.Returned == 0 {
					notes = neverTrue(c.Context(), b, p.table, p.query.Filter)
				}
				if err == nil && draw {
					plan := res.Plan
					if plan == nil {
						plan = p.plan
					}
					picture, err = design.KeySpace(c.Context(), b, p.table, p.query, plan)
				}
				return err
			})
			if err != nil {
				return err
			}
			plan := res.Plan
			if plan == nil {
				plan = p.plan
			}
			// Pages as the service would count them: 1000 entities a page.
			pages := max(res.Requests, 1)
			if res.Returned > odata.MaxTop {
				pages = int((res.Returned + odata.MaxTop - 1) / odata.MaxTop)
			}
			x := odata.Explain(plan, res.Scanned, res.Returned, pages)
			if len(notes) > 0 {
				x.Advice = "" // no index for a comparison that is never true: the notes say what to fix
			}
			defer pr.FilterNotes(notes)
			err = pr.PrintProse(x, func(w io.Writer) error {
				_, err := io.WriteString(w, x.Text())
				return err
			})
			if err != nil || picture == nil {
				return err
			}
			return pr.Picture(keyspace.Text(picture, pr.DrawStyle()))
		},
	}
	cmdspec.Args(c, "TABLE")
	addFilterFlag(c, o)
	addDrawFlags(c, &d)
	return c
}
