package server

import (
	"bytes"
	"mime"
	"strings"
)

// A batch's body is cut into its changeset's operations in one pass over
// its bytes, without copying them: the shape every SDK sends (one
// changeset of application/http parts; CRLF or bare LF lines; headers in
// any case, Content-Transfer-Encoding binary or none) is cut exactly
// where mime/multipart and net/textproto cut it. Whatever the one pass is
// not sure to read as they do (a malformed body, a folded header line, a
// header name with a space, a quoted-printable part, a query outside a
// changeset, anything after the batch's closing delimiter but line
// breaks, a line mime/multipart's buffer could not hold) it leaves to
// the general reading (readChangeset, over mime/multipart), which then
// reads, accepts or refuses the body as it always has: the one pass
// never refuses anything itself. FuzzSplitChangeset holds the two to the
// same parts on the same bodies.

// changesetPart is one operation of a changeset as cut: the bytes of its
// application/http request and its Content-ID.
type changesetPart struct {
	raw       []byte
	contentID string
}

// Limits past which the one pass leaves a body to the general reading:
// mime/multipart reads the lines between parts into a buffer of 4 KiB
// (peekBufferSize) and fails on a longer one, and net/textproto bounds a
// part's header; these keep the one pass well inside both.
const (
	maxCutBoundary    = 200
	maxCutLine        = 4000
	maxCutHeaderLines = 64
)

// splitChangeset cuts body, a batch whose boundary is boundary, into the
// parts of its one changeset, appended to parts. ok is false when the one
// pass leaves the body to the general reading.
func splitChangeset(body []byte, boundary string, parts []changesetPart) (_ []changesetPart, ok bool) {
	outer, ok := newMimeCut(body, boundary)
	if !ok {
		return nil, false
	}
	h, next := outer.nextPart()
	if next != partFound || h.quotedPrintable() {
		return nil, false
	}
	mt, params, err := mime.ParseMediaType(string(h.contentType))
	if err != nil || mt != "multipart/mixed" {
		return nil, false
	}
	changeset, ok := outer.body()
	if !ok {
		return nil, false
	}
	if _, next := outer.nextPart(); next != partsEnd {
		return nil, false
	}
	inner, ok := newMimeCut(changeset, params["boundary"])
	if !ok {
		return nil, false
	}
	for {
		h, next := inner.nextPart()
		if next == partsEnd {
			break
		}
		if next != partFound || h.quotedPrintable() {
			return nil, false
		}
		raw, ok := inner.body()
		if !ok {
			return nil, false
		}
		parts = append(parts, changesetPart{raw: raw, contentID: string(h.contentID)})
	}
	return parts, len(parts) > 0
}

// mimeCut reads one multipart body held whole, as mime/multipart's
// Reader reads it.
type mimeCut struct {
	data  []byte
	pos   int
	delim []byte // "\r\n--" + boundary: dash and nlDash are its tails
	lf    bool   // lines end with a bare LF (the first delimiter line did)
	parts int    // parts begun
}

// newMimeCut reads data, whose boundary is boundary: one a header can
// carry (no line break in it), and not a long one.
func newMimeCut(data []byte, boundary string) (*mimeCut, bool) {
	if boundary == "" || len(boundary) > maxCutBoundary || strings.ContainsAny(boundary, "\r\n") {
		return nil, false
	}
	return &mimeCut{data: data, delim: append([]byte("\r\n--"), boundary...)}, true
}

// dash is "--boundary"; nl the line break of the body's mode; nlDash the
// line break and dash, which ends a part's body.
func (m *mimeCut) dash() []byte { return m.delim[2:] }

func (m *mimeCut) nl() string {
	if m.lf {
		return "\n"
	}
	return "\r\n"
}

func (m *mimeCut) nlDash() []byte {
	if m.lf {
		return m.delim[1:]
	}
	return m.delim
}

// next is what nextPart found.
type next int

const (
	partFound next = iota // a part, its header read
	partsEnd              // the closing delimiter
	unsure                // anything else: left to the general reading
)

// line is the next line, its line break included; complete is false for
// the body's last bytes when no LF ends them.
func (m *mimeCut) line() (line []byte, complete bool) {
	rest := m.data[m.pos:]
	i := bytes.IndexByte(rest, '\n')
	if i < 0 {
		m.pos = len(m.data)
		return rest, false
	}
	m.pos += i + 1
	return rest[:i+1], true
}

// nextPart goes on to the next part, as Reader.NextPart does: past the
// line break that ends the last part's body (or, before the first part,
// past any preamble) to a delimiter line, then reads the part's header.
func (m *mimeCut) nextPart() (partHeader, next) {
	expectNew := false
	for {
		line, complete := m.line()
		switch {
		case len(line) >= maxCutLine:
			return partHeader{}, unsure
		case !complete:
			if m.isFinal(line) {
				return partHeader{}, partsEnd
			}
			return partHeader{}, unsure
		case m.isDelimiter(line):
			m.parts++
			return m.header()
		case m.isFinal(line):
			return partHeader{}, partsEnd
		case expectNew:
			return partHeader{}, unsure
		case m.parts == 0:
			// preamble
		case string(line) == m.nl():
			expectNew = true
		default:
			return partHeader{}, unsure
		}
	}
}

// isDelimiter reports whether line is "--boundary", optional spaces and
// tabs, and the line break. The first delimiter line ending in a bare LF
// puts the body in that mode, as mime/multipart does.
func (m *mimeCut) isDelimiter(line []byte) bool {
	rest, ok := bytes.CutPrefix(line, m.dash())
	if !ok {
		return false
	}
	rest = skipBlanks(rest)
	if m.parts == 0 && string(rest) == "\n" {
		m.lf = true
	}
	return string(rest) == m.nl()
}

// isFinal reports whether line is "--boundary--", optional spaces and
// tabs, and a line break or nothing.
func (m *mimeCut) isFinal(line []byte) bool {
	rest, ok := bytes.CutPrefix(line, m.dash())
	if !ok {
		return false
	}
	if rest, ok = bytes.CutPrefix(rest, []byte("--")); !ok {
		return false
	}
	rest = skipBlanks(rest)
	return len(rest) == 0 || string(rest) == m.nl()
}

// body is the part's body, as Part.Read gives it: up to the line break
// before the next delimiter (or, at its very start, up to a delimiter),
// a delimiter being followed by a space, tab, CR, LF, "--" or the end of
// the data. ok is false when no delimiter ends it. It looks for "--" and
// the boundary first, then for the line break before it: a line break
// starts every line, a dash few of them.
func (m *mimeCut) body() (_ []byte, ok bool) {
	rest := m.data[m.pos:]
	dash := m.dash()
	if bytes.HasPrefix(rest, dash) && endsPart(rest, len(dash)) {
		return rest[:0], true
	}
	nl := len(m.nlDash()) - len(dash)
	for from := nl; ; {
		i := bytes.Index(rest[min(from, len(rest)):], dash)
		if i < 0 {
			return nil, false
		}
		i += from
		if i >= nl && string(rest[i-nl:i]) == m.nl() && endsPart(rest[i:], len(dash)) {
			m.pos += i - nl
			return rest[:i-nl], true
		}
		from = i + 1
	}
}

// endsPart reports whether the delimiter of n bytes at the start of b
// ends a part (mime/multipart's matchAfterPrefix, all of the data at
// hand).
func endsPart(b []byte, n int) bool {
	if len(b) == n {
		return true
	}
	switch b[n] {
	case ' ', '\t', '\r', '\n':
		return true
	case '-':
		return len(b) > n+1 && b[n+1] == '-'
	}
	return false
}

func skipBlanks(b []byte) []byte {
	for len(b) > 0 && (b[0] == ' ' || b[0] == '\t') {
		b = b[1:]
	}
	return b
}

// partHeader is what a part's header says that its reading depends on:
// the first value of each of these names (as Header.Get gives it).
type partHeader struct {
	contentType, contentID, encoding []byte
	seen                             [3]bool
}

// quotedPrintable reports whether mime/multipart would decode the part's
// body from quoted-printable.
func (h *partHeader) quotedPrintable() bool {
	return bytes.EqualFold(h.encoding, []byte("quoted-printable"))
}

// set keeps value when name is one of the header's and is its first.
// Names are tokens (header checks), so that names equal but for case are
// one name, as net/textproto's canonical keys make them.
func (h *partHeader) set(name, value []byte) {
	for i, f := range [...]struct {
		name string
		dst  *[]byte
	}{{"Content-Type", &h.contentType}, {"Content-Id", &h.contentID}, {"Content-Transfer-Encoding", &h.encoding}} {
		if !h.seen[i] && bytes.EqualFold(name, []byte(f.name)) {
			h.seen[i], *f.dst = true, value
			return
		}
	}
}

// header reads a part's header as net/textproto's ReadMIMEHeader does, up
// to the blank line after it; it is unsure of a line that reading would
// fold into the one before (or refuse, first), of a name that is not a
// token (with a space, net/textproto keeps it as written; with anything
// else, it refuses it), of a value with a byte it refuses, and of a line
// no LF ends.
func (m *mimeCut) header() (h partHeader, _ next) {
	for n := 0; n <= maxCutHeaderLines; n++ {
		line, complete := m.line()
		if !complete {
			return h, unsure
		}
		line = bytes.TrimSuffix(line[:len(line)-1], []byte("\r"))
		if len(line) == 0 {
			return h, partFound
		}
		if line[0] == ' ' || line[0] == '\t' {
			return h, unsure
		}
		name, value, ok := bytes.Cut(line, []byte(":"))
		if !ok || !isToken(name) {
			return h, unsure
		}
		for _, c := range value {
			if !headerValueByte(c) {
				return h, unsure
			}
		}
		h.set(name, bytes.Trim(value, " \t"))
	}
	return h, unsure
}

// isToken reports whether b is an HTTP token (RFC 9110's tchar, one or
// more), as a header name must be.
func isToken(b []byte) bool {
	for _, c := range b {
		if c >= 0x80 || !tokenBytes[c] {
			return false
		}
	}
	return len(b) > 0
}

// headerValueByte reports whether c may appear in a header value: a
// visible character, a space, a tab or any byte from 0x80.
func headerValueByte(c byte) bool {
	return c >= 0x20 && c != 0x7f || c == '\t'
}

var tokenBytes = func() (t [128]bool) {
	for c := '0'; c <= '9'; c++ {
		t[c] = true
	}
	for c := 'a'; c <= 'z'; c++ {
		t[c], t[c-'a'+'A'] = true, true
	}
	for _, c := range "!#$%&'*+-.^_`|~" {
		t[c] = true
	}
	return t
}()
