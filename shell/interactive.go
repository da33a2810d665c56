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

// interactive runs the go-prompt shell (the fork in third_party/go-prompt).
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
	}, colorOptions(os.Getenv("NO_COLOR") != "")...)
	p := prompt.New(
		func(string) {},
		func(d prompt.Document) []prompt.Suggest { return s.suggest(ctx, d) },
		opts...,
	)
	fmt.Fprintf(s.cfg.IO.Out, "tstable shell%s · help for commands · Tab completes · Ctrl-R searches history · Ctrl-D leaves\n", s.banner())
	for {
		line, err := p.ReadLine()
		tty.restore()
		if err != nil { // Ctrl-D on an empty line
			return cmdspec.ExitOK
		}
		s.history.add(line)
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
		out[i] = prompt.Suggest{Text: x.Text, Description: x.Description}
	}
	return out
}
