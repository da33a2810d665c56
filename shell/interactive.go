package shell

import (
	"context"
	"fmt"
	"os"
	"os/signal"
	"syscall"

	prompt "github.com/c-bata/go-prompt"
	"github.com/tstable/tstable/cmdspec"
	"github.com/tstable/tstable/completions"
)

// interactive runs the go-prompt shell. The loop is driven with
// Prompt.Input, never Prompt.Run (which calls os.Exit on a signal, so
// nothing would be cleaned up). Between lines the terminal is in its
// normal mode: Ctrl-C there is an interrupt, which cancels the running
// command; while a line is typed, go-prompt reads Ctrl-C as a key and
// clears the line.
func (s *shell) interactive(ctx context.Context) (status int) {
	tty := saveTerminal()
	defer tty.restore()
	defer func() {
		if r := recover(); r != nil {
			tty.restore()
			fmt.Fprintf(s.cfg.IO.ErrOut, "error: internal: %v (the shell stopped; please report this with what you typed)\n", r)
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

	parser := &keyParser{PosixParser: prompt.NewStandardInputParser()}
	p := prompt.New(
		func(string) {},
		func(d prompt.Document) []prompt.Suggest { return s.suggest(ctx, d) },
		prompt.OptionParser(parser),
		prompt.OptionTitle("tstable"),
		prompt.OptionPrefix(s.prompt()),
		prompt.OptionLivePrefix(func() (string, bool) { return s.prompt(), true }),
		prompt.OptionHistory(s.history.lines),
		prompt.OptionMaxSuggestion(10),
		prompt.OptionPrefixTextColor(prompt.Cyan),
		prompt.OptionSuggestionBGColor(prompt.DarkGray),
		prompt.OptionSuggestionTextColor(prompt.White),
		prompt.OptionDescriptionBGColor(prompt.LightGray),
		prompt.OptionDescriptionTextColor(prompt.Black),
		prompt.OptionSelectedSuggestionBGColor(prompt.Cyan),
		prompt.OptionSelectedDescriptionBGColor(prompt.Cyan),
	)
	fmt.Fprintf(s.cfg.IO.Out, "tstable shell%s · help for commands · Tab completes · Ctrl-D leaves\n", s.banner())
	for {
		parser.ctrlD.Store(false)
		line := p.Input()
		tty.restore()
		if line == "" && parser.ctrlD.Load() {
			return cmdspec.ExitOK
		}
		s.history.add(line)
		if _, quit := s.execLine(ctx, line); quit {
			return cmdspec.ExitOK
		}
	}
}

func (s *shell) banner() string {
	if s.cfg.Label == "" {
		return ""
	}
	return " on " + s.cfg.Label
}

// suggest adapts completions to go-prompt. Nothing is offered on an empty
// line, so the prompt starts clean.
func (s *shell) suggest(ctx context.Context, d prompt.Document) []prompt.Suggest {
	before := d.TextBeforeCursor()
	if before == "" || s.tree == nil {
		return nil
	}
	return toPrompt(s.line.Complete(ctx, before))
}

func toPrompt(in []completions.Suggestion) []prompt.Suggest {
	out := make([]prompt.Suggest, len(in))
	for i, x := range in {
		out[i] = prompt.Suggest{Text: x.Text, Description: x.Description}
	}
	return out
}
