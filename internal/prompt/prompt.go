package prompt

import (
	"bytes"
	"errors"
	"io"
	"os"
	"time"

	"github.com/tstable/tstable/internal/prompt/internal/debug"
)

// Executor is called when user input something text.
type Executor func(string)

// ExitChecker is called after user input to check if prompt must stop and exit go-prompt Run loop.
// User input means: selecting/typing an entry, then, if said entry content matches the ExitChecker function criteria:
// - immediate exit (if breakline is false) without executor called
// - exit after typing <return> (meaning breakline is true), and the executor is called first, before exit.
// Exit means exit go-prompt (not the overall Go program)
type ExitChecker func(in string, breakline bool) bool

// Completer should return the suggest item from Document.
type Completer func(Document) []Suggest

// Prompt is core struct of go-prompt.
type Prompt struct {
	in                ConsoleParser
	buf               *Buffer
	renderer          *Render
	executor          Executor
	history           *History
	completion        *CompletionManager
	keyBindings       []KeyBind
	ASCIICodeBindings []ASCIICodeBind
	keyBindMode       KeyBindMode
	completionOnDown  bool
	exitChecker       ExitChecker
	skipTearDown      bool
	keys              keyQueue
	search            *historySearch
	lastSearch        string
	editor            editor
	// bracketedPaste asks the terminal to mark pastes (OptionBracketedPaste);
	// pasting is set between the marks.
	bracketedPaste bool
	pasting        bool
	// completionSpace says whether a single completion inserted at once is
	// followed by a space (OptionCompletionSpace), given the line up to
	// the cursor; nil: never.
	completionSpace func(line string) bool
	sizeChecked     time.Time // when the terminal's size was last read
	// interruptReturns makes ReadLine return ErrInterrupted on Ctrl-C
	// (OptionInterruptReturns); manualHistory leaves the history to the
	// caller (OptionManualHistory); interrupted is set by Ctrl-C.
	interruptReturns bool
	manualHistory    bool
	interrupted      bool
}

// ErrInterrupted is what ReadLine returns for Ctrl-C with
// OptionInterruptReturns: the line is dropped.
var ErrInterrupted = errors.New("interrupted")

// AddHistory adds a line to the history that Up, Down and Ctrl-R walk
// (with OptionManualHistory, ReadLine adds none itself).
func (p *Prompt) AddHistory(line string) {
	p.history.Add(line)
}

// Exec is the struct contains user input context.
type Exec struct {
	input string
}

// Run starts prompt.
func (p *Prompt) Run() {
	p.skipTearDown = false
	defer debug.Teardown()
	debug.Log("start prompt")
	p.setUp()
	defer p.tearDown()

	if p.completion.showAtStart {
		p.completion.Update(*p.buf.Document())
	}

	p.renderer.Render(p.buf, p.completion)

	exitCh := make(chan int)
	winSizeCh := make(chan *WinSize)
	stopHandleSignalCh := make(chan struct{})
	go p.handleSignals(exitCh, winSizeCh, stopHandleSignalCh)

	for {
		select {
		case w := <-winSizeCh:
			p.renderer.UpdateWinSize(w)
			p.renderer.Render(p.buf, p.completion)
			continue
		case code := <-exitCh:
			p.renderer.BreakLine(p.buf)
			p.tearDown()
			os.Exit(code)
		default:
		}
		b := p.nextKey()
		if b == nil {
			time.Sleep(10 * time.Millisecond)
			continue
		}
		if shouldExit, e := p.feed(b); shouldExit {
			p.renderer.BreakLine(p.buf)
			stopHandleSignalCh <- struct{}{}
			return
		} else if e != nil {
			stopHandleSignalCh <- struct{}{}

			// Unset raw mode
			// Reset to Blocking mode because returned EAGAIN when still set non-blocking mode.
			debug.AssertNoError(p.in.TearDown())
			p.executor(e.input)

			p.completion.Update(*p.buf.Document())

			p.renderer.Render(p.buf, p.completion)

			if p.exitChecker != nil && p.exitChecker(e.input, true) {
				p.skipTearDown = true
				return
			}
			// Set raw mode
			debug.AssertNoError(p.in.Setup())
			go p.handleSignals(exitCh, winSizeCh, stopHandleSignalCh)
		} else {
			p.updateCompletion()
			p.renderer.Render(p.buf, p.completion)
		}
	}
}

// nextKey returns the next key event (see ScanKeys), reading from the
// ConsoleParser only when none is queued, or nil when there is none yet.
// Nothing read is ever dropped: what the current line does not use stays
// queued for the next one.
func (p *Prompt) nextKey() []byte {
	if b := p.keys.next(time.Now()); b != nil {
		return b
	}
	if b, err := p.in.Read(); err == nil && len(b) > 0 {
		p.keys.add(b)
		return p.keys.next(time.Now())
	}
	return nil
}

// DiscardInput drops the keys that were read but not yet used, such as
// the rest of a pasted block.
func (p *Prompt) DiscardInput() {
	p.keys.discard()
}

// updateCompletion asks the completer for suggestions for the line, except
// during a history search, which shows none.
func (p *Prompt) updateCompletion() {
	if p.search != nil {
		p.completion.hide()
		return
	}
	p.completion.Update(*p.buf.Document())
}

// feed handles one key event.
func (p *Prompt) feed(b []byte) (shouldExit bool, exec *Exec) {
	key := GetKey(b)
	p.buf.lastKeyStroke = key
	if p.pasteMarker(b) {
		return
	}
	if p.search != nil && p.feedSearch(key, b) {
		return
	}
	if key == ControlR && p.keyBindMode == EmacsKeyBind {
		p.startSearch()
		return
	}
	if key == ControlUnderscore && p.keyBindMode == EmacsKeyBind {
		p.completion.tabShown = false
		p.completion.Reset()
		p.undoChange()
		return
	}
	buf, before := p.buf, snapshot{p.buf.Text(), p.buf.cursorPosition}
	_, typed := keyText(b)
	defer func() { p.recordChange(buf, before, typed) }()
	if p.pasting && p.feedPasted(key, b) {
		return
	}
	// completion
	completing := p.completion.Completing()
	p.handleCompletionKeyBinding(key, completing)
	if p.editKey(key, b) {
		return
	}

	switch key {
	case Enter, ControlJ, ControlM:
		p.renderer.BreakLine(p.buf)

		exec = &Exec{input: p.buf.Text()}
		p.buf = NewBuffer()
		if exec.input != "" && !p.manualHistory {
			p.history.Add(exec.input)
		}
	case ControlC:
		p.renderer.BreakLine(p.buf)
		p.buf = NewBuffer()
		p.history.Clear()
		p.interrupted = p.interruptReturns
	case Up, ControlP:
		if !completing { // Don't use p.completion.Completing() because it takes double operation when switch to selected=-1.
			if newBuf, changed := p.history.Older(p.buf); changed {
				p.buf = newBuf
			}
		}
	case Down, ControlN:
		if !completing { // Don't use p.completion.Completing() because it takes double operation when switch to selected=-1.
			if newBuf, changed := p.history.Newer(p.buf); changed {
				p.buf = newBuf
			}
			return
		}
	case ControlD:
		if p.buf.Text() == "" {
			shouldExit = true
			return
		}
	case NotDefined:
		if p.handleASCIICodeBinding(b) {
			return
		}
		// Only text is inserted: an unknown control character or escape
		// sequence (F5, Alt-x, a paste marker) is not.
		if text, ok := keyText(b); ok {
			p.buf.InsertText(text, false, true)
		}
	}

	shouldExit = p.handleKeyBinding(key)
	return
}

func (p *Prompt) handleCompletionKeyBinding(key Key, completing bool) {
	switch key {
	case Down:
		if completing || p.completionOnDown {
			p.completion.Next()
		}
	case Tab, ControlI:
		p.completeOnTab()
	case Up:
		if completing {
			p.completion.Previous()
		}
	case BackTab:
		p.completion.Previous()
	default:
		if s, ok := p.completion.GetSelectedSuggestion(); ok {
			p.replaceWord(s.Text)
		}
		p.completion.tabShown = false
		p.completion.Reset()
	}
}

func (p *Prompt) handleKeyBinding(key Key) bool {
	shouldExit := false
	for i := range commonKeyBindings {
		kb := commonKeyBindings[i]
		if kb.Key == key {
			kb.Fn(p.buf)
		}
	}

	if p.keyBindMode == EmacsKeyBind {
		for i := range emacsKeyBindings {
			kb := emacsKeyBindings[i]
			if kb.Key == key {
				kb.Fn(p.buf)
			}
		}
	}

	// Custom key bindings
	for i := range p.keyBindings {
		kb := p.keyBindings[i]
		if kb.Key == key {
			kb.Fn(p.buf)
		}
	}
	if p.exitChecker != nil && p.exitChecker(p.buf.Text(), false) {
		shouldExit = true
	}
	return shouldExit
}

func (p *Prompt) handleASCIICodeBinding(b []byte) bool {
	checked := false
	for _, kb := range p.ASCIICodeBindings {
		if bytes.Equal(kb.ASCIICode, b) {
			kb.Fn(p.buf)
			checked = true
		}
	}
	return checked
}

// Input just returns user input text. It returns "" both for Enter on an
// empty line and when the user leaves (Ctrl-D on an empty line, or the exit
// checker); ReadLine tells them apart.
func (p *Prompt) Input() string {
	line, _ := p.ReadLine()
	return line
}

// ReadLine reads one line as Input does, and returns io.EOF when the user
// leaves: Ctrl-D on an empty line, or the exit checker. Keys are read only
// as the line needs them and handled one at a time, however many arrive
// together; what arrives after the line's Enter (the rest of a pasted
// block) is kept for the next call.
func (p *Prompt) ReadLine() (string, error) {
	defer debug.Teardown()
	debug.Log("start prompt")
	p.setUp()
	defer p.tearDown()

	if p.completion.showAtStart {
		p.completion.Update(*p.buf.Document())
	}

	p.renderer.Render(p.buf, p.completion)
	resized, stop := notifyResize()
	defer stop()
	for {
		select {
		case <-resized: // before the keys that follow it are drawn
			p.sizeChecked = time.Time{}
			p.followWinSize()
		default:
		}
		b := p.nextKey()
		if b == nil {
			p.followWinSize()
			time.Sleep(10 * time.Millisecond)
			continue
		}
		if shouldExit, e := p.feed(b); shouldExit {
			p.renderer.BreakLine(p.buf)
			return "", io.EOF
		} else if e != nil {
			return e.input, nil
		}
		if p.interrupted {
			p.interrupted = false
			return "", ErrInterrupted
		}
		p.updateCompletion()
		p.renderer.Render(p.buf, p.completion)
	}
}

func (p *Prompt) setUp() {
	debug.AssertNoError(p.in.Setup())
	p.renderer.Setup()
	p.renderer.UpdateWinSize(p.in.GetWinSize())
	if p.bracketedPaste {
		if len(p.keys.pending) == 0 {
			p.pasting = false // a paste whose end mark never came
		}
		p.renderer.out.WriteRawStr(bracketedPasteOn)
		debug.AssertNoError(p.renderer.out.Flush())
	}
}

func (p *Prompt) tearDown() {
	if !p.skipTearDown {
		debug.AssertNoError(p.in.TearDown())
	}
	if p.bracketedPaste {
		p.renderer.out.WriteRawStr(bracketedPasteOff)
	}
	p.renderer.TearDown()
}

// followWinSize reads the terminal's size (when it is resized, and every
// 100 ms at most while no key comes) and draws the line again when it
// changed. The terminal has
// reflowed what it shows by then (tmux, VTE, iTerm2, Windows Terminal and
// most others do), keeping the cursor on the same character: so the line
// is found again at the new width, not the old one, and no stale copy of
// the prompt is left behind.
func (p *Prompt) followWinSize() {
	if time.Since(p.sizeChecked) < 100*time.Millisecond {
		return
	}
	p.sizeChecked = time.Now()
	ws := p.in.GetWinSize()
	if ws == nil || ws.Col == 0 || (ws.Col == p.renderer.col && ws.Row == p.renderer.row) {
		return
	}
	p.renderer.UpdateWinSize(ws)
	p.renderer.Render(p.buf, p.completion)
}
