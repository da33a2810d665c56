package shell

import (
	"os"

	"golang.org/x/term"
)

// terminal guards the user's terminal: go-prompt puts it in raw mode while
// a line is read and back only when ReadLine returns (v0.2.6 even put back
// the raw settings; the fork fixes that). The state is saved before the
// first prompt and restored after every line, on exit, on a panic and on a
// terminating signal.
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
