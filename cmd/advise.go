package cmd

import (
	"errors"
	"io"
	"strconv"

	"github.com/spf13/cobra"
	"github.com/tstable/tstable/backend"
	"github.com/tstable/tstable/cmdspec"
	"github.com/tstable/tstable/design"
	"github.com/tstable/tstable/odata"
)

func newAdviseCmd(f *Factory) *cobra.Command {
	var queries string
	c := &cobra.Command{
		Use:   "advise TABLE --queries FILE",
		Short: "Run an application's queries against the data and propose keys and indexes that make them cheaper",
		Long: `Read the application's queries from FILE (one $filter a line; blank lines and
lines starting with # are skipped; - reads standard input), run each one
against the table to the end, and report its query class, the key ranges it
reads, and how many entities it scanned and returned.

For each query that is not a point or range query, propose the design
guide's fix for this data — an intra-partition secondary index (a copy
under a RowKey prefix such as 'email_'), a compound RowKey, an
inter-partition secondary index, or index entities — with the query the
application would run instead and its class. The summary gives, for each
proposal, the share of the workload's scanned entities it would remove.

FILE may be the query log of tstable serve --log: reads without a filter,
queries of other tables, repeats and lines that are not the log's are
skipped, and the report's read line counts each.

-o json prints one object {"queries":[…],"proposals":[…],…}.`,
		Example: `  tstable advise Employees --queries queries.txt
  echo "LastName eq 'Jones'" | tstable advise Employees --queries -`,
		RunE: func(c *cobra.Command, args []string) error {
			if queries == "" {
				return usageErrorf(c, "%s needs --queries FILE (one $filter a line)", c.CommandPath())
			}
			r, name, closeIn, err := f.openInput(c, []string{queries}, 0, "$filter lines")
			if err != nil {
				return err
			}
			defer closeIn()
			w, err := design.ParseQueries(r)
			if err != nil {
				var le *design.LineError
				var se *odata.SyntaxError
				if errors.As(err, &le) && errors.As(err, &se) {
					return &syntaxError{flag: "--queries " + name + " line " + strconv.Itoa(le.Line), err: se}
				}
				return err
			}
			if len(w.Queries) == 0 {
				return usageErrorf(c, "%s holds no queries (%s): write one $filter a line, or give the file tstable serve --log writes", name, w.Read.Text(""))
			}
			var a *design.Advice
			err = f.Read(c.Context(), args[0], func(b backend.Backend) error {
				a, err = design.Advise(c.Context(), b, args[0], w)
				return err
			})
			if err != nil {
				return err
			}
			if len(a.Queries) == 0 {
				return usageErrorf(c, "%s holds no queries of %s (%s)", name, args[0], a.Read.Text(args[0]))
			}
			return f.printer.PrintProse(adviceResult{a}, func(w io.Writer) error { return design.WriteAdvice(w, a) })
		},
	}
	cmdspec.Args(c, "TABLE")
	c.Flags().StringVar(&queries, "queries", "", "`FILE` of $filter lines (- for standard input)")
	return c
}

// adviceResult is what advise prints; its queries are the lines of jsonl
// and the rows of csv.
type adviceResult struct{ *design.Advice }

func (r adviceResult) items() []any { return anys(r.Queries) }
