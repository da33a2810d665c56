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
	f, ok := s.In.(*os.File)
	if !ok {
		return io.ReadAll(io.LimitReader(s.In, limit))
	}
	fd := int(f.Fd())
	var out []byte
	buf := make([]byte, 4096)
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
		if int64(len(out)) > limit {
			return out, nil
		}
	}
}
