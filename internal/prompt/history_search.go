package prompt

import "strings"

// historySearch is a reverse incremental search of the history, as
// readline's Ctrl-R: typing narrows the search, Ctrl-R again finds the
// next older match, Enter accepts the match (and runs it), Ctrl-G or
// Escape puts back the line as it was, and any other key accepts the
// match and then acts on it.
type historySearch struct {
	saved  *Buffer // the line before the search
	query  string
	index  int // the history entry shown; len(histories) for none
	failed bool
}

// startSearch begins a search with an empty query.
func (p *Prompt) startSearch() {
	p.search = &historySearch{saved: p.buf, index: len(p.history.histories)}
	p.completion.hide()
	p.renderer.searchPrompt = p.search.prompt()
}

// endSearch ends the search, leaving the line as it is.
func (p *Prompt) endSearch() {
	p.lastSearch = p.search.query
	p.search = nil
	p.renderer.searchPrompt = ""
}

// feedSearch handles a key during a search, and reports whether it did;
// any key it does not handle ends the search first.
func (p *Prompt) feedSearch(key Key, b []byte) bool {
	s := p.search
	switch key {
	case ControlR:
		if s.query == "" {
			s.query = p.lastSearch
			p.searchFrom(s.index-1, false)
		} else {
			p.searchFrom(s.index-1, true)
		}
	case ControlG, Escape:
		p.buf = s.saved
		p.endSearch()
		return true
	case Backspace, ControlH:
		if s.query == "" {
			break
		}
		q := []rune(s.query)
		s.query = string(q[:len(q)-1])
		p.searchFrom(len(p.history.histories)-1, false)
	case NotDefined:
		text, ok := keyText(b)
		if !ok {
			p.endSearch()
			return false
		}
		s.query += text
		p.searchFrom(s.index, false)
	default:
		p.endSearch()
		return false
	}
	p.renderer.searchPrompt = s.prompt()
	return true
}

// searchFrom shows the newest history entry at or before index that holds
// the query (skipping entries equal to the line shown when skipSame), with
// the cursor at the match. Without a match the line stays and the search
// is marked failed; an empty query shows the line as it was.
func (p *Prompt) searchFrom(index int, skipSame bool) {
	s := p.search
	h := p.history.histories
	if s.query == "" {
		s.index, s.failed = len(h), false
		p.buf = s.saved
		return
	}
	if index >= len(h) {
		index = len(h) - 1
	}
	shown := p.buf.Text()
	for i := index; i >= 0; i-- {
		at := strings.Index(h[i], s.query)
		if at < 0 || (skipSame && h[i] == shown) {
			continue
		}
		s.index, s.failed = i, false
		p.buf = NewBuffer()
		p.buf.InsertText(h[i], false, true)
		p.buf.CursorLeft(len([]rune(h[i][at:])))
		return
	}
	s.failed = true
}

// prompt is what is shown before the line during the search.
func (s *historySearch) prompt() string {
	if s.failed {
		return "(failed reverse-i-search)`" + s.query + "': "
	}
	return "(reverse-i-search)`" + s.query + "': "
}
