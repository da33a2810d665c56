package shell

import (
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"os/signal"
	"strings"
	"syscall"

	"github.com/tstable/tstable/cmdspec"
	"github.com/tstable/tstable/completions"
	prompt "github.com/tstable/tstable/internal/prompt"
)

// interactive runs the go-prompt shell (the fork in internal/prompt).
// The loop is driven with Prompt.ReadLine, never Prompt.Run (which calls
// os.Exit on a signal, so nothing would be cleaned up). ReadLine handles
// keys one at a time however fast they arrive, and keeps what arrives after
// a line's Enter for the next line, so every line of a pasted block runs,
// in order. Between lines the terminal is in its normal mode: Ctrl-C there
// is an interrupt, which cancels the running command; while a line is
// typed, go-prompt reads Ctrl-C as a key and clears the line.
func (s *shell) interactive(ctx context.Context) (status int) {
	tty := saveTerminal()
	defer tty.restore()
	defer func() {
		if r := recover(); r != nil {
			tty.restore()
			fmt.Fprintf(s.cfg.IO.ErrOut, "error: InternalError: %v (the shell stopped; please report this with what you typed)\n", r)
			status = cmdspec.ExitFailed
		}
	}()

	// An interrupt between prompts cancels the running command; a request
	// to terminate restores the terminal and ends the process.
	stopInterrupts := s.cancelOnInterrupt(nil)
	defer stopInterrupts()
	term := make(chan os.Signal, 1)
	signal.Notify(term, syscall.SIGTERM, syscall.SIGHUP, syscall.SIGQUIT)
	defer signal.Stop(term)
	go func() {
		if _, ok := <-term; ok {
			s.runner.Interrupt()
			tty.restore()
			fmt.Fprintln(s.cfg.IO.ErrOut)
			os.Exit(cmdspec.ExitFailed)
		}
	}()

	// An interrupt that cancels a command also drops the keys read after
	// its line, such as the rest of a pasted block, as the terminal drops
	// what it had not delivered yet.
	interrupted := make(chan os.Signal, 1)
	signal.Notify(interrupted, os.Interrupt)
	defer signal.Stop(interrupted)

	opts := append([]prompt.Option{
		prompt.OptionTitle("tstable"),
		prompt.OptionPrefix(s.prompt()),
		prompt.OptionLivePrefix(func() (string, bool) { return s.prompt(), true }),
		prompt.OptionHistory(s.history.lines),
		prompt.OptionMaxSuggestion(10),
		prompt.OptionBracketedPaste(),
		prompt.OptionCompletionSpace(completions.SpaceAfter),
		prompt.OptionInterruptReturns(),
		prompt.OptionManualHistory(),
	}, colorOptions(os.Getenv("NO_COLOR") != "")...)
	p := prompt.New(
		func(string) {},
		func(d prompt.Document) []prompt.Suggest { return s.suggest(ctx, d) },
		opts...,
	)
	fmt.Fprintf(s.cfg.IO.Out, "tstable shell%s · help for commands · Tab completes · Ctrl-R searches history · Ctrl-D leaves\n", s.banner())
	for {
		line, err := s.readCommand(p)
		tty.restore()
		if errors.Is(err, prompt.ErrInterrupted) {
			continue
		}
		if err != nil { // Ctrl-D on an empty line
			return cmdspec.ExitOK
		}
		if entry := historyEntry(line); strings.TrimSpace(entry) != "" {
			s.history.add(entry)
			p.AddHistory(strings.TrimSpace(entry))
		}
		drain(interrupted)
		_, quit := s.execLine(ctx, line)
		if drain(interrupted) {
			p.DiscardInput()
		}
		if quit {
			return cmdspec.ExitOK
		}
	}
}

// readCommand reads a command, over several lines when a line ends inside
// an open quote or with a backslash (see openEnd), each after the
// continuation prompt. Ctrl-C drops the whole command (ErrInterrupted);
// Ctrl-D on an empty continuation line drops it too, saying so.
func (s *shell) readCommand(p *prompt.Prompt) (string, error) {
	line, err := p.ReadLine()
	for err == nil && openEnd(line) != 0 {
		s.open = openEnd(line)
		var more string
		more, err = p.ReadLine()
		switch {
		case errors.Is(err, io.EOF):
			fmt.Fprintf(s.cfg.IO.ErrOut, "(the command ended inside %s: nothing ran)\n", openText(s.open))
			line, err = "", nil
		case err == nil:
			line = joinLine(line, more)
		}
	}
	s.open = 0
	return line, err
}

// openText names what a command ended inside of.
func openText(open rune) string {
	switch open {
	case '\\':
		return "a line ending with a backslash"
	case '"':
		return "an open \" quote"
	}
	return "an open ' quote"
}

// colorOptions are the prompt's and the completion menu's colours, or,
// with noColor (NO_COLOR is set, https://no-color.org), none: the selected
// suggestion is then shown in reverse video.
func colorOptions(noColor bool) []prompt.Option {
	if noColor {
		return []prompt.Option{prompt.OptionNoColor()}
	}
	return []prompt.Option{
		prompt.OptionPrefixTextColor(prompt.Cyan),
		prompt.OptionSuggestionBGColor(prompt.DarkGray),
		prompt.OptionSuggestionTextColor(prompt.White),
		prompt.OptionDescriptionBGColor(prompt.LightGray),
		prompt.OptionDescriptionTextColor(prompt.Black),
		prompt.OptionSelectedSuggestionBGColor(prompt.Cyan),
		prompt.OptionSelectedDescriptionBGColor(prompt.Cyan),
	}
}

// drain empties ch and reports whether it held a signal.
func drain(ch chan os.Signal) bool {
	got := false
	for {
		select {
		case <-ch:
			got = true
		default:
			return got
		}
	}
}

func (s *shell) banner() string {
	if s.label == "" {
		return ""
	}
	return " on " + s.label
}

// suggest adapts completions to go-prompt.
func (s *shell) suggest(ctx context.Context, d prompt.Document) []prompt.Suggest {
	return toPrompt(s.complete(ctx, d.TextBeforeCursor(), d.LastKeyStroke() == prompt.Tab))
}

// complete returns the suggestions for before, the text before the cursor.
// An empty line offers nothing, so the prompt starts clean, until Tab asks
// (tab): then it lists the commands.
func (s *shell) complete(ctx context.Context, before string, tab bool) []completions.Suggestion {
	if s.tree == nil || (before == "" && !tab) {
		return nil
	}
	return s.line.Complete(ctx, before)
}

func toPrompt(in []completions.Suggestion) []prompt.Suggest {
	out := make([]prompt.Suggest, len(in))
	for i, x := range in {
		out[i] = prompt.Suggest{Text: x.Text, Description: x.Description, Placeholder: completions.Placeholder(x)}
	}
	return out
}
