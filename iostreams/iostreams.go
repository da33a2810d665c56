// Package iostreams carries a command's standard streams and what is known
// about them (whether each is a terminal), so commands can be run and tested
// with any reader and writers, and decide between human and machine output.
package iostreams

import (
	"bytes"
	"io"
	"os"

	"golang.org/x/term"
)

// IOStreams are the streams a command reads and writes.
type IOStreams struct {
	In     io.Reader
	Out    io.Writer
	ErrOut io.Writer

	// InTTY, OutTTY and ErrTTY tell whether each stream is a terminal.
	InTTY, OutTTY, ErrTTY bool
	// Width is the terminal's width in columns when Out is a terminal, else
	// 0, as it was when the streams were made; TermWidth reads it again.
	Width int
	// BeforeTerminalRead, when set, is called before ReadTerminal and
	// ReadTerminalLine read what is typed (a Pager writes out what it
	// holds, so that the question is on the screen).
	BeforeTerminalRead func()
}

// TermWidth is the terminal's width now, in columns: a terminal may be
// resized between two commands of a shell. Out that is not a terminal
// file (nor a writer to one, such as a Pager's) gives Width.
func (s *IOStreams) TermWidth() int {
	if f, ok := s.Out.(interface{ Fd() uintptr }); ok && s.OutTTY {
		if w, _, err := term.GetSize(int(f.Fd())); err == nil {
			return w
		}
	}
	return s.Width
}

// trailerWriter is an output that keeps a command's closing summary
// apart from the rest (a Pager's: after the pager is left).
type trailerWriter interface {
	WriteTrailer(b []byte) (int, error)
}

// WriteTrailer writes b, a command's closing summary (a query's footer),
// to Out after what was written before it. Through a pager it comes
// after the pager is left, so that it stays on the screen, as standard
// error does.
func (s *IOStreams) WriteTrailer(b []byte) (int, error) {
	if t, ok := s.Out.(trailerWriter); ok {
		return t.WriteTrailer(b)
	}
	return s.Out.Write(b)
}

// pagedWriter is an output that may go through a pager.
type pagedWriter interface {
	Paged(b []byte) bool
}

// MayPage reports whether Out may go through a pager (see Paged).
func (s *IOStreams) MayPage() bool {
	_, ok := s.Out.(pagedWriter)
	return ok
}

// Paged reports whether b, written to Out next, would be read in a pager,
// which scrolls sideways: a table need not then fit the terminal's width.
func (s *IOStreams) Paged(b []byte) bool {
	p, ok := s.Out.(pagedWriter)
	return ok && p.Paged(b)
}

// System returns the process's own streams, with terminals detected.
func System() *IOStreams {
	s := &IOStreams{In: os.Stdin, Out: os.Stdout, ErrOut: os.Stderr}
	s.InTTY = term.IsTerminal(int(os.Stdin.Fd()))
	s.OutTTY = term.IsTerminal(int(os.Stdout.Fd()))
	s.ErrTTY = term.IsTerminal(int(os.Stderr.Fd()))
	if s.OutTTY {
		if w, _, err := term.GetSize(int(os.Stdout.Fd())); err == nil {
			s.Width = w
		}
	}
	return s
}

// Test returns streams backed by buffers, none of them a terminal, and the
// buffers: standard input, output and error.
func Test() (*IOStreams, *bytes.Buffer, *bytes.Buffer, *bytes.Buffer) {
	in, out, errOut := &bytes.Buffer{}, &bytes.Buffer{}, &bytes.Buffer{}
	return &IOStreams{In: in, Out: out, ErrOut: errOut}, in, out, errOut
}

// OnTerminal reports whether Out is a terminal itself (or a writer to
// one, such as a Pager's), not a buffer standing for one (a lesson's
// replay sets OutTTY over a buffer).
func (s *IOStreams) OnTerminal() bool {
	_, ok := s.Out.(interface{ Fd() uintptr })
	return ok && s.OutTTY
}
