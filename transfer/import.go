package transfer

import (
	"context"
	"errors"
	"io"
	"sync"

	"github.com/tstable/tstable/backend"
	"github.com/tstable/tstable/odata"
)

// Format is an import's input format.
type Format string

// The input formats.
const (
	FormatJSONL Format = "jsonl" // one entity a line in the service's JSON; blank lines skipped
	FormatCSV   Format = "csv"   // a typed header, then one entity a row
)

// ImportOptions says how to read an import's input.
type ImportOptions struct {
	Format Format
	// Name is the input's name in messages: a file name, or "standard input".
	Name string
	// KeepGoing rejects a bad row (telling OnReject) and goes on, where
	// the import would stop at the first.
	KeepGoing bool
	// OnReject is told of each row rejected with KeepGoing, one call at a
	// time, from the line it was on.
	OnReject func(line int64, err error)
}

// Import is an input being imported: its rows are read (and, for JSONL,
// decoded ahead on several cores) as the backend takes them.
type Import struct {
	opts   ImportOptions
	source func() (*odata.Entity, error)
	stop   func()
	lines  lineIndex

	mu       sync.Mutex // the backend may refuse rows from its own goroutine
	rejected int64
	badRow   bool  // the import stopped at a row, not for another reason
	srcErr   error // the error that ended the source, other than io.EOF
}

// NewImport starts reading r. A CSV header that cannot be read or typed
// is an error here, before any storage is opened.
func NewImport(r io.Reader, o ImportOptions) (*Import, error) {
	im := &Import{opts: o, stop: func() {}}
	faults := &rowFaults{keepGoing: o.KeepGoing, reject: im.reject, stop: im.parseStop}
	if o.Format == FormatCSV {
		s, err := newCSVSource(r, o.Name, &im.lines, faults)
		if err != nil {
			return nil, err
		}
		im.source = s.next
		return im, nil
	}
	s := newJSONLSource(r, &im.lines, faults)
	im.source, im.stop = s.next, s.stop
	return im, nil
}

// Close stops reading ahead; call it however the import ended.
func (im *Import) Close() { im.stop() }

// ImportOutcome is what an import did: the rows committed and rejected,
// and when it did not finish, why it stopped.
type ImportOutcome struct {
	Written  int64 // entities committed
	Rejected int64 // rows rejected with KeepGoing
	Stop     Stop
	// FromKey is, with StopCommit, the first key not stored: the table
	// holds the input's rows before it and none from it on (nil: unknown).
	FromKey *odata.Key
}

// Stop says why an import ended before the end of its input.
type Stop int

// The ways an import stops.
const (
	Finished        Stop = iota // the whole input was read and written
	StopBadRow                  // at a row that does not parse or that the backend refused
	StopCommit                  // a commit failed once writing had begun (a full disk)
	StopLocked                  // another process, let in, took the file and did not give it back in time
	StopInterrupted             // the context was cancelled
	StopFailed                  // another failure (reading the input, say)
)

// Into loads the input into table of b as kind (upsert, insert, merge or
// replace). An input with no rows at all is an error. The outcome is
// returned with the error, counting what was committed before it.
func (im *Import) Into(ctx context.Context, b backend.Backend, table string, kind backend.OpKind) (*ImportOutcome, error) {
	res, err := b.Load(ctx, table, kind, im.read, backend.LoadOptions{OnReject: im.refused})
	im.mu.Lock()
	defer im.mu.Unlock()
	out := &ImportOutcome{Rejected: im.rejected}
	if res != nil {
		out.Written = res.Written
	}
	if im.srcErr != nil && err != nil && !errors.Is(err, im.srcErr) {
		err = im.srcErr // the backend wrapped the source's error; report it as it is
	}
	if err != nil {
		out.Stop, out.FromKey = im.stopOf(ctx, err)
		return out, err
	}
	if out.Written == 0 && out.Rejected == 0 {
		return out, odata.Errorf(odata.CodeInvalidInput, "%s holds no entities; nothing was imported", im.opts.Name)
	}
	return out, nil
}

// stopOf classifies the error that ended the import.
func (im *Import) stopOf(ctx context.Context, err error) (Stop, *odata.Key) {
	var ce *backend.CommitError
	switch {
	case errors.As(err, &ce):
		return StopCommit, ce.FromKey
	case odata.IsCode(err, odata.CodeDatabaseLocked):
		return StopLocked, nil
	case im.badRow:
		return StopBadRow, nil
	case ctx.Err() != nil:
		return StopInterrupted, nil
	}
	return StopFailed, nil
}

// read is the backend's source: the next entity, noting the error that
// ends it; an input that cannot be read is said so, with its name.
func (im *Import) read() (*odata.Entity, error) {
	e, err := im.source()
	if err != nil && !errors.Is(err, io.EOF) {
		if odata.CodeOf(err) == "" {
			err = backend.FileError(err, "cannot read %s", im.opts.Name)
		}
		im.mu.Lock()
		im.srcErr = err
		im.mu.Unlock()
	}
	return e, err
}

// reject counts a rejected row and tells OnReject.
func (im *Import) reject(line int64, err error) {
	im.mu.Lock()
	defer im.mu.Unlock()
	im.rejected++
	if im.opts.OnReject != nil {
		im.opts.OnReject(line, err)
	}
}

// parseStop is the error of a row that does not parse, stopping the
// import; a row past MaxRowBytes is too large (and, in CSV, the last the
// import can read).
func (im *Import) parseStop(line int64, err error) error {
	im.mu.Lock()
	im.badRow = true
	im.mu.Unlock()
	re := &RowError{Name: im.opts.Name, Line: line, Code: odata.CodeInvalidInput, Reason: err.Error(), Err: err}
	var long *rowTooLong
	if errors.As(err, &long) {
		re.Code, re.Final = odata.CodeRequestBodyTooLarge, long.final
	}
	return re
}

// refused is the backend's OnReject: a row it refuses is rejected with
// KeepGoing, else it stops the import.
func (im *Import) refused(n int64, e *odata.Entity, err error) error {
	line := im.lines.line(n)
	if im.opts.KeepGoing {
		im.reject(line, err)
		return nil
	}
	re := &RowError{Name: im.opts.Name, Line: line, Key: &odata.Key{PartitionKey: e.PartitionKey, RowKey: e.RowKey}, Code: odata.CodeInvalidInput, Reason: err.Error(), Err: err}
	var se *odata.Error
	if errors.As(err, &se) {
		re.Code, re.Reason = se.Code, se.Message
	}
	im.mu.Lock()
	im.badRow = true
	im.mu.Unlock()
	return re
}

// RowError is the row an import stopped at: where it is, its keys when
// the backend refused it, and why, with the service's code.
type RowError struct {
	Name   string     // the input's name
	Line   int64      // the row's line
	Key    *odata.Key // the row's keys, when the backend refused it
	Code   odata.Code // InvalidInput for a row that does not parse; else the backend's
	Reason string     // why, in the words of the parser or the backend
	Err    error      // the cause
	// Final is set when the import could not go on past the row even if
	// it skipped bad rows (a CSV row past MaxRowBytes: where the next row
	// begins is not known).
	Final bool
}

func (e *RowError) Error() string {
	where := e.Name + " line " + itoa(e.Line)
	if e.Key != nil {
		where += " (" + e.Key.PartitionKey + ", " + e.Key.RowKey + ")"
	}
	return where + ": " + e.Reason
}

// Unwrap returns the cause.
func (e *RowError) Unwrap() error { return e.Err }
