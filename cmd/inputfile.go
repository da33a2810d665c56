package cmd

import (
	"io"
	"os"

	"github.com/spf13/cobra"
	"github.com/tstable/tstable/backend"
)

// openInput opens the file named by args[i], or standard input when it is
// "-" or absent (what names what it holds, for the hint on a terminal).
// It returns the reader, a name for messages and a closer.
func (f *Factory) openInput(c *cobra.Command, args []string, i int, what string) (io.Reader, string, func(), error) {
	if len(args) <= i || args[i] == "-" {
		r, err := f.stdin(c, what, 1<<40)
		return r, "standard input", func() {}, err
	}
	fh, err := os.Open(args[i])
	if err != nil {
		return nil, "", nil, backend.FileError(err, "cannot read %s", args[i])
	}
	return fh, args[i], func() { fh.Close() }, nil
}
