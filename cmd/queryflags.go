package cmd

import (
	"errors"
	"slices"

	"github.com/spf13/cobra"
	"github.com/tstable/tstable/odata"
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
	kind  odata.ContinuationKind // the kind of start's token
	cols  Columns                // the system properties --select names, for the table format
}

// parseQuery checks the flags: syntax errors and out-of-range numbers are
// usage errors; a token that does not belong to the query is refused as
// the service refuses it (InvalidContinuationToken, exit 1).
func parseQuery(c *cobra.Command, table string, o *queryOptions) (*parsedQuery, error) {
	p := &parsedQuery{table: table}
	if c.Flags().Changed("filter") {
		flt, err := odata.ParseQueryFilter(o.filter)
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
	// The ETag comes back whatever is selected: naming it only shows it.
	p.cols = selectedColumns(names)
	p.query.Select = without(names, odata.ETagName)
	if c.Flags().Changed("top") {
		switch {
		case o.all && o.top < 0:
			return nil, usageErrorf(c, "--top must be 0 or more; got %d", o.top)
		case !o.all:
			if err := odata.ParseTop(o.top); err != nil {
				return nil, usageErrorf(c, "--top: %v", err)
			}
		}
		p.query.Top = o.top
		if o.top == 0 {
			// --top 0 asks for no entity, as $top=0 does: nothing is read.
			p.query.Filter = odata.MatchNothing()
		}
	}
	if o.pageSize < 1 || o.pageSize > odata.MaxTop {
		return nil, usageErrorf(c, "--page-size must be between 1 and 1000; got %d", o.pageSize)
	}
	p.plan = odata.PlanQuery(p.query.Filter)
	p.scope = table + "\x00" + p.query.Filter.String()
	if o.continuation != "" {
		k, kind, err := odata.DecodeContinuation(o.continuation, p.scope)
		if err != nil {
			return nil, odata.Errorf(odata.CodeInvalidContinuation, "--continuation: %v", err)
		}
		p.start, p.kind = &k, kind
	}
	return p, nil
}

// checkKind refuses a continuation token of another kind than the target
// pages by (a remote service's token on a local file, or the reverse): it
// would resume somewhere else, or at the first page.
func (p *parsedQuery) checkKind(t Target) error {
	want := t.continuationKind()
	if p.start == nil || p.kind == want {
		return nil
	}
	return odata.Errorf(odata.CodeInvalidContinuation, "--continuation: the token is from a query of %s, and this query reads %s; run it where the token was made", describeKind(p.kind), t.Label())
}

// addFilterFlag adds --filter, which query, explain and export share.
func addFilterFlag(c *cobra.Command, o *queryOptions) {
	fl := c.Flags()
	fl.StringVar(&o.filter, "filter", "", "OData $filter `expression`, e.g. \"PartitionKey eq 'Sales' and Age gt 30\"")
}

// parseSelectFlag parses --select; a syntax error is a usage error.
func parseSelectFlag(s string) ([]string, error) {
	names, err := odata.ParseSelect(s)
	if err != nil {
		if se, ok := err.(*odata.SyntaxError); ok {
			return nil, &syntaxError{flag: "--select", err: se}
		}
		return nil, err
	}
	return names, nil
}

// without returns names less name, names itself unchanged; nil when none
// is left, since a nil --select selects every property.
func without(names []string, name string) []string {
	out := slices.DeleteFunc(slices.Clone(names), func(n string) bool { return n == name })
	if len(out) == 0 {
		return nil
	}
	return out
}
