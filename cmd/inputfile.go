package cmd

import (
	"io"
	"os"

	"github.com/spf13/cobra"
	"github.com/tstable/tstable/backend"
	"github.com/tstable/tstable/iostreams"
)

// openInput opens the file named by args[i], or standard input when it is
// "-" or absent (what names what it holds, for the hint on a terminal).
// It returns the reader, a name for messages and a closer.
func (f *Factory) openInput(c *cobra.Command, args []string, i int, what string) (io.Reader, string, func(), error) {
	if len(args) <= i || args[i] == "-" {
		r, err := f.stdin(c, what, 1<<40)
		return untilInterrupted(c, r), "standard input", func() {}, err
	}
	fh, err := os.Open(args[i])
	if err != nil {
		return nil, "", nil, backend.FileError(err, "cannot read %s", args[i])
	}
	return untilInterrupted(c, fh), args[i], func() { fh.Close() }, nil
}

// untilInterrupted is r, read so that Ctrl-C stops a read that waits for
// input (a pipe, a FIFO: see iostreams.ReadUntil); a regular file, which
// never waits, is read as it is (its size makes the progress bar's total).
func untilInterrupted(c *cobra.Command, r io.Reader) io.Reader {
	if fh, ok := r.(*os.File); ok && regularSize(fh) < 0 {
		return iostreams.ReadUntil(c.Context(), fh)
	}
	return r
}
