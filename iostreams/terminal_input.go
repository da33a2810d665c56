package iostreams

import (
	"context"
	"errors"
	"io"
	"os"
	"syscall"

	"golang.org/x/sys/unix"
)

// TerminalHint is what a command says before it reads data typed at the
// terminal, so that nobody waits on a silent prompt.
const TerminalHint = "reading %s from the terminal; Ctrl-D on a new line ends, Ctrl-C cancels"

// ReadTerminal reads standard input, a terminal, to its end (Ctrl-D at the
// start of a line), and gives up with ctx's error as soon as ctx is done
// (Ctrl-C): it waits for input with poll, so no read is left pending to
// swallow what is typed next (the shell's following line).
func (s *IOStreams) ReadTerminal(ctx context.Context, limit int64) ([]byte, error) {
	return s.readTerminal(ctx, limit, false)
}

// ReadTerminalLine reads one line typed at the terminal (a pause that
// waits for Enter), giving up as ReadTerminal does. At the end of input it
// returns io.EOF.
func (s *IOStreams) ReadTerminalLine(ctx context.Context) (string, error) {
	b, err := s.readTerminal(ctx, 1<<20, true)
	if err == nil && len(b) == 0 {
		err = io.EOF
	}
	return string(b), err
}

func (s *IOStreams) readTerminal(ctx context.Context, limit int64, line bool) ([]byte, error) {
	f, ok := s.In.(*os.File)
	if !ok && line {
		var b []byte
		one := make([]byte, 1)
		for {
			n, err := s.In.Read(one)
			b = append(b, one[:n]...)
			if err != nil || (n == 1 && one[0] == '\n') {
				if err == io.EOF {
					err = nil
				}
				return b, err
			}
		}
	}
	if !ok {
		return io.ReadAll(io.LimitReader(s.In, limit))
	}
	fd := int(f.Fd())
	var out []byte
	buf := make([]byte, 4096)
	if line {
		buf = buf[:1] // no further than the line's end
	}
	for {
		if err := ctx.Err(); err != nil {
			return nil, err
		}
		fds := []unix.PollFd{{Fd: int32(fd), Events: unix.POLLIN}}
		n, err := unix.Poll(fds, 100)
		if errors.Is(err, syscall.EINTR) || (err == nil && n == 0) {
			continue
		}
		if err != nil {
			return nil, err
		}
		m, err := syscall.Read(fd, buf)
		if errors.Is(err, syscall.EINTR) || errors.Is(err, syscall.EAGAIN) {
			continue
		}
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
