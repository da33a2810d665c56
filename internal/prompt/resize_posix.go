//go:build !windows

package prompt

import (
	"os"
	"os/signal"
	"syscall"
)

// notifyResize returns a channel that hears when the terminal is resized
// (SIGWINCH), and the func that stops it.
func notifyResize() (<-chan os.Signal, func()) {
	ch := make(chan os.Signal, 1)
	signal.Notify(ch, syscall.SIGWINCH)
	return ch, func() { signal.Stop(ch) }
}
