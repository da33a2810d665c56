package shell

import (
	"bufio"
	"context"
	"fmt"
	"os"
	"os/signal"

	"github.com/tstable/tstable/cmdspec"
)

// lines runs the commands read from standard input, one per line, with no
// prompt, banner or footer timing, so that replaying a file prints what
// the same command-line calls print. Blank lines and lines starting with
// # are skipped. The shell goes on after a failing command, saying after
// its error which line of the input it was ("(line 12 of the input)"),
// and returns 1 at the end when any failed. A line that ends inside an
// open quote or with a backslash goes on on the next one, as in a POSIX
// shell. explain starts off here (explain on turns it on).
func (s *shell) lines(ctx context.Context) int {
	s.sess.Explain, s.sess.Timing, s.sess.footerTime = false, false, false
	stopSignals := s.cancelOnInterrupt(func() { os.Exit(130) })
	defer stopSignals()
	sc := bufio.NewScanner(s.cfg.IO.In)
	sc.Buffer(make([]byte, 64*1024), 8*1024*1024)
	status := cmdspec.ExitOK
	for n := 1; sc.Scan(); n++ {
		line, first := sc.Text(), n
		for openEnd(line) != 0 && sc.Scan() { // the command goes on
			line, n = joinLine(line, sc.Text()), n+1
		}
		if open := openEnd(line); open != 0 {
			s.fail(cmdspec.Usagef("", "the input ended inside %s", openText(open)))
			fmt.Fprintf(s.cfg.IO.ErrOut, "(line %d of the input)\n", first)
			return cmdspec.ExitFailed
		}
		st, quit := s.execLine(ctx, line)
		if st != cmdspec.ExitOK {
			status = cmdspec.ExitFailed
			fmt.Fprintf(s.cfg.IO.ErrOut, "(line %d of the input)\n", first)
		}
		if quit {
			break
		}
	}
	if err := sc.Err(); err != nil {
		return s.fail(fmt.Errorf("reading commands: %w", err))
	}
	return status
}

// cancelOnInterrupt makes an interrupt cancel the running command instead
// of ending the process, until the returned func is called. An interrupt
// between commands calls idle (nil: ignore it).
func (s *shell) cancelOnInterrupt(idle func()) func() {
	ch := make(chan os.Signal, 1)
	signal.Notify(ch, os.Interrupt)
	done := make(chan struct{})
	go func() {
		for {
			select {
			case <-ch:
				if !s.runner.Interrupt() && idle != nil {
					idle()
				}
			case <-done:
				return
			}
		}
	}()
	return func() {
		signal.Stop(ch)
		close(done)
	}
}
