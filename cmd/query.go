package cmd

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"strconv"
	"strings"
	"time"

	"github.com/spf13/cobra"
	"github.com/spf13/pflag"
	"github.com/tstable/tstable/odata"
	"github.com/tstable/tstable/shell"
	"github.com/tstable/tstable/store"
)

// queryOptions are the flags of query (and, in part, explain and export).
type queryOptions struct {
	filter       string
	sel          string
	top          int
	pageSize     int
	continuation string
	all          bool
	explain      bool
}

// parsedQuery is a query checked and ready to run.
type parsedQuery struct {
	table string
	query odata.Query
	plan  *odata.Plan
	scope string // the continuation scope: table NUL canonical filter
	start *odata.Key
}

// parseQuery checks the flags: syntax errors and out-of-range numbers are
// usage errors; a token that does not belong to the query is refused as
// the service refuses it (InvalidContinuationToken, exit 1).
func parseQuery(c *cobra.Command, table string, o *queryOptions) (*parsedQuery, error) {
	p := &parsedQuery{table: table}
	if c.Flags().Changed("filter") {
		flt, err := odata.ParseFilter(o.filter)
		if err != nil {
			var se *odata.SyntaxError
			if errors.As(err, &se) {
				return nil, &syntaxError{flag: "--filter", err: se}
			}
			return nil, err
		}
		p.query.Filter = flt
	}
	names, err := parseSelectFlag(o.sel)
	if err != nil {
		return nil, err
	}
	p.query.Select = names
	if c.Flags().Changed("top") {
		if err := odata.ParseTop(o.top); err != nil {
			return nil, usageErrorf(c, "--top: %v", err)
		}
		p.query.Top = o.top
	}
	if o.pageSize < 1 || o.pageSize > odata.MaxTop {
		return nil, usageErrorf(c, "--page-size must be between 1 and 1000; got %d", o.pageSize)
	}
	p.plan = odata.PlanQuery(p.query.Filter)
	p.scope = table + "\x00" + p.query.Filter.String()
	if o.continuation != "" {
		k, err := odata.DecodeContinuation(o.continuation, p.scope)
		if err != nil {
			return nil, odata.Errorf(odata.CodeInvalidContinuation, "--continuation: %v", err)
		}
		p.start = &k
	}
	return p, nil
}

func addQueryFlags(c *cobra.Command, o *queryOptions) {
	fl := c.Flags()
	fl.StringVar(&o.filter, "filter", "", "OData $filter `expression`, e.g. \"PartitionKey eq 'Sales' and Age gt 30\"")
}

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
		Example: `  tstable query Employees --filter "PartitionKey eq 'Sales' and RowKey ge '00010'"
  tstable query Employees --select Email,Age --top 10 -o json
  tstable query Employees --all -o jsonl > all.jsonl`,
		Annotations: tableAnnotation,
		Args:        exactArgs("TABLE"),
		RunE: func(c *cobra.Command, args []string) error {
			return runQuery(c, f, args, o)
		},
	}
	addQueryFlags(c, o)
	fl := c.Flags()
	fl.StringVar(&o.sel, "select", "", "properties to return, comma-separated (`a,b`)")
	fl.IntVar(&o.top, "top", 0, "return at most `N` entities (1-1000)")
	fl.IntVar(&o.pageSize, "page-size", odata.MaxTop, "entities per page (1-1000)")
	fl.StringVar(&o.continuation, "continuation", "", "resume where the previous page ended (the `TOKEN` it printed)")
	fl.BoolVar(&o.all, "all", false, "follow continuation tokens to the end")
	fl.BoolVar(&o.explain, "explain", false, "show the query class and the scanned and returned counts")
	return c
}

func runQuery(c *cobra.Command, f *Factory, args []string, o *queryOptions) error {
	began := time.Now()
	format, err := f.Format(c)
	if err != nil {
		return err
	}
	p, err := parseQuery(c, args[0], o)
	if err != nil {
		return err
	}
	ctx := c.Context()
	var res *store.QueryResult
	var pageEnts []*odata.Entity
	showTS := hasName(p.query.Select, odata.Timestamp)
	out := f.IO.Out
	var jw *jsonListWriter // --all -o json: left open for the members after "value"

	err = f.Read(ctx, p.table, func(b store.Backend) error {
		req := store.QueryRequest{Query: p.query, PageSize: min(o.pageSize, topOr(p.query.Top, odata.MaxTop)), Start: p.start}
		if !o.all {
			// One page, held in memory (at most 1000 entities).
			res, err = b.Query(ctx, p.table, req, func(e *odata.Entity) error {
				pageEnts = append(pageEnts, e)
				return nil
			})
			return err
		}
		req.PageSize = 0
		if p.query.Top > 0 {
			req.PageSize = p.query.Top
		}
		res, err = streamAll(ctx, f, b, format, p, req, showTS, &jw)
		return err
	})
	if err != nil {
		return err
	}
	if o.all {
		res.Next = nil // --all reads to the end (or to --top)
	}

	token := ""
	if res.Next != nil {
		token = odata.EncodeContinuation(*res.Next, p.scope)
	}
	x := odata.Explain(res.Plan, res.Scanned, res.Returned, res.Requests)
	if res.Plan == nil {
		x = odata.Explain(p.plan, res.Scanned, res.Returned, res.Requests)
	}
	sess := shell.SessionFrom(ctx)

	if format == FormatJSON {
		if jw == nil {
			jw = newJSONListWriter(out)
			for _, e := range pageEnts {
				jw.write(e)
			}
		}
		var members []string
		if token != "" {
			members = append(members, `"continuation": `+strconv.Quote(token))
		}
		if o.explain {
			xb, _ := json.Marshal(x)
			members = append(members, `"explain": `+string(xb))
		}
		if err := jw.end(members...); err != nil {
			return err
		}
	}
	if !o.all {
		switch format {
		case FormatJSON:
		case FormatTable:
			renderTable(out, pageEnts, showTS, f.IO.Width)
		default:
			if err := f.writeEntities(format, pageEnts, showTS); err != nil {
				return err
			}
		}
	}
	if format == FormatTable {
		if sess != nil && sess.Explain {
			fmt.Fprintln(out, footer(res, x, time.Since(began)))
		} else {
			fmt.Fprintln(out, countLine(res.Returned))
		}
		if o.explain {
			fmt.Fprint(out, x.Text())
		}
	} else if sess != nil && sess.Explain {
		fmt.Fprintln(f.IO.ErrOut, footer(res, x, time.Since(began)))
	}
	if o.explain && (format == FormatJSONL || format == FormatCSV) {
		fmt.Fprint(f.IO.ErrOut, x.Text())
	}
	if token != "" && format != FormatJSON {
		fmt.Fprintln(f.IO.ErrOut, "continuation: "+token)
	}
	if sess != nil {
		if token != "" {
			sess.LastQuery = queryArgs(c, args)
			sess.Continuation = token
		} else {
			sess.LastQuery, sess.Continuation = nil, ""
		}
	}
	return nil
}

func topOr(top, def int) int {
	if top > 0 {
		return top
	}
	return def
}

// streamAll runs req with no page limit and writes entities as they come:
// jsonl and json directly, table in chunks of 1000 rows, csv after a first
// pass that finds the columns (so the header is complete and memory flat).
func streamAll(ctx context.Context, f *Factory, b store.Backend, format string, p *parsedQuery, req store.QueryRequest, showTS bool, jw **jsonListWriter) (*store.QueryResult, error) {
	out := f.IO.Out
	switch format {
	case FormatJSONL:
		j := newJSONLWriter(out)
		res, err := b.Query(ctx, p.table, req, j.write)
		if ferr := j.flush(); err == nil {
			err = ferr
		}
		return res, err
	case FormatJSON:
		*jw = newJSONListWriter(out)
		return b.Query(ctx, p.table, req, (*jw).write)
	case FormatCSV:
		return streamCSV(ctx, out, b, p.table, req)
	}
	var chunk []*odata.Entity
	res, err := b.Query(ctx, p.table, req, func(e *odata.Entity) error {
		chunk = append(chunk, e)
		if len(chunk) == odata.MaxTop {
			renderTable(out, chunk, showTS, f.IO.Width)
			chunk = chunk[:0]
		}
		return nil
	})
	if err == nil && (len(chunk) > 0 || res.Returned == 0) {
		renderTable(out, chunk, showTS, f.IO.Width)
	}
	return res, err
}

// streamCSV writes a query's entities as CSV in two passes: the first
// collects the typed columns, the second writes the rows.
func streamCSV(ctx context.Context, out io.Writer, b store.Backend, table string, req store.QueryRequest) (*store.QueryResult, error) {
	var cols csvColumnSet
	if _, err := b.Query(ctx, table, req, func(e *odata.Entity) error {
		cols.add(e)
		return nil
	}); err != nil {
		return nil, err
	}
	cw, err := newCSVWriter(out, cols.cols)
	if err != nil {
		return nil, err
	}
	res, err := b.Query(ctx, table, req, cw.write)
	if ferr := cw.flush(); err == nil {
		err = ferr
	}
	return res, err
}

// footer is the shell's one-line summary under a query's result:
// "5 entities · range query · scanned 5 · 2.1 ms · more: next".
func footer(res *store.QueryResult, x *odata.Explanation, took time.Duration) string {
	parts := []string{countLine(res.Returned), x.Class.Text()}
	if res.Scanned >= 0 {
		parts = append(parts, "scanned "+strconv.FormatInt(res.Scanned, 10))
	}
	parts = append(parts, strconv.FormatFloat(float64(took.Microseconds())/1000, 'f', 1, 64)+" ms")
	if res.Next != nil {
		parts = append(parts, "more: next")
	}
	return strings.Join(parts, " · ")
}

// queryArgs rebuilds the query's argument list without --continuation (and
// without --db, which the shell sets itself), for the shell's `next`.
func queryArgs(c *cobra.Command, args []string) []string {
	out := append([]string{"query"}, args...)
	c.Flags().Visit(func(fl *pflag.Flag) {
		if fl.Name == "continuation" || fl.Name == "db" {
			return
		}
		out = append(out, "--"+fl.Name+"="+fl.Value.String())
	})
	return out
}
