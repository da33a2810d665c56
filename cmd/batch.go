package cmd

import (
	"bufio"
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"strings"

	"github.com/spf13/cobra"
	"github.com/tstable/tstable/backend"
	"github.com/tstable/tstable/cmdspec"
	"github.com/tstable/tstable/odata"
)

// batchLine is one operation of a batch file.
type batchLine struct {
	Op      string          `json:"op"`
	Entity  json.RawMessage `json:"entity"`
	IfMatch *string         `json:"ifMatch"`
	Replace bool            `json:"replace"`
}

func newBatchCmd(f *Factory) *cobra.Command {
	c := &cobra.Command{
		Use:   "batch TABLE [FILE|-]",
		Short: "Run an entity group transaction: up to 100 operations on one partition, all or nothing",
		Long: `Run an entity group transaction from a JSONL file (or standard input), one
operation a line:

  {"op":"insert","entity":{"PartitionKey":"Sales","RowKey":"1","Age":30}}
  {"op":"upsert","entity":{…}}                  InsertOrMerge
  {"op":"upsert","replace":true,"entity":{…}}   InsertOrReplace
  {"op":"merge","entity":{…},"ifMatch":"W/\"…\""}
  {"op":"replace","entity":{…}}                 ifMatch defaults to "*"
  {"op":"delete","entity":{"PartitionKey":"Sales","RowKey":"1"}}

Every operation must act on the same partition, at most 100 of them, each
entity once. Either all succeed, and the results are printed, or none is
applied and the failure is reported as
"error: operation N: <Code>: <message>" (N counts from 0, as the service
counts) with exit status 1.`,
		Example: "  tstable batch Employees ops.jsonl",
		RunE: func(c *cobra.Command, args []string) error {
			r, name, closeIn, err := f.openInput(c, args, 1, "operations as JSON lines")
			if err != nil {
				return err
			}
			defer closeIn()
			ops, err := readBatch(r, name)
			if err != nil {
				return err
			}
			if len(ops) == 0 {
				return odata.Errorf(odata.CodeInvalidInput, "%s holds no operations; a batch needs 1 to 100", name)
			}
			var results []*odata.Entity
			err = f.Write(c.Context(), func(b backend.Backend) error {
				results, err = b.Batch(c.Context(), args[0], ops)
				return err
			})
			if err != nil {
				return err
			}
			list := f.printer.Entities(Columns{})
			for _, e := range results {
				list.Write(e)
			}
			summary := fmt.Sprintf("batch committed: %d operations", len(ops))
			if len(ops) == 1 {
				summary = "batch committed: 1 operation"
			}
			return list.Close(ListEnd{Summary: summary})
		},
	}
	cmdspec.Args(c, "TABLE", "[FILE|-]")
	cmdspec.Writes(c)
	return c
}

// readBatch parses a batch file into operations.
func readBatch(r io.Reader, name string) ([]backend.Operation, error) {
	sc := bufio.NewScanner(r)
	sc.Buffer(make([]byte, 64<<10), maxEntityInput)
	var ops []backend.Operation
	line := 0
	for sc.Scan() {
		line++
		text := bytes.TrimSpace(sc.Bytes())
		if len(text) == 0 {
			continue
		}
		bad := func(format string, args ...any) error {
			return odata.Errorf(odata.CodeInvalidInput, "%s line %d: %s", name, line, fmt.Sprintf(format, args...))
		}
		var bl batchLine
		dec := json.NewDecoder(bytes.NewReader(text))
		dec.DisallowUnknownFields()
		if err := dec.Decode(&bl); err != nil {
			return nil, bad("%v; expected {\"op\":\"insert|upsert|merge|replace|delete\",\"entity\":{…}}", err)
		}
		if len(bl.Entity) == 0 || string(bl.Entity) == "null" {
			return nil, bad("the operation has no \"entity\"")
		}
		e, err := odata.DecodeEntityJSON(bl.Entity)
		if err != nil {
			return nil, bad("entity: %v", err)
		}
		op := backend.Operation{Entity: e}
		ifMatch := "*"
		if bl.IfMatch != nil {
			ifMatch = *bl.IfMatch
		}
		switch strings.ToLower(bl.Op) {
		case "insert":
			op.Kind = backend.OpInsert
		case "upsert":
			op.Kind = backend.OpInsertOrMerge
			if bl.Replace {
				op.Kind = backend.OpInsertOrReplace
			}
		case "merge":
			op.Kind, op.IfMatch = backend.OpMerge, ifMatch
		case "replace":
			op.Kind, op.IfMatch = backend.OpReplace, ifMatch
		case "delete":
			op.Kind, op.IfMatch = backend.OpDelete, ifMatch
		default:
			return nil, bad("unknown op %q; expected insert, upsert, merge, replace or delete", bl.Op)
		}
		if bl.IfMatch != nil && (op.Kind == backend.OpInsert || op.Kind == backend.OpInsertOrMerge || op.Kind == backend.OpInsertOrReplace) {
			return nil, bad("%q takes no ifMatch (only merge, replace and delete do)", bl.Op)
		}
		ops = append(ops, op)
	}
	if err := sc.Err(); errors.Is(err, bufio.ErrTooLong) {
		return nil, odata.Errorf(odata.CodeRequestBodyTooLarge, "%s line %d is longer than %d bytes; an operation's entity is at most 1 MiB", name, line+1, maxEntityInput)
	} else if err != nil {
		return nil, backend.FileError(err, "cannot read %s", name)
	}
	return ops, nil
}
