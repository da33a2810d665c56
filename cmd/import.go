package cmd

import (
	"errors"
	"fmt"
	"io"
	"os"
	"strings"
	"sync"
	"time"

	"github.com/spf13/cobra"
	"github.com/tstable/tstable/cmdspec"
	"github.com/tstable/tstable/odata"
	"github.com/tstable/tstable/store"
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
		Example: `  tstable import Employees testdata/employees.jsonl
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

func runImport(c *cobra.Command, f *Factory, args []string, o *importOptions) error {
	kind, err := importKind(c, o)
	if err != nil {
		return err
	}
	input, err := importFormat(c, o, args)
	if err != nil {
		return err
	}
	table := args[0]
	r, name, closeIn, err := f.openInput(c, args, 1, "entities as JSON lines (or CSV with --format csv)")
	if err != nil {
		return err
	}
	defer closeIn()
	bar, r := f.IO.StartByteProgress("importing "+table, inputSize(r), r)
	var (
		lines    lineIndex
		rejected int64
		srcErr   error
		badRow   bool       // the import stopped at a row, not for another reason
		rejectMu sync.Mutex // the store may report rejects from its own goroutine
	)
	reject := func(line int64, err error) {
		rejectMu.Lock()
		defer rejectMu.Unlock()
		rejected++
		fmt.Fprintf(f.IO.ErrOut, "reject: %s line %d: %v\n", name, line, err)
	}
	// rowError stops the import at a row that does not parse.
	rowError := func(line int64, err error) error {
		badRow = true
		return importRowError(name, line, err)
	}
	var src store.EntitySource
	if input == "jsonl" {
		var stop func()
		src, stop = jsonlSource(r, &lines, o.continueOnError, reject, rowError)
		defer stop()
	} else {
		src, err = csvSource(r, name, &lines, o.continueOnError, reject, rowError)
		if err != nil {
			return err
		}
	}
	wrapped := func() (*odata.Entity, error) {
		e, err := src()
		if err != nil && !errors.Is(err, io.EOF) {
			if odata.CodeOf(err) == "" {
				err = store.FileError(err, "cannot read %s", name)
			}
			srcErr = err
		}
		return e, err
	}
	began := time.Now()
	defer collectLess(200)() // about 15% off a large import's time, for a heap about half again as large
	var res *store.LoadResult
	err = f.Write(c.Context(), func(b store.Backend) error {
		res, err = b.Load(c.Context(), table, kind, wrapped, store.LoadOptions{
			OnReject: func(n int64, e *odata.Entity, err error) error {
				if o.continueOnError {
					reject(lines.line(n), err)
					return nil
				}
				badRow = true
				return importRefusal(name, lines.line(n), e, err)
			},
		})
		return err
	})
	bar.Finish()
	if srcErr != nil && err != nil && !errors.Is(err, srcErr) {
		err = srcErr // the backend wrapped our error; report ours
	}
	written := int64(0)
	if res != nil {
		written = res.Written
	}
	if err != nil {
		sayImportStopped(f.IO.ErrOut, err, table, written, badRow, c.Context().Err() != nil)
		return err
	}
	if written == 0 && rejected == 0 {
		return odata.Errorf(odata.CodeInvalidInput, "%s holds no entities; nothing was imported", name)
	}
	summary := fmt.Sprintf("imported %s into %s", countLine(written), table)
	if rejected > 0 {
		summary += fmt.Sprintf(", %d rejected", rejected)
	}
	if f.IO.ErrTTY {
		secs := time.Since(began).Seconds()
		summary += fmt.Sprintf(" in %.1fs (%.0f entities/s)", secs, float64(written)/max(secs, 1e-9))
	}
	fmt.Fprintln(f.IO.ErrOut, summary)
	if rejected > 0 {
		return &silentError{status: ExitFailed}
	}
	return nil
}

// importKind is the operation --mode and --replace ask for.
func importKind(c *cobra.Command, o *importOptions) (store.OpKind, error) {
	var kind store.OpKind
	switch o.mode {
	case "upsert":
		kind = store.OpInsertOrMerge
		if o.replace {
			kind = store.OpInsertOrReplace
		}
	case "merge":
		kind = store.OpMerge
	case "insert":
		kind = store.OpInsert
	case "replace":
		kind = store.OpReplace
	default:
		return kind, usageErrorf(c, "--mode must be upsert, insert, merge or replace; got %q", o.mode)
	}
	if o.replace && o.mode != "upsert" {
		return kind, usageErrorf(c, "--replace goes with --mode upsert (Insert Or Replace); --mode %s has no replacing form", o.mode)
	}
	return kind, nil
}

// importFormat is the import's input format: --format, else by the
// file's extension, else jsonl.
func importFormat(c *cobra.Command, o *importOptions, args []string) (string, error) {
	input := o.format // the input's format, not the output's
	if input == "" {
		input = "jsonl"
		if len(args) > 1 && strings.EqualFold(strings.TrimPrefix(extOf(args[1]), "."), "csv") {
			input = "csv"
		}
	}
	if input != "jsonl" && input != "csv" {
		return "", usageErrorf(c, "--format must be jsonl or csv; got %q", input)
	}
	return input, nil
}

// inputSize is the size of a regular file's input, for the progress bar;
// -1 when it is not known.
func inputSize(r io.Reader) int64 {
	if fh, ok := r.(*os.File); ok {
		if st, err := fh.Stat(); err == nil && st.Mode().IsRegular() {
			return st.Size()
		}
	}
	return -1
}

// importRowError is the error that stops an import at a row that does not
// parse, at line of the input name.
func importRowError(name string, line int64, err error) error {
	code, hint := odata.CodeInvalidInput, "; --continue-on-error skips bad rows"
	var long *rowTooLong
	if errors.As(err, &long) {
		code = odata.CodeRequestBodyTooLarge
		if long.final {
			hint = ""
		}
	}
	return odata.Errorf(code, "%s line %d: %v%s", name, line, err, hint)
}

// importRefusal is the error that stops an import at an entity the store
// refused, at line of the input name.
func importRefusal(name string, line int64, e *odata.Entity, err error) error {
	code, msg := odata.CodeInvalidInput, err.Error()
	var se *odata.Error
	if errors.As(err, &se) {
		code, msg = se.Code, se.Message
	}
	return odata.Errorf(code, "%s line %d (%s, %s): %s; --continue-on-error skips bad rows", name, line, e.PartitionKey, e.RowKey, msg)
}

// sayImportStopped says, before the error that stopped an import, what
// the table holds of it: written entities, committed before err.
func sayImportStopped(w io.Writer, err error, table string, written int64, badRow, interrupted bool) {
	var ce *store.CommitError
	switch {
	case errors.As(err, &ce) && ce.FromKey != nil:
		fmt.Fprintf(w, "imported %s into %s; storing the rest failed: rows are stored in key order, and none from (%s, %s) on is stored; fix the cause below (free some space, say), then import again (upsert writes the rows already stored again, unchanged)\n", countLine(written), table, ce.FromKey.PartitionKey, ce.FromKey.RowKey)
	case errors.As(err, &ce):
		fmt.Fprintf(w, "imported %s into %s; storing the rest failed\n", countLine(written), table)
	case odata.IsCode(err, odata.CodeDatabaseLocked) && written > 0:
		fmt.Fprintf(w, "imported %s into %s before the file could not be had back; the rest was not imported (run the import again when it is free)\n", countLine(written), table)
	case badRow && written == 0:
		fmt.Fprintf(w, "nothing was imported into %s: a bad row stops the import before anything is written\n", table)
	case badRow:
		fmt.Fprintf(w, "imported %s into %s before the import stopped at a bad row\n", countLine(written), table)
	case interrupted:
		fmt.Fprintf(w, "imported %s into %s before the import was interrupted\n", countLine(written), table)
	case written > 0:
		fmt.Fprintf(w, "imported %s into %s before the import stopped\n", countLine(written), table)
	}
}

func extOf(path string) string {
	if i := strings.LastIndexByte(path, '.'); i >= 0 && !strings.ContainsAny(path[i:], `/\`) {
		return path[i:]
	}
	return ""
}

// rowTooLong is a row of an import's input longer than maxEntityInput,
// refused as soon as the cap is passed: the rest of it is not read.
type rowTooLong struct {
	from, line int64 // the line the row begins on, and the one where it passed the cap
	final      bool  // the import cannot go on past it: where the next row begins is not known (CSV)
}

func (e *rowTooLong) Error() string {
	msg := fmt.Sprintf("the line is longer than %d bytes, the most tstable reads for one row (an entity is at most 1 MiB)", maxEntityInput)
	if e.line != e.from {
		msg = fmt.Sprintf("the row that begins on this line is longer than %d bytes by line %d (a quoted field left open?), the most tstable reads for one row", maxEntityInput, e.line)
	}
	if e.final {
		msg += ", and the import cannot go on past it"
	}
	return msg
}
