package cmd

import (
	"errors"
	"fmt"
	"io"
	"os"
	"strings"
	"time"

	"github.com/spf13/cobra"
	"github.com/tstable/tstable/backend"
	"github.com/tstable/tstable/cmdspec"
	"github.com/tstable/tstable/odata"
	"github.com/tstable/tstable/transfer"
)

type importOptions struct {
	format          string
	mode            string
	continueOnError bool
	replace         bool
}

func newImportCmd(f *Factory) *cobra.Command {
	o := &importOptions{}
	c := &cobra.Command{
		Use:   "import TABLE [FILE|-]",
		Short: "Load entities from JSONL or CSV",
		Long: `Load entities from a file (or standard input) as fast as the store allows.
Into a local file, every row is read and checked before any is written:
the rows are sorted by key (in memory, or through a temporary file
.FILE.import-*.tmp next to the database when they are many), checked
against the table, then written in key order in large transactions (up
to 50,000 rows, or a second's writing). Rows with the same keys keep
their order, so the result is that of writing them one by one.

Formats (--format, else by the file's extension, else jsonl):
  jsonl  one entity per line in the service's JSON (what export writes);
         blank lines are skipped.
  csv    a header row naming the columns, then one entity per row.
         PartitionKey and RowKey columns are required; Timestamp and
         odata.etag columns are ignored. A column is typed by its header,
         Name@Edm.Int64 (any Edm type; the "Edm." may be left out); an
         untyped column is Edm.String — no guessing. An empty cell leaves
         the property out.

Modes (--mode), each meaning what the command of that name does:
  upsert   the default: Insert Or Merge (an existing entity keeps the
           properties the row does not name); with --replace, Insert Or
           Replace (the row becomes the whole entity)
  insert   EntityAlreadyExists if the entity is there
  merge    merge into an existing entity; ResourceNotFound if absent
  replace  replace an existing entity; ResourceNotFound if absent

A bad row (one that does not parse, or that the store refuses: a key
already there or twice in the input for insert, a key missing for merge
or replace) stops the import with its line number, and into a local file
nothing is imported. With --continue-on-error each bad row is reported
on standard error as "reject: line N: …" and the import goes on; the
exit status is then 1 if any row was rejected. A line (a CSV row) longer
than 8 MiB is refused as soon as that much of it is read; --continue-on-error
skips such a JSONL line, but not a CSV row. When storing fails once
writing has begun (a full disk), the rows stored are those with the
lowest keys, and the message names the first key not stored. Counts are
reported on standard error, with a progress bar when it is a terminal.`,
		Example: `  tstable import Employees employees.jsonl
  tstable table create EmployeesCopy
  tstable export Employees | tstable import EmployeesCopy
  tstable import Employees people.csv --mode insert --continue-on-error`,
		RunE: func(c *cobra.Command, args []string) error {
			return runImport(c, f, args, o)
		},
	}
	cmdspec.Args(c, "TABLE", "[FILE|-]")
	cmdspec.Writes(c)
	fl := c.Flags()
	fl.StringVar(&o.format, "format", "", "input `format`: jsonl or csv (default: by extension, else jsonl)")
	fl.StringVar(&o.mode, "mode", "upsert", "write `mode`: upsert, insert, merge or replace (as the commands of those names)")
	fl.BoolVar(&o.replace, "replace", false, "with --mode upsert: Insert Or Replace, the row becomes the whole entity")
	fl.BoolVar(&o.continueOnError, "continue-on-error", false, "report bad rows on standard error and go on")
	return c
}

// runImport reads the input and loads it, then says what was imported.
func runImport(c *cobra.Command, f *Factory, args []string, o *importOptions) error {
	kind, err := importKind(c, o)
	if err != nil {
		return err
	}
	format, err := importFormat(c, o, args)
	if err != nil {
		return err
	}
	table := args[0]
	r, name, closeIn, err := f.openInput(c, args, 1, "entities as JSON lines (or CSV with --format csv)")
	if err != nil {
		return err
	}
	defer closeIn()
	bar, r := f.printer.ByteProgress("importing "+table, regularSize(r), r)
	im, err := transfer.NewImport(r, transfer.ImportOptions{
		Format: format, Name: name, KeepGoing: o.continueOnError,
		OnReject: func(line int64, err error) { f.printer.Note("reject: %s line %d: %v", name, line, err) },
	})
	if err != nil {
		bar.Finish()
		return err
	}
	defer im.Close()
	began := time.Now()
	defer collectLess(200)() // about 15% off a large import's time, for a heap about half again as large
	var out *transfer.ImportOutcome
	err = f.Load(c.Context(), func(b backend.Backend) error {
		out, err = im.Into(c.Context(), b, table, kind)
		return err
	})
	bar.Finish()
	if out == nil { // the storage did not open
		return err
	}
	if err != nil {
		if msg := importStopped(out, table); msg != "" {
			f.printer.Note("%s", msg)
		}
		return rowErrorWithHint(err)
	}
	f.printer.Note("%s", importDone(out, table, time.Since(began), f.IO.ErrTTY))
	if out.Rejected > 0 {
		return &silentError{status: ExitFailed}
	}
	return nil
}

// importKinds are the store's operations for --mode.
var importKinds = map[string]backend.OpKind{"upsert": backend.OpInsertOrMerge, "insert": backend.OpInsert, "merge": backend.OpMerge, "replace": backend.OpReplace}

// importKind is the store's operation for --mode (and --replace).
func importKind(c *cobra.Command, o *importOptions) (backend.OpKind, error) {
	kind, ok := importKinds[o.mode]
	switch {
	case !ok:
		return 0, usageErrorf(c, "--mode must be upsert, insert, merge or replace; got %q", o.mode)
	case o.replace && o.mode != "upsert":
		return 0, usageErrorf(c, "--replace goes with --mode upsert (Insert Or Replace); --mode %s has no replacing form", o.mode)
	case o.replace:
		return backend.OpInsertOrReplace, nil
	}
	return kind, nil
}

// importFormat is the input's format: --format, else csv for a .csv
// file, else jsonl.
func importFormat(c *cobra.Command, o *importOptions, args []string) (transfer.Format, error) {
	input := o.format // the input's format, not the output's
	if input == "" {
		input = "jsonl"
		if len(args) > 1 && strings.EqualFold(strings.TrimPrefix(extOf(args[1]), "."), "csv") {
			input = "csv"
		}
	}
	switch transfer.Format(input) {
	case transfer.FormatJSONL, transfer.FormatCSV:
		return transfer.Format(input), nil
	}
	return "", usageErrorf(c, "--format must be jsonl or csv; got %q", input)
}

// regularSize is the size of r when it is a regular file, else -1 (a
// pipe, a terminal): the progress bar's total.
func regularSize(r io.Reader) int64 {
	if fh, ok := r.(*os.File); ok {
		if st, err := fh.Stat(); err == nil && st.Mode().IsRegular() {
			return st.Size()
		}
	}
	return -1
}

// rowErrorWithHint turns the row an import stopped at into the error
// line, with the flag that skips such rows (unless none could be skipped).
func rowErrorWithHint(err error) error {
	var re *transfer.RowError
	switch {
	case !errors.As(err, &re):
		return err
	case re.Final:
		return odata.Errorf(re.Code, "%v", re)
	}
	return odata.Errorf(re.Code, "%v; --continue-on-error skips bad rows", re)
}

// importStopped says what an import that stopped early imported: only
// what was committed, and of a bad row only when a row was bad ("" when
// there is nothing to add to the error).
func importStopped(out *transfer.ImportOutcome, table string) string {
	n := countLine(out.Written)
	switch {
	case out.Stop == transfer.StopCommit && out.FromKey != nil:
		return fmt.Sprintf("imported %s into %s; storing the rest failed: rows are stored in key order, and none from (%s, %s) on is stored; fix the cause below (free some space, say), then import again (upsert writes the rows already stored again, unchanged)", n, table, out.FromKey.PartitionKey, out.FromKey.RowKey)
	case out.Stop == transfer.StopCommit:
		return fmt.Sprintf("imported %s into %s; storing the rest failed", n, table)
	case out.Stop == transfer.StopLocked && out.Written > 0:
		return fmt.Sprintf("imported %s into %s before another process took the file and did not give it back in time; the rest was not imported (run the import again when it is free)", n, table)
	case out.Stop == transfer.StopBadRow && out.Written == 0:
		return fmt.Sprintf("nothing was imported into %s: a bad row stops the import before anything is written", table)
	case out.Stop == transfer.StopBadRow:
		return fmt.Sprintf("imported %s into %s before the import stopped at a bad row", n, table)
	case out.Stop == transfer.StopInterrupted:
		return fmt.Sprintf("imported %s into %s before the import was interrupted", n, table)
	case out.Written > 0:
		return fmt.Sprintf("imported %s into %s before the import stopped", n, table)
	}
	return ""
}

// importDone is the summary of an import that read all its input; on a
// terminal with its time and rate.
func importDone(out *transfer.ImportOutcome, table string, took time.Duration, tty bool) string {
	summary := fmt.Sprintf("imported %s into %s", countLine(out.Written), table)
	if out.Rejected > 0 {
		summary += fmt.Sprintf(", %d rejected", out.Rejected)
	}
	if tty {
		secs := took.Seconds()
		summary += fmt.Sprintf(" in %.1fs (%.0f entities/s)", secs, float64(out.Written)/max(secs, 1e-9))
	}
	return summary
}

func extOf(path string) string {
	if i := strings.LastIndexByte(path, '.'); i >= 0 && !strings.ContainsAny(path[i:], `/\`) {
		return path[i:]
	}
	return ""
}
