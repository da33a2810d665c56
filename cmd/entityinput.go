package cmd

import (
	"bytes"
	"io"
	"strings"

	"github.com/spf13/cobra"
	"github.com/tstable/tstable/backend"
	"github.com/tstable/tstable/cmdspec"
	"github.com/tstable/tstable/iostreams"
	"github.com/tstable/tstable/odata"
	"github.com/tstable/tstable/transfer"
)

// maxEntityInput bounds what a write command reads for one entity (from
// standard input, a line of a batch): the bound of a row of an import.
const maxEntityInput = transfer.MaxRowBytes

// readEntityArg decodes the entity given as the argument at index i, or
// read from standard input when the argument is "-" or absent.
func (f *Factory) readEntityArg(c *cobra.Command, args []string, i int) (*odata.Entity, error) {
	var data []byte
	where := "the JSON argument"
	if len(args) > i && args[i] != "-" {
		data = []byte(args[i])
	} else {
		where = "standard input"
		r, err := f.stdin(c, "an entity as JSON", maxEntityInput+1)
		if err != nil {
			return nil, err
		}
		b, err := io.ReadAll(io.LimitReader(r, maxEntityInput+1))
		if err != nil {
			return nil, backend.FileError(err, "cannot read the entity from standard input")
		}
		if len(b) > maxEntityInput {
			return nil, odata.Errorf(odata.CodeRequestBodyTooLarge, "the entity on standard input is larger than %d bytes", maxEntityInput)
		}
		if strings.TrimSpace(string(b)) == "" {
			return nil, odata.Errorf(odata.CodeInvalidInput, "standard input holds no entity; give one as JSON after the table name, or on standard input")
		}
		data = b
	}
	e, err := odata.DecodeEntityJSON(data)
	if err != nil {
		return nil, odata.Errorf(odata.DecodeErrorCode(err), "%s: %v", where, err)
	}
	return e, nil
}

// stdin is standard input for a command that reads data from it (what:
// "an entity as JSON", "JSON lines"). On a terminal it says so first and
// reads everything typed up to Ctrl-D before anything is written; Ctrl-C
// cancels with nothing written. Elsewhere it is the stream itself.
func (f *Factory) stdin(c *cobra.Command, what string, limit int64) (io.Reader, error) {
	if !f.IO.InTTY {
		return f.IO.In, nil
	}
	f.printer.Note(iostreams.TerminalHint, what)
	b, err := f.IO.ReadTerminal(c.Context(), limit)
	if err != nil {
		return nil, err
	}
	return bytes.NewReader(b), nil
}

// writeOne runs one write operation and prints the stored entity.
func (f *Factory) writeOne(c *cobra.Command, table string, op backend.Operation) error {
	var stored *odata.Entity
	err := f.Write(c.Context(), func(b backend.Backend) error {
		var err error
		stored, err = b.Write(c.Context(), table, op)
		return err
	})
	if err != nil {
		return err
	}
	if stored == nil {
		stored = op.Entity
	}
	return f.printer.Entity(stored)
}

// newWriteCmd builds insert, upsert, merge and replace: TABLE [JSON|-].
func newWriteCmd(f *Factory, use, short, long, example string, kind func() (backend.OpKind, string)) *cobra.Command {
	c := &cobra.Command{
		Use:     use + " TABLE [JSON|-]",
		Short:   short,
		Long:    long,
		Example: example,
		RunE: func(c *cobra.Command, args []string) error {
			e, err := f.readEntityArg(c, args, 1)
			if err != nil {
				return err
			}
			k, ifMatch := kind()
			return f.writeOne(c, args[0], backend.Operation{Kind: k, Entity: e, IfMatch: ifMatch})
		},
	}
	cmdspec.Args(c, "TABLE", "[JSON|-]")
	cmdspec.Writes(c)
	return c
}

// addIfMatch adds --if-match to a command that writes under an ETag
// condition.
func addIfMatch(c *cobra.Command, ifMatch *string) {
	c.Flags().StringVar(ifMatch, "if-match", "*", "only if the entity's ETag is this (* for any)")
}

// newIfMatchCmd builds merge and replace: a write of an existing entity
// under --if-match.
func newIfMatchCmd(f *Factory, use, short, long, example string, kind backend.OpKind) *cobra.Command {
	var ifMatch string
	c := newWriteCmd(f, use, short, long, example, func() (backend.OpKind, string) { return kind, ifMatch })
	addIfMatch(c, &ifMatch)
	return c
}
