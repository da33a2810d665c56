//go:build unix

package iostreams

import (
	"context"
	"errors"
	"os"
	"syscall"

	"golang.org/x/sys/unix"
)

// EndOfInputKey is the key that ends input typed at a terminal.
const EndOfInputKey = "Ctrl-D"

// readReady waits until f has input (polling every 100 ms, so that ctx
// ending stops the wait) and reads it into buf once. 0 bytes is the end
// of input.
func readReady(ctx context.Context, f *os.File, buf []byte) (int, error) {
	fd := int(f.Fd())
	for {
		if err := ctx.Err(); err != nil {
			return 0, err
		}
		fds := []unix.PollFd{{Fd: int32(fd), Events: unix.POLLIN}}
		n, err := unix.Poll(fds, 100)
		if errors.Is(err, syscall.EINTR) || (err == nil && n == 0) {
			continue
		}
		if err != nil {
			return 0, err
		}
		m, err := syscall.Read(fd, buf)
		if errors.Is(err, syscall.EINTR) || errors.Is(err, syscall.EAGAIN) {
			continue
		}
		return m, err
	}
}
