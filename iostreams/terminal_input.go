package iostreams

import (
	"context"
	"io"
	"os"
)

// TerminalHint is what a command says before it reads data typed at the
// terminal, so that nobody waits on a silent prompt. The key that ends
// input is the system's: Ctrl-D on Unix, Ctrl-Z then Enter on Windows.
const TerminalHint = "reading %s from the terminal; " + EndOfInputKey + " on a new line ends, Ctrl-C cancels"

// ReadTerminal reads standard input, a terminal, to its end (EndOfInputKey
// at the start of a line), and gives up with ctx's error as soon as ctx is
// done (Ctrl-C): it waits for input without reading (poll on Unix, a wait
// on the console handle on Windows), so no read is left pending to swallow
// what is typed next (the shell's following line).
func (s *IOStreams) ReadTerminal(ctx context.Context, limit int64) ([]byte, error) {
	if s.BeforeTerminalRead != nil {
		s.BeforeTerminalRead()
	}
	return s.readTerminal(ctx, limit, false)
}

// ReadTerminalLine reads one line typed at the terminal (a pause that
// waits for Enter), giving up as ReadTerminal does. At the end of input it
// returns io.EOF.
func (s *IOStreams) ReadTerminalLine(ctx context.Context) (string, error) {
	if s.BeforeTerminalRead != nil {
		s.BeforeTerminalRead()
	}
	b, err := s.readTerminal(ctx, 1<<20, true)
	if err == nil && len(b) == 0 {
		err = io.EOF
	}
	return string(b), err
}

func (s *IOStreams) readTerminal(ctx context.Context, limit int64, line bool) ([]byte, error) {
	f, ok := s.In.(*os.File)
	if !ok && line {
		return readLine(s.In)
	}
	if !ok {
		return io.ReadAll(io.LimitReader(s.In, limit))
	}
	var out []byte
	buf := make([]byte, 4096)
	if line {
		buf = buf[:1] // no further than the line's end
	}
	for {
		m, err := readReady(ctx, f, buf)
		if err != nil {
			return nil, err
		}
		if m == 0 {
			return out, nil // end of input
		}
		out = append(out, buf[:m]...)
		if int64(len(out)) > limit || (line && buf[0] == '\n') {
			return out, nil
		}
	}
}

// readLine reads r up to and including the first newline, a byte at a
// time so that nothing after it is consumed.
func readLine(r io.Reader) ([]byte, error) {
	var b []byte
	one := make([]byte, 1)
	for {
		n, err := r.Read(one)
		b = append(b, one[:n]...)
		if err != nil || (n == 1 && one[0] == '\n') {
			if err == io.EOF {
				err = nil
			}
			return b, err
		}
	}
}
