package shell

import (
	"bytes"
	"os"
	"sync/atomic"

	prompt "github.com/c-bata/go-prompt"
	"golang.org/x/term"
)

// terminal guards the user's terminal against go-prompt v0.2.6, which may
// leave it in raw mode (its saved termios is the one SetRaw changed): the
// state is saved before the first prompt and restored after every line,
// on exit, on a panic and on a terminating signal.
type terminal struct {
	fd    int
	saved *term.State
}

func saveTerminal() *terminal {
	t := &terminal{fd: int(os.Stdin.Fd())}
	if st, err := term.GetState(t.fd); err == nil {
		t.saved = st
	}
	return t
}

// restore puts the terminal back as it was when the shell started.
func (t *terminal) restore() {
	if t.saved != nil {
		term.Restore(t.fd, t.saved)
	}
}

// keyParser is go-prompt's terminal reader with two fixes:
//   - it remembers whether the last key read was Ctrl-D: go-prompt's Input
//     returns "" both for Enter on an empty line and for Ctrl-D, and only
//     the second ends the shell;
//   - pasted text arrives as one chunk, which go-prompt would insert whole,
//     line ends included; the chunk is handed over a line at a time, with
//     each Enter as a key of its own.
type keyParser struct {
	*prompt.PosixParser
	ctrlD   atomic.Bool
	pending []byte
}

// Read implements prompt.ConsoleParser.
func (p *keyParser) Read() ([]byte, error) {
	if len(p.pending) == 0 {
		b, err := p.PosixParser.Read()
		if err != nil || len(b) == 0 {
			return b, err
		}
		p.pending = b
	}
	b := p.pending
	if i := bytes.IndexAny(b, "\r\n"); i == 0 {
		b = b[:1]
	} else if i > 0 {
		b = b[:i]
	}
	p.pending = p.pending[len(b):]
	p.ctrlD.Store(len(b) == 1 && b[0] == 0x04)
	return b, nil
}
