package iostreams

import (
	"context"
	"io"
	"os"
	"strings"
	"testing"
)

// pipeIn returns streams whose standard input is the read end of a pipe,
// and its write end.
func pipeIn(t *testing.T) (*IOStreams, *os.File) {
	t.Helper()
	r, w, err := os.Pipe()
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { r.Close(); w.Close() })
	s, _, _, _ := Test()
	s.In = r
	return s, w
}

func TestReadTerminalReadsToTheEnd(t *testing.T) {
	s, w := pipeIn(t)
	go func() {
		io.WriteString(w, "{\"PartitionKey\":\"a\",\n")
		io.WriteString(w, "\"RowKey\":\"b\"}\n")
		w.Close()
	}()
	got, err := s.ReadTerminal(context.Background(), 1<<20)
	if err != nil || string(got) != "{\"PartitionKey\":\"a\",\n\"RowKey\":\"b\"}\n" {
		t.Fatalf("got %q, %v", got, err)
	}
}

func TestReadTerminalLineLeavesTheNextLine(t *testing.T) {
	s, w := pipeIn(t)
	io.WriteString(w, "first\nsecond\n")
	w.Close()
	line, err := s.ReadTerminalLine(context.Background())
	if err != nil || line != "first\n" {
		t.Fatalf("got %q, %v", line, err)
	}
	rest, _ := io.ReadAll(s.In)
	if string(rest) != "second\n" {
		t.Fatalf("left %q, want the second line", rest)
	}
	if _, err := s.ReadTerminalLine(context.Background()); err != io.EOF {
		t.Fatalf("at the end: %v, want io.EOF", err)
	}
}

func TestTerminalHintNamesTheEndOfInputKey(t *testing.T) {
	if !strings.Contains(TerminalHint, EndOfInputKey+" on a new line ends") || !strings.Contains(TerminalHint, "Ctrl-C cancels") {
		t.Fatalf("hint %q", TerminalHint)
	}
}
