//go:build windows

package prompt

import (
	"io"
	"os"

	colorable "github.com/mattn/go-colorable"
	"golang.org/x/sys/windows"
)

// WindowsWriter is a ConsoleWriter for the Windows console. A console
// that takes VT sequences (ENABLE_VIRTUAL_TERMINAL_PROCESSING, Windows 10
// and later) is written them as a Unix terminal is; an older one gets
// them translated into console calls by mattn/go-colorable.
type WindowsWriter struct {
	VT100Writer
	out io.Writer
}

// Flush to flush buffer
func (w *WindowsWriter) Flush() error {
	_, err := w.out.Write(w.buffer)
	if err != nil {
		return err
	}
	w.buffer = []byte{}
	return nil
}

var _ ConsoleWriter = &WindowsWriter{}

var (
	// NewStandardOutputWriter is Deprecated: Please use NewStdoutWriter
	NewStandardOutputWriter = NewStdoutWriter
)

// NewStdoutWriter returns ConsoleWriter object to write to stdout.
func NewStdoutWriter() ConsoleWriter {
	return &WindowsWriter{out: vtWriter(os.Stdout, colorable.NewColorableStdout)}
}

// NewStderrWriter returns ConsoleWriter object to write to stderr.
func NewStderrWriter() ConsoleWriter {
	return &WindowsWriter{out: vtWriter(os.Stderr, colorable.NewColorableStderr)}
}

// vtWriter is f when its console takes VT sequences (turning that on),
// else the translating writer.
func vtWriter(f *os.File, translated func() io.Writer) io.Writer {
	h := windows.Handle(f.Fd())
	var mode uint32
	if windows.GetConsoleMode(h, &mode) == nil &&
		windows.SetConsoleMode(h, mode|windows.ENABLE_VIRTUAL_TERMINAL_PROCESSING) == nil {
		return f
	}
	return translated()
}
