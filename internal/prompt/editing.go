package prompt

import (
	"bytes"
	"unicode"
)

// Readline's editing keys, in the Emacs key bindings:
//
//   - Alt-b and Ctrl-Left move back to the start of a word, Alt-f and
//     Ctrl-Right forward to the end of one (a word is a run of letters and
//     digits);
//   - Ctrl-W kills back to the previous space, Alt-Backspace back to the
//     start of a word, Alt-d forward to the end of one, Ctrl-K to the end
//     of the line and Ctrl-U to its start;
//   - Ctrl-Y yanks (inserts) the text killed last; kills in a row make one
//     piece of text, as in readline;
//   - Ctrl-_ undoes the last change of the line, as many times as there
//     were changes (text typed in a row is one change).
//
// The kill ring outlives a line; the undo list belongs to it.

// maxKills is how many killed texts are kept.
const maxKills = 16

// Alt keys arrive as ESC and the key.
var (
	altB         = []byte{0x1b, 'b'}
	altF         = []byte{0x1b, 'f'}
	altD         = []byte{0x1b, 'd'}
	altBackspace = []byte{0x1b, 0x7f}
)

// snapshot is a line and its cursor, as undo puts them back.
type snapshot struct {
	text   string
	cursor int
}

// editor is the state of the editing keys.
type editor struct {
	kills     []string
	lastKill  int // the key event before this one killed: -1 backwards, 1 forwards, 0 not
	undo      []snapshot
	inserting bool // the last change was typed text: more text joins it
}

// editKey handles an editing key (but undo: see feed) and reports whether
// it did.
func (p *Prompt) editKey(key Key, b []byte) bool {
	if p.keyBindMode != EmacsKeyBind {
		return false
	}
	e, buf := &p.editor, p.buf
	killed := 0
	defer func() { e.lastKill = killed }()
	switch {
	case key == ControlLeft || bytes.Equal(b, altB):
		buf.CursorLeft(wordStartBefore(buf))
	case key == ControlRight || bytes.Equal(b, altF):
		buf.CursorRight(wordEndAfter(buf) - buf.cursorPosition)
	case key == ControlW:
		killed = -1
		p.kill(buf.cursorPosition-spaceStartBefore(buf), -1)
	case bytes.Equal(b, altBackspace):
		killed = -1
		p.kill(wordStartBefore(buf), -1)
	case bytes.Equal(b, altD):
		killed = 1
		p.kill(wordEndAfter(buf)-buf.cursorPosition, 1)
	case key == ControlK:
		killed = 1
		p.kill(len([]rune(buf.Document().TextAfterCursor())), 1)
	case key == ControlU:
		killed = -1
		p.kill(buf.cursorPosition, -1)
	case key == ControlY:
		if len(e.kills) > 0 {
			buf.InsertText(e.kills[len(e.kills)-1], false, true)
		}
	default:
		return false
	}
	return true
}

// wordStartBefore is how far back the cursor goes to the start of the
// word it is in or after (Alt-b): a count of characters.
func wordStartBefore(buf *Buffer) int {
	r := []rune(buf.Text())
	i := buf.cursorPosition
	for i > 0 && !isWordRune(r[i-1]) {
		i--
	}
	for i > 0 && isWordRune(r[i-1]) {
		i--
	}
	return buf.cursorPosition - i
}

// wordEndAfter is the position of the end of the word the cursor is in or
// before (Alt-f).
func wordEndAfter(buf *Buffer) int {
	r := []rune(buf.Text())
	i := buf.cursorPosition
	for i < len(r) && !isWordRune(r[i]) {
		i++
	}
	for i < len(r) && isWordRune(r[i]) {
		i++
	}
	return i
}

// spaceStartBefore is the position Ctrl-W kills back to: the start of the
// run of non-spaces before the cursor (after any spaces).
func spaceStartBefore(buf *Buffer) int {
	r := []rune(buf.Text())
	i := buf.cursorPosition
	for i > 0 && unicode.IsSpace(r[i-1]) {
		i--
	}
	for i > 0 && !unicode.IsSpace(r[i-1]) {
		i--
	}
	return i
}

func isWordRune(r rune) bool { return unicode.IsLetter(r) || unicode.IsDigit(r) }

// kill removes n characters before the cursor (dir -1) or after it (dir
// 1) into the kill ring; a kill right after another in the same
// direction adds to its text.
func (p *Prompt) kill(n, dir int) {
	if n <= 0 {
		return
	}
	e, buf := &p.editor, p.buf
	var text string
	if dir < 0 {
		text = buf.DeleteBeforeCursor(n)
	} else {
		text = buf.Delete(n)
	}
	switch {
	case e.lastKill == dir && len(e.kills) > 0 && dir < 0:
		e.kills[len(e.kills)-1] = text + e.kills[len(e.kills)-1]
	case e.lastKill == dir && len(e.kills) > 0:
		e.kills[len(e.kills)-1] += text
	default:
		e.kills = append(e.kills, text)
		if len(e.kills) > maxKills {
			e.kills = e.kills[1:]
		}
	}
}

// recordChange keeps, after a key event, what the line was before it when
// the event changed it (for undo); typed text joins the change before
// when that was typed text too. A new line (Enter, Ctrl-C, a line from
// the history) starts a new undo list.
func (p *Prompt) recordChange(buf *Buffer, before snapshot, typed bool) {
	e := &p.editor
	if p.buf != buf {
		e.newLine()
		return
	}
	if buf.Text() == before.text {
		e.inserting = e.inserting && typed // a key that moves ends the text typed in a row
		return
	}
	if !typed || !e.inserting {
		e.undo = append(e.undo, before)
	}
	e.inserting = typed
}

// undoChange puts the line back as it was before its last change.
func (p *Prompt) undoChange() {
	e := &p.editor
	e.inserting = false
	if len(e.undo) == 0 {
		return
	}
	s := e.undo[len(e.undo)-1]
	e.undo = e.undo[:len(e.undo)-1]
	p.buf.setDocument(&Document{Text: s.text, cursorPosition: min(s.cursor, len([]rune(s.text)))})
}

// newLine starts the editing state of a new line: its undo list is empty.
func (e *editor) newLine() {
	e.undo, e.inserting, e.lastKill = nil, false, 0
}
