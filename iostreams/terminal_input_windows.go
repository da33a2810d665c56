//go:build windows

package iostreams

import (
	"context"
	"errors"
	"io"
	"os"
	"time"

	"golang.org/x/sys/windows"
)

// EndOfInputKey is the key that ends input typed at a terminal: the
// console's end of file is Ctrl-Z at the start of a line, then Enter.
const EndOfInputKey = "Ctrl-Z and Enter"

// readReady waits until the console has input (waiting on its handle for
// 100 ms at a time, so that ctx ending stops the wait) and reads it into
// buf once: the console hands over a line at a time. Ctrl-C while a line
// is being typed aborts the read (ERROR_OPERATION_ABORTED) as it raises
// the interrupt that ends ctx; that is reported as ctx's error. A handle
// that is not a console (a pipe) is read as it is. 0 bytes is the end of
// input.
func readReady(ctx context.Context, f *os.File, buf []byte) (int, error) {
	h := windows.Handle(f.Fd())
	if t, err := windows.GetFileType(h); err != nil || t != windows.FILE_TYPE_CHAR {
		return readOnce(f, buf)
	}
	for {
		if err := ctx.Err(); err != nil {
			return 0, err
		}
		ev, err := windows.WaitForSingleObject(h, 100)
		if err != nil {
			return 0, err
		}
		if ev != windows.WAIT_OBJECT_0 {
			continue
		}
		n, err := readOnce(f, buf)
		if errors.Is(err, windows.ERROR_OPERATION_ABORTED) {
			return 0, interrupted(ctx)
		}
		return n, err
	}
}

// readOnce reads f once, the end of input being 0 bytes and no error.
func readOnce(f *os.File, buf []byte) (int, error) {
	n, err := f.Read(buf)
	if err == io.EOF {
		return 0, nil
	}
	return n, err
}

// interrupted waits a moment for the interrupt that aborted a console
// read to end ctx, and returns ctx's error (context.Canceled when the
// interrupt went elsewhere).
func interrupted(ctx context.Context) error {
	select {
	case <-ctx.Done():
		return ctx.Err()
	case <-time.After(time.Second):
		return context.Canceled
	}
}
