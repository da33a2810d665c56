package iostreams

import (
	"bytes"
	"errors"
	"io"
	"os"
	"os/exec"
	"sync"
	"unicode/utf8"

	"github.com/google/shlex"
	"golang.org/x/term"
)

// DefaultPager is the pager when $PAGER is not set: less, cutting long
// lines instead of wrapping them (-S), as psql does.
const DefaultPager = "less -S"

// PagerCommand is the pager to run: $PAGER, else DefaultPager.
func PagerCommand() string {
	if p := os.Getenv("PAGER"); p != "" {
		return p
	}
	return DefaultPager
}

// Pager sends one command's output through a pager when it is longer than
// the screen, as psql does. It holds the output back until it would fill
// the screen, then starts the pager and hands it what it held and the
// rest; output that fits is written to the terminal when the command ends
// (Close). Standard error goes the same way once output is held, so that
// the two stay in order; before that it goes to the terminal at once (a
// progress bar, "waiting for …"); while the pager runs it is held, and
// written after the pager is left (a continuation token, an error), where
// it stays on the screen. A command's closing summary (WriteTrailer: a
// query's footer) is held with it, and is not what starts the pager. When the command reads the terminal
// (BeforeTerminalRead), what is held is written out and the pager is not
// used for that command (a lesson waiting for Enter, an entity typed on
// the terminal). When the pager is left before the end (q), the rest of
// the output is dropped and onQuit is called (to cancel the command).
type Pager struct {
	term    *os.File // the terminal
	command string
	rows    int // screen rows output may fill before the pager starts
	cols    int
	onQuit  func()

	mu      sync.Mutex
	held    bytes.Buffer
	errHeld bytes.Buffer // standard error while the pager runs
	filled  int          // screen rows the held output fills
	col     int          // the column the held output ends at
	direct  bool         // the pager is off for the rest of this command
	proc    *exec.Cmd
	pipe    io.WriteCloser
	quit    bool // the pager ended before the output did
}

// NewPager returns a Pager for a command whose output goes to the terminal
// term, running command (see PagerCommand).
func NewPager(term *os.File, command string, onQuit func()) *Pager {
	p := &Pager{term: term, command: command, onQuit: onQuit, rows: 24, cols: 80}
	if w, h, err := termSize(term); err == nil && w > 0 && h > 0 {
		p.cols, p.rows = w, h
	}
	p.rows-- // room for the prompt that follows
	return p
}

func termSize(f *os.File) (int, int, error) { return term.GetSize(int(f.Fd())) }

// Streams returns s with its output, errors and input going through p.
func (p *Pager) Streams(s *IOStreams) *IOStreams {
	c := *s
	c.Out = pagerOut{p}
	c.ErrOut = pagerErr{p}
	c.BeforeTerminalRead = p.passThrough
	return &c
}

// pagerOut is standard output through the pager; Fd names the terminal,
// for its size.
type pagerOut struct{ p *Pager }

func (o pagerOut) Write(b []byte) (int, error) { return o.p.write(b, false) }
func (o pagerOut) Fd() uintptr                 { return o.p.term.Fd() }

// WriteTrailer takes a command's closing summary: after the pager is
// left when it runs (on the screen, as standard error is), else in its
// place after the output, never starting the pager by itself.
func (o pagerOut) WriteTrailer(b []byte) (int, error) {
	p := o.p
	p.mu.Lock()
	defer p.mu.Unlock()
	switch {
	case p.pipe != nil:
		return p.errHeld.Write(b)
	case p.direct:
		return p.term.Write(b)
	}
	return p.held.Write(b)
}

// Paged reports whether b, written next, would be read in the pager:
// the pager runs, or b would start it.
func (o pagerOut) Paged(b []byte) bool {
	p := o.p
	p.mu.Lock()
	defer p.mu.Unlock()
	switch {
	case p.pipe != nil:
		return !p.quit
	case p.direct:
		return false
	}
	filled, _ := screenRows(p.filled, p.col, p.cols, b)
	return filled > p.rows
}

type pagerErr struct{ p *Pager }

func (e pagerErr) Write(b []byte) (int, error) { return e.p.write(b, true) }

// write takes output (isErr: standard error).
func (p *Pager) write(b []byte, isErr bool) (int, error) {
	p.mu.Lock()
	defer p.mu.Unlock()
	switch {
	case isErr && p.pipe != nil:
		return p.errHeld.Write(b) // said once the pager is left
	case p.quit:
		return len(b), nil // the pager is gone: drop the rest
	case p.pipe != nil:
		return p.toPager(b)
	case p.direct || (isErr && p.held.Len() == 0):
		return p.term.Write(b)
	}
	p.held.Write(b)
	p.count(b)
	if p.filled <= p.rows {
		return len(b), nil
	}
	if err := p.start(); err != nil {
		p.direct = true // no pager to be had: the terminal, as without one
		_, werr := p.term.Write(p.held.Bytes())
		p.held.Reset()
		return len(b), werr
	}
	held := p.held.Bytes()
	p.held = bytes.Buffer{}
	if _, err := p.toPager(held); err != nil {
		return 0, err
	}
	return len(b), nil
}

// count adds the screen rows b fills, its lines wrapped at the terminal's
// width.
func (p *Pager) count(b []byte) { p.filled, p.col = screenRows(p.filled, p.col, p.cols, b) }

// screenRows is the rows filled and the column reached after b, from
// filled rows and column col, on a screen cols wide.
func screenRows(filled, col, cols int, b []byte) (int, int) {
	for len(b) > 0 {
		r, n := utf8.DecodeRune(b)
		b = b[n:]
		switch {
		case r == '\n':
			filled++
			col = 0
		case r == '\r':
			col = 0
		case r >= ' ':
			if col == cols {
				filled++
				col = 0
			}
			col++
		}
	}
	return filled, col
}

// toPager writes b to the pager; when the pager has ended, what is left
// is dropped, and onQuit is called once.
func (p *Pager) toPager(b []byte) (int, error) {
	if _, err := p.pipe.Write(b); err != nil {
		p.quit = true
		if p.onQuit != nil {
			go p.onQuit()
		}
	}
	return len(b), nil
}

// start starts the pager, reading from a pipe, on the terminal.
func (p *Pager) start() error {
	args, err := shlex.Split(p.command)
	if err != nil || len(args) == 0 {
		return errors.New("no pager")
	}
	c := exec.Command(args[0], args[1:]...)
	c.Stdout, c.Stderr = p.term, p.term
	pipe, err := c.StdinPipe()
	if err != nil {
		return err
	}
	if err := c.Start(); err != nil {
		return err
	}
	p.proc, p.pipe = c, pipe
	return nil
}

// passThrough writes out what is held and turns the pager off for the rest
// of the command, which is about to read the terminal.
func (p *Pager) passThrough() {
	p.mu.Lock()
	defer p.mu.Unlock()
	if p.pipe != nil || p.direct {
		return
	}
	p.direct = true
	p.term.Write(p.held.Bytes())
	p.held.Reset()
}

// Close ends the command's output: what is held goes to the terminal, or
// the pager gets the end of its input and Close waits until it is left.
// It reports whether the pager ran.
func (p *Pager) Close() bool {
	p.mu.Lock()
	defer p.mu.Unlock()
	if p.pipe == nil {
		p.term.Write(p.held.Bytes())
		p.held.Reset()
		return false
	}
	p.pipe.Close()
	p.proc.Wait()
	p.term.Write(p.errHeld.Bytes())
	return true
}
