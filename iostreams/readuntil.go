package iostreams

import (
	"context"
	"io"
)

// ReadUntil returns r read until ctx ends: a Read that waits for input (a
// pipe whose writer is silent) returns ctx's error as soon as ctx is done,
// instead of waiting on. Each read of r runs on a goroutine of its own; one
// that ctx abandoned ends when r gives it something (or the process ends).
// It is for inputs that may wait (pipes, FIFOs); a regular file needs none.
func ReadUntil(ctx context.Context, r io.Reader) io.Reader {
	return &untilReader{ctx: ctx, r: r, done: make(chan readDone, 1)}
}

// untilReader is ReadUntil's reader.
type untilReader struct {
	ctx  context.Context
	r    io.Reader
	done chan readDone // the read on its way, when busy
	busy bool
	buf  []byte // what the read on its way reads into
	left []byte // read, not yet handed over
	err  error  // the error that came with left
}

// readDone is what one read of r gave.
type readDone struct {
	n   int
	err error
}

func (u *untilReader) Read(p []byte) (int, error) {
	if len(u.left) > 0 {
		n := copy(p, u.left)
		u.left = u.left[n:]
		if len(u.left) == 0 && u.err != nil {
			err := u.err
			u.err = nil
			return n, err
		}
		return n, nil
	}
	if err := u.ctx.Err(); err != nil {
		return 0, err
	}
	if !u.busy {
		if cap(u.buf) < len(p) {
			u.buf = make([]byte, len(p))
		}
		buf := u.buf[:len(p)]
		u.busy = true
		go func() {
			n, err := u.r.Read(buf)
			u.done <- readDone{n, err}
		}()
	}
	select {
	case d := <-u.done:
		u.busy = false
		n := copy(p, u.buf[:d.n])
		if n < d.n {
			u.left, u.err = u.buf[n:d.n], d.err
			return n, nil
		}
		return n, d.err
	case <-u.ctx.Done():
		return 0, u.ctx.Err()
	}
}
