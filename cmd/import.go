package cmd

import (
	"bufio"
	"bytes"
	"encoding/csv"
	"errors"
	"fmt"
	"io"
	"os"
	"sort"
	"strings"
	"sync"
	"time"

	"github.com/schollz/progressbar/v3"
	"github.com/spf13/cobra"
	"github.com/tstable/tstable/odata"
	"github.com/tstable/tstable/store"
)

type importOptions struct {
	format          string
	mode            string
	continueOnError bool
}

func newImportCmd(f *Factory) *cobra.Command {
	o := &importOptions{}
	c := &cobra.Command{
		Use:   "import TABLE [FILE|-]",
		Short: "Load entities from JSONL or CSV",
		Long: `Load entities from a file (or standard input) as fast as the store allows:
rows are written in source order, grouped into large transactions.

Formats (--format, else by the file's extension, else jsonl):
  jsonl  one entity per line in the service's JSON (what export writes);
         blank lines are skipped.
  csv    a header row naming the columns, then one entity per row.
         PartitionKey and RowKey columns are required; Timestamp and
         odata.etag columns are ignored. A column is typed by its header,
         Name@Edm.Int64 (any Edm type; the "Edm." may be left out); an
         untyped column is Edm.String — no guessing. An empty cell leaves
         the property out.

Modes (--mode): upsert (default: InsertOrReplace, the row becomes the
entity), merge (InsertOrMerge), insert (EntityAlreadyExists if present),
replace (ResourceNotFound if absent).

A bad row (one that does not parse, or that the store refuses) stops the
import with its line number; every row before it has been committed and
none after it. With --continue-on-error each bad row is reported on
standard error as "reject: line N: …" and the import goes on; the exit
status is then 1 if any row was rejected. Counts are reported on standard
error, with a progress bar when it is a terminal.`,
		Example: `  tstable import Employees testdata/employees.jsonl
  tstable export Employees | tstable import EmployeesCopy
  tstable import Employees people.csv --mode insert --continue-on-error`,
		Annotations: tableAnnotation,
		Args:        exactArgs("TABLE", "[FILE|-]"),
		RunE: func(c *cobra.Command, args []string) error {
			return runImport(c, f, args, o)
		},
	}
	fl := c.Flags()
	fl.StringVar(&o.format, "format", "", "input `format`: jsonl or csv (default: by extension, else jsonl)")
	fl.StringVar(&o.mode, "mode", "upsert", "write `mode`: upsert, merge, insert or replace")
	fl.BoolVar(&o.continueOnError, "continue-on-error", false, "report bad rows on standard error and go on")
	return c
}

// lineIndex maps an entity's 0-based position in the source to its line,
// storing only the positions where the two stop moving together.
type lineIndex struct {
	at    []int64 // positions, ascending
	delta []int64 // line - position from at[i] on
}

func (x *lineIndex) record(n, line int64) {
	if k := len(x.delta); k > 0 && x.delta[k-1] == line-n {
		return
	}
	x.at = append(x.at, n)
	x.delta = append(x.delta, line-n)
}

func (x *lineIndex) line(n int64) int64 {
	i := sort.Search(len(x.at), func(i int) bool { return x.at[i] > n }) - 1
	if i < 0 {
		return n + 1
	}
	return n + x.delta[i]
}

func runImport(c *cobra.Command, f *Factory, args []string, o *importOptions) error {
	var kind store.OpKind
	switch o.mode {
	case "upsert":
		kind = store.OpInsertOrReplace
	case "merge":
		kind = store.OpInsertOrMerge
	case "insert":
		kind = store.OpInsert
	case "replace":
		kind = store.OpReplace
	default:
		return usageErrorf(c, "--mode must be upsert, merge, insert or replace; got %q", o.mode)
	}
	format := o.format
	if format == "" {
		format = "jsonl"
		if len(args) > 1 && strings.EqualFold(strings.TrimPrefix(extOf(args[1]), "."), "csv") {
			format = "csv"
		}
	}
	if format != "jsonl" && format != "csv" {
		return usageErrorf(c, "--format must be jsonl or csv; got %q", format)
	}
	table := args[0]
	r, name, closeIn, err := f.openInput(args, 1)
	if err != nil {
		return err
	}
	defer closeIn()

	var bar *progressbar.ProgressBar
	if f.IO.ErrTTY {
		size := int64(-1)
		if fh, ok := r.(*os.File); ok {
			if st, err := fh.Stat(); err == nil && st.Mode().IsRegular() {
				size = st.Size()
			}
		}
		bar = progressbar.NewOptions64(size,
			progressbar.OptionSetWriter(f.IO.ErrOut),
			progressbar.OptionSetDescription("importing "+table),
			progressbar.OptionShowBytes(true),
			progressbar.OptionThrottle(100*time.Millisecond),
			progressbar.OptionClearOnFinish(),
			progressbar.OptionSetRenderBlankState(true),
		)
		pr := progressbar.NewReader(r, bar)
		r = &pr
	}

	var (
		lines    lineIndex
		rejected int64
		srcErr   error
	)
	var rejectMu sync.Mutex // the store may report rejects from its own goroutine
	reject := func(line int64, err error) {
		rejectMu.Lock()
		defer rejectMu.Unlock()
		rejected++
		fmt.Fprintf(f.IO.ErrOut, "reject: %s line %d: %v\n", name, line, err)
	}
	// rowError stops the import at a row that does not parse.
	rowError := func(line int64, err error) error {
		return odata.Errorf(odata.CodeInvalidInput, "%s line %d: %v; --continue-on-error skips bad rows", name, line, err)
	}
	var src store.EntitySource
	if format == "jsonl" {
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
			srcErr = err
		}
		return e, err
	}
	began := time.Now()
	var res *store.LoadResult
	err = f.Write(c.Context(), func(b store.Backend) error {
		res, err = b.Load(c.Context(), table, kind, wrapped, store.LoadOptions{
			OnReject: func(n int64, e *odata.Entity, err error) error {
				line := lines.line(n)
				if o.continueOnError {
					reject(line, err)
					return nil
				}
				code, msg := odata.CodeInvalidInput, err.Error()
				var se *odata.Error
				if errors.As(err, &se) {
					code, msg = se.Code, se.Message
				}
				return odata.Errorf(code, "%s line %d (%s, %s): %s; --continue-on-error skips bad rows", name, line, e.PartitionKey, e.RowKey, msg)
			},
		})
		return err
	})
	if bar != nil {
		bar.Finish()
	}
	if srcErr != nil && err != nil && !errors.Is(err, srcErr) {
		err = srcErr // the backend wrapped our error; report ours
	}
	written := int64(0)
	if res != nil {
		written = res.Written
	}
	if err != nil {
		fmt.Fprintf(f.IO.ErrOut, "imported %s into %s before the bad row; nothing after it was imported\n", countLine(written), table)
		return err
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

func extOf(path string) string {
	if i := strings.LastIndexByte(path, '.'); i >= 0 && !strings.ContainsAny(path[i:], `/\`) {
		return path[i:]
	}
	return ""
}

// jsonlItem is one non-blank line of a JSONL import, decoded.
type jsonlItem struct {
	e    *odata.Entity
	line int64
	err  error // the line does not decode
}

// jsonlChunk is what the decoding goroutine hands over: a run of items, or
// the error that ended reading.
type jsonlChunk struct {
	items []jsonlItem
	err   error
}

// jsonlSource reads one entity per line, skipping blank lines. A goroutine
// reads and decodes ahead in chunks, so decoding overlaps with the store's
// writing; stop ends it when the import ends early.
func jsonlSource(r io.Reader, lines *lineIndex, keepGoing bool, reject func(int64, error), rowError func(int64, error) error) (src store.EntitySource, stop func()) {
	const chunkSize = 512
	chunks := make(chan jsonlChunk, 8)
	done := make(chan struct{})
	go func() {
		defer close(chunks)
		br := bufio.NewReaderSize(r, 1<<20)
		var dec odata.EntityDecoder
		var line int64
		var long []byte
		items := make([]jsonlItem, 0, chunkSize)
		send := func(c jsonlChunk) bool {
			select {
			case chunks <- c:
				return true
			case <-done:
				return false
			}
		}
		for {
			b, err := br.ReadSlice('\n')
			if errors.Is(err, bufio.ErrBufferFull) {
				long = append(long[:0], b...)
				for errors.Is(err, bufio.ErrBufferFull) {
					b, err = br.ReadSlice('\n')
					long = append(long, b...)
				}
				b = long
			}
			if err != nil && !errors.Is(err, io.EOF) {
				send(jsonlChunk{items: items, err: err})
				return
			}
			if len(b) > 0 {
				line++
				if b = bytes.TrimSpace(b); len(b) > 0 {
					e, derr := dec.Decode(b)
					items = append(items, jsonlItem{e: e, line: line, err: derr})
				}
			}
			if errors.Is(err, io.EOF) {
				if len(items) > 0 {
					send(jsonlChunk{items: items})
				}
				return
			}
			if len(items) == chunkSize {
				if !send(jsonlChunk{items: items}) {
					return
				}
				items = make([]jsonlItem, 0, chunkSize)
			}
		}
	}()
	var (
		cur []jsonlItem
		n   int64
		end error
	)
	src = func() (*odata.Entity, error) {
		for {
			for len(cur) > 0 {
				it := cur[0]
				cur = cur[1:]
				if it.err != nil {
					if keepGoing {
						reject(it.line, it.err)
						continue
					}
					return nil, rowError(it.line, it.err)
				}
				lines.record(n, it.line)
				n++
				return it.e, nil
			}
			if end != nil {
				return nil, end
			}
			c, ok := <-chunks
			if !ok {
				end = io.EOF
				continue
			}
			cur = c.items
			if c.err != nil {
				end = fmt.Errorf("reading the input: %w", c.err)
			}
		}
	}
	var once bool
	stop = func() {
		if !once {
			once = true
			close(done)
		}
	}
	return src, stop
}

// csvSource reads a header row and then one entity per row.
func csvSource(r io.Reader, name string, lines *lineIndex, keepGoing bool, reject func(int64, error), rowError func(int64, error) error) (store.EntitySource, error) {
	cr := csv.NewReader(bufio.NewReaderSize(r, 1<<20))
	cr.ReuseRecord = true
	cr.FieldsPerRecord = -1
	header, err := cr.Read()
	if err != nil {
		if errors.Is(err, io.EOF) {
			return func() (*odata.Entity, error) { return nil, io.EOF }, nil
		}
		return nil, odata.Errorf(odata.CodeInvalidInput, "%s: the CSV header: %v", name, err)
	}
	type col struct {
		name string
		typ  odata.EdmType // 0: ignored column
	}
	cols := make([]col, len(header))
	pk, rk := -1, -1
	for i, h := range header {
		h = strings.TrimSpace(strings.TrimPrefix(h, "\ufeff"))
		nm, typ, typed := strings.Cut(h, "@")
		switch nm {
		case odata.PartitionKey:
			pk = i
			continue
		case odata.RowKey:
			rk = i
			continue
		case odata.Timestamp, "odata.etag":
			continue
		}
		t := odata.EdmString
		if typed {
			var ok bool
			if t, ok = odata.ParseEdmType(typ); !ok {
				return nil, odata.Errorf(odata.CodeInvalidInput, "%s: CSV header column %d %q: unknown type %q; expected Edm.String, Edm.Int32, Edm.Int64, Edm.Double, Edm.Boolean, Edm.DateTime, Edm.Guid or Edm.Binary", name, i+1, h, typ)
			}
		}
		cols[i] = col{name: nm, typ: t}
	}
	if pk < 0 || rk < 0 {
		return nil, odata.Errorf(odata.CodeInvalidInput, "%s: the CSV header needs PartitionKey and RowKey columns; it has %s", name, strings.Join(header, ","))
	}
	var n int64
	return func() (*odata.Entity, error) {
		for {
			rec, err := cr.Read()
			if errors.Is(err, io.EOF) {
				return nil, io.EOF
			}
			line, _ := cr.FieldPos(0)
			if err != nil {
				var pe *csv.ParseError
				if errors.As(err, &pe) {
					line = pe.StartLine
					err = pe.Err
				}
				if keepGoing && pe != nil {
					reject(int64(line), err)
					continue
				}
				return nil, rowError(int64(line), err)
			}
			e, rerr := func() (*odata.Entity, error) {
				if len(rec) != len(cols) {
					return nil, fmt.Errorf("the row has %d fields; the header has %d", len(rec), len(cols))
				}
				e := &odata.Entity{PartitionKey: rec[pk], RowKey: rec[rk], Properties: make([]odata.Property, 0, len(cols))}
				for i, cell := range rec {
					c := cols[i]
					if c.typ == 0 || cell == "" {
						continue
					}
					v, err := odata.ParseValueText(c.name, c.typ, cell)
					if err != nil {
						return nil, err
					}
					e.Properties = append(e.Properties, odata.Property{Name: c.name, Value: v})
				}
				return e, nil
			}()
			if rerr != nil {
				if keepGoing {
					reject(int64(line), rerr)
					continue
				}
				return nil, rowError(int64(line), rerr)
			}
			lines.record(n, int64(line))
			n++
			return e, nil
		}
	}, nil
}
