package prompt

import "bytes"

// Bracketed paste: with OptionBracketedPaste, the terminal is asked to
// mark what is pasted (ESC [ 200 ~ before, ESC [ 201 ~ after) while a
// line is read. Inside a paste a Tab is text, not completion, as in bash
// (a value pasted with a Tab keeps it); a line end still ends the line, so
// a pasted block of lines runs line by line; other keys (control
// characters, escape sequences) are dropped.

var (
	pasteStart = []byte("\x1b[200~")
	pasteEnd   = []byte("\x1b[201~")
)

const (
	bracketedPasteOn  = "\x1b[?2004h"
	bracketedPasteOff = "\x1b[?2004l"
)

// pasteMarker handles the markers around a paste and reports whether b
// was one.
func (p *Prompt) pasteMarker(b []byte) bool {
	switch {
	case bytes.Equal(b, pasteStart):
		p.pasting = true
	case bytes.Equal(b, pasteEnd):
		p.pasting = false
	default:
		return false
	}
	return true
}

// feedPasted handles a key event inside a paste, and reports whether it
// did; line ends and text it leaves to feed.
func (p *Prompt) feedPasted(key Key, b []byte) bool {
	switch key {
	case Enter, ControlJ, ControlM:
		return false
	case Tab, ControlI:
		p.buf.InsertText("\t", false, true)
		return true
	case NotDefined:
		if _, ok := keyText(b); ok {
			return false
		}
	}
	return true
}
