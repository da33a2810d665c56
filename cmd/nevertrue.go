package cmd

import (
	"context"

	"github.com/tstable/tstable/backend"
	"github.com/tstable/tstable/design"
	"github.com/tstable/tstable/odata"
)

// neverTrue is, for a query that returned nothing, what design.FilterNotes
// finds: the comparisons that can never be true on the data (a property no
// entity has, a literal of a type the property never holds). A failure to
// read them is no failure of the query: then there are none.
func neverTrue(ctx context.Context, b backend.Backend, table string, flt *odata.Filter) []design.FilterNote {
	if flt == nil {
		return nil
	}
	notes, err := design.FilterNotes(ctx, b, table, flt, design.NoteScanLimit)
	if err != nil {
		return nil
	}
	return notes
}
