package cmd

import (
	"context"
	"strconv"
	"strings"
	"time"

	"github.com/spf13/cobra"
	"github.com/spf13/pflag"
	"github.com/tstable/tstable/backend"
	"github.com/tstable/tstable/cmdspec"
	"github.com/tstable/tstable/design"
	"github.com/tstable/tstable/odata"
	"github.com/tstable/tstable/transfer"
)

func newQueryCmd(f *Factory) *cobra.Command {
	o := &queryOptions{}
	c := &cobra.Command{
		Use:   "query TABLE",
		Short: "Query a table with $filter, $select and $top, a page at a time",
		Long: `Query a table. One page (at most --page-size entities, 1000 by default) is
printed, then the continuation token: on standard error as
"continuation: TOKEN" in table, jsonl and csv output, and as "continuation"
beside "value" in json output. Pass it back with --continuation for the
next page. A token is bound to the table and filter it came from.

--all follows the tokens to the end, streaming. --top N returns at most N
entities (with --all, N in total). --explain adds the query class, what was
read and the scanned and returned counts: after the table, inside the json
object as "explain", and on standard error in jsonl and csv output.`,
		Example: `  tstable query Employees --filter "PartitionKey eq 'Sales' and RowKey ge 'empid_000100'"
  tstable query Employees --select Email,Age --top 10 -o json
  tstable query Employees --all -o jsonl > all.jsonl`,
		RunE: func(c *cobra.Command, args []string) error {
			return runQuery(c, f, args, o)
		},
	}
	cmdspec.Args(c, "TABLE")
	addFilterFlag(c, o)
	fl := c.Flags()
	fl.StringVar(&o.sel, "select", "", "properties to return, comma-separated (`a,b`)")
	fl.IntVar(&o.top, "top", 0, "return at most `N` entities (0-1000; 0 returns none)")
	fl.IntVar(&o.pageSize, "page-size", odata.MaxTop, "entities per page (1-1000)")
	fl.StringVar(&o.continuation, "continuation", "", "resume where the previous page ended (the `TOKEN` it printed)")
	fl.BoolVar(&o.all, "all", false, "follow continuation tokens to the end")
	fl.BoolVar(&o.explain, "explain", false, "show the query class and the scanned and returned counts")
	return c
}

func runQuery(c *cobra.Command, f *Factory, args []string, o *queryOptions) error {
	began := time.Now()
	p, err := parseQuery(c, args[0], o)
	if err != nil {
		return err
	}
	ctx := c.Context()
	target, err := f.Target()
	if err != nil {
		return err
	}
	if err := p.checkKind(target); err != nil {
		return err
	}
	list := f.printer.Entities(p.cols)
	var res *backend.QueryResult
	var notes []design.FilterNote
	err = f.Read(ctx, p.table, func(b backend.Backend) error {
		req := backend.QueryRequest{Query: p.query, PageSize: min(o.pageSize, topOr(p.query.Top, odata.MaxTop)), Start: p.start}
		if o.all {
			req.PageSize = 0 // no page: stream every match (up to --top) as it comes
		}
		res, err = queryInto(ctx, b, p.table, req, list)
		if err == nil && res.Returned == 0 && res.Next == nil {
			notes = neverTrue(ctx, b, p.table, p.query.Filter)
		}
		return err
	})
	if err != nil {
		list.Abandon()
		return err
	}
	if o.all {
		res.Next = nil // --all reads to the end (or to --top)
	}
	token := ""
	if res.Next != nil {
		token = odata.EncodeContinuation(*res.Next, p.scope, target.continuationKind())
	}
	plan := res.Plan
	if plan == nil {
		plan = p.plan
	}
	x := odata.Explain(plan, res.Scanned, res.Returned, res.Requests)
	end := ListEnd{Continuation: token, Summary: countLine(res.Returned)}
	if o.explain {
		end.Explain = x
	}
	if f.Session != nil && f.Session.ExplainFooter() {
		took := time.Duration(-1) // no time in the footer with the shell's timing off
		if f.Session.ShowTiming() {
			took = time.Since(began)
		}
		end.Footer = footerText(res, x, took)
	}
	if err := list.Close(end); err != nil {
		return err
	}
	if err := f.drawFooter(ctx, p, plan); err != nil {
		return err
	}
	f.printer.FilterNotes(notes)
	if f.Session != nil {
		f.Session.QueryDone(queryArgs(c, args), token)
	}
	return nil
}

// queryInto runs req on b into list: as JSON lines written straight from
// the stored bytes when the backend keeps them so (a local file) and the
// list takes them, else entity by entity. A stream (no page) to a list
// that needs its columns first is read once for them, then again.
func queryInto(ctx context.Context, b backend.Backend, table string, req backend.QueryRequest, list *EntityList) (*backend.QueryResult, error) {
	if req.PageSize == 0 && list.NeedsColumns() {
		cols, err := scanColumns(ctx, b, table, req)
		if err != nil {
			return nil, err
		}
		list.SetColumns(cols)
	}
	if jq, ok := b.(backend.JSONLQuerier); ok && list.TakesLines() {
		return jq.QueryJSONL(ctx, table, req, list.WriteLines)
	}
	return b.Query(ctx, table, req, list.Write)
}

func topOr(top, def int) int {
	if top > 0 {
		return top
	}
	return def
}

// scanColumns reads a query's entities once for their typed CSV columns,
// so that the rows can then stream under a complete header.
func scanColumns(ctx context.Context, b backend.Backend, table string, req backend.QueryRequest) ([]transfer.Column, error) {
	var cols transfer.ColumnSet
	_, err := b.Query(ctx, table, req, func(e *odata.Entity) error {
		cols.Add(e)
		return nil
	})
	return cols.Columns(), err
}

// footerText is the shell's one-line summary under a query's result:
// "5 entities · range query · scanned 5 · 2.1 ms · more: next" (the time
// only when took is not negative: the shell's timing is on).
func footerText(res *backend.QueryResult, x *odata.Explanation, took time.Duration) string {
	parts := []string{countLine(res.Returned), x.Class.Text()}
	if res.Scanned >= 0 {
		parts = append(parts, "scanned "+strconv.FormatInt(res.Scanned, 10))
	}
	if took >= 0 {
		parts = append(parts, strconv.FormatFloat(float64(took.Microseconds())/1000, 'f', 1, 64)+" ms")
	}
	if res.Next != nil {
		parts = append(parts, "more: next")
	}
	return strings.Join(parts, " · ")
}

// queryArgs rebuilds the query's argument list without --continuation (and
// without --db, which the shell sets itself), for the shell's `next`.
func queryArgs(c *cobra.Command, args []string) []string {
	out := append([]string{"query"}, args...)
	c.Flags().VisitAll(func(fl *pflag.Flag) { // Changed, not Visit: the shell reuses flag sets (shelltrees.go)
		if !fl.Changed || fl.Name == "continuation" || fl.Name == "db" {
			return
		}
		out = append(out, "--"+fl.Name+"="+fl.Value.String())
	})
	return out
}
