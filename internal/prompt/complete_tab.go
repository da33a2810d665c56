package prompt

import (
	"strings"
	"unicode/utf8"
)

// completeOnTab handles Tab (Ctrl-I). While a suggestion is selected, Tab
// selects the next one. Otherwise the completer is asked again, with Tab as
// the last key: a single suggestion is inserted at once, unless it is a
// placeholder; several (or a placeholder) are shown first (and what they
// all begin with is inserted when that is longer than the word typed and
// none is a placeholder), and the next Tab selects the first of them.
func (p *Prompt) completeOnTab() {
	c := p.completion
	if c.Completing() {
		c.Next()
		return
	}
	c.Update(*p.buf.Document())
	switch {
	case len(c.tmp) == 0:
	case len(c.tmp) == 1 && !c.tmp[0].Placeholder:
		p.replaceWord(c.tmp[0].Text)
		p.spaceAfter()
		c.tabShown = false
		c.Reset()
	case !c.tabShown:
		c.tabShown = true
		word := p.buf.Document().GetWordBeforeCursorUntilSeparator(c.wordSeparator)
		if prefix := commonPrefix(c.tmp); extends(prefix, word) && !anyPlaceholder(c.tmp) {
			p.replaceWord(prefix)
		}
	default:
		c.Next()
	}
}

// anyPlaceholder reports whether one of s is a placeholder.
func anyPlaceholder(s []Suggest) bool {
	for _, x := range s {
		if x.Placeholder {
			return true
		}
	}
	return false
}

// replaceWord replaces the word before the cursor (up to the completion's
// word separator) with text.
func (p *Prompt) replaceWord(text string) {
	if w := p.buf.Document().GetWordBeforeCursorUntilSeparator(p.completion.wordSeparator); w != "" {
		p.buf.DeleteBeforeCursor(len([]rune(w)))
	}
	p.buf.InsertText(text, false, true)
}

// commonPrefix is the longest text all suggestions begin with.
func commonPrefix(s []Suggest) string {
	prefix := s[0].Text
	for _, x := range s[1:] {
		n := 0
		for n < len(prefix) && n < len(x.Text) && prefix[n] == x.Text[n] {
			n++
		}
		prefix = prefix[:n]
	}
	for !utf8.ValidString(prefix) {
		prefix = prefix[:len(prefix)-1]
	}
	return prefix
}

// extends reports whether prefix is word (in any case) and more.
func extends(prefix, word string) bool {
	p, w := []rune(prefix), []rune(word)
	return len(p) > len(w) && strings.EqualFold(string(p[:len(w)]), word)
}

// spaceAfter puts a space after a completion inserted at once, as
// readline does, when OptionCompletionSpace says so for the line it ends
// and no space follows already.
func (p *Prompt) spaceAfter() {
	if p.completionSpace == nil || !p.completionSpace(p.buf.Document().TextBeforeCursor()) {
		return
	}
	if after := p.buf.Document().TextAfterCursor(); strings.HasPrefix(after, " ") {
		p.buf.CursorRight(1)
		return
	}
	p.buf.InsertText(" ", false, true)
}
