//go:build unix

package iostreams

import (
	"context"
	"errors"
	"io"
	"testing"
	"time"
)

// An interrupted read of the terminal leaves no read pending: what is
// typed afterwards is there for the next reader (the shell's next line).
func TestReadTerminalCancelledLeavesLaterInput(t *testing.T) {
	s, w := pipeIn(t)
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan error)
	go func() {
		_, err := s.ReadTerminal(ctx, 1<<20)
		done <- err
	}()
	time.Sleep(150 * time.Millisecond)
	cancel()
	select {
	case err := <-done:
		if !errors.Is(err, context.Canceled) {
			t.Fatalf("cancelled read: %v", err)
		}
	case <-time.After(5 * time.Second):
		t.Fatal("the read did not stop when cancelled")
	}
	io.WriteString(w, "next line\n")
	w.Close()
	if rest, _ := io.ReadAll(s.In); string(rest) != "next line\n" {
		t.Fatalf("the next reader got %q", rest)
	}
}
