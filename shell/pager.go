package shell

import (
	"os"

	"github.com/tstable/tstable/iostreams"
)

// pagerState is the shell's pager setting (`pager on|off`): on by default
// in an interactive shell, and used only when standard output is a
// terminal.
type pagerState struct {
	on bool
}

// describe names the pager that runs: "less -S", or $PAGER.
func (p pagerState) describe() string {
	if v := os.Getenv("PAGER"); v != "" {
		return "$PAGER: " + v
	}
	return iostreams.DefaultPager + "; $PAGER sets another"
}

// commandStreams are the streams a command runs with: through a pager when
// the pager is on and output is a terminal, else the shell's own. done
// ends the command's output (waiting for the pager to be left).
func (s *shell) commandStreams() (ios *iostreams.IOStreams, done func()) {
	term, ok := s.cfg.IO.Out.(*os.File)
	if !s.pager.on || !ok || !s.cfg.IO.OutTTY || !s.cfg.IO.InTTY {
		return s.cfg.IO, func() {}
	}
	p := iostreams.NewPager(term, iostreams.PagerCommand(), func() { s.runner.Interrupt() })
	return p.Streams(s.cfg.IO), func() { p.Close() }
}
