// Package lookup is the work of a point query with nothing around it: open
// the file read-only, parse the filter, read the matching entity through
// the store's JSON-lines path (the one `tstable query -o jsonl` takes) and
// write it. The start-up floor programs beside it run it with and without
// the command-line library, to show what a process costs before tstable's
// own command tree, output layer and features.
package lookup

import (
	"context"
	"io"

	"github.com/tstable/tstable/backend"
	"github.com/tstable/tstable/odata"
	"github.com/tstable/tstable/store"
)

// Run answers filter on table in the database at path, writing JSON lines
// to w.
func Run(path, table, filter string, w io.Writer) error {
	db, err := store.Open(path, &store.Options{ReadOnly: true})
	if err != nil {
		return err
	}
	defer db.Close()
	f, err := odata.ParseFilter(filter)
	if err != nil {
		return err
	}
	req := backend.QueryRequest{Query: odata.Query{Filter: f}, PageSize: odata.MaxTop} // one page, as tstable query asks
	_, err = db.QueryJSONL(context.Background(), table, req, func(lines []byte, _ int) error {
		_, err := w.Write(lines)
		return err
	})
	return err
}
