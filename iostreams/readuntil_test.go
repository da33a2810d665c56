package iostreams

import (
	"bytes"
	"context"
	"errors"
	"io"
	"testing"
	"testing/iotest"
)

// TestReadUntilReadsAll: until ctx ends, the reader gives every byte of
// r, whatever the sizes of the reads, and r's end.
func TestReadUntilReadsAll(t *testing.T) {
	data := bytes.Repeat([]byte("0123456789abcdef"), 1000)
	if err := iotest.TestReader(ReadUntil(context.Background(), bytes.NewReader(data)), data); err != nil {
		t.Fatal(err)
	}
	got, err := io.ReadAll(iotest.HalfReader(ReadUntil(context.Background(), iotest.OneByteReader(bytes.NewReader(data)))))
	if err != nil || !bytes.Equal(got, data) {
		t.Fatalf("read %d bytes, %v; want %d", len(got), err, len(data))
	}
}

// TestReadUntilStopsWaiting: a read waiting on a silent pipe returns
// ctx's error once ctx ends, and so does every read after it.
func TestReadUntilStopsWaiting(t *testing.T) {
	pr, pw := io.Pipe()
	defer pw.Close()
	ctx, cancel := context.WithCancel(context.Background())
	r := ReadUntil(ctx, pr)
	errc := make(chan error, 1)
	go func() {
		_, err := r.Read(make([]byte, 10))
		errc <- err
	}()
	cancel()
	if err := <-errc; !errors.Is(err, context.Canceled) {
		t.Fatalf("the waiting read returned %v, want context.Canceled", err)
	}
	if _, err := r.Read(make([]byte, 10)); !errors.Is(err, context.Canceled) {
		t.Fatalf("a read after the end returned %v", err)
	}
}
