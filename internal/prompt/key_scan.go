package prompt

import (
	"strings"
	"unicode/utf8"
)

// ScanKeys is a bufio.SplitFunc that splits what a terminal sends into key
// events, however many of them arrived in one read:
//
//   - a run of printable text (UTF-8; it ends before the next control
//     character or ESC, so a pasted line is one event and its line end
//     another);
//   - one control character (Enter, Tab, Ctrl-U, Backspace, …);
//   - one escape sequence: CSI (ESC [, parameter bytes 0x30–0x3F,
//     intermediate bytes 0x20–0x2F and a final byte 0x40–0x7E: arrows,
//     Home, Delete, F5, the bracketed-paste markers ESC[200~ and ESC[201~,
//     …), SS3 (ESC O and a final byte: F1–F4, application-mode arrows),
//     the Linux console's F1–F5 (ESC [ [ A–E), or ESC and one more
//     character below 0x80 (Alt-x, Alt-Backspace);
//   - a lone ESC (the Escape key), when nothing that could continue it
//     follows.
//
// When atEOF is false and data ends with what may be the start of a longer
// event (a lone ESC, an unfinished sequence, part of a UTF-8 character),
// ScanKeys asks for more data; when atEOF is true it returns what is there
// as one event. An unfinished or malformed sequence is still an event of
// its own that starts with ESC, never text. The events, in order, always
// make up the input exactly.
func ScanKeys(data []byte, atEOF bool) (advance int, token []byte, err error) {
	n := keyLength(data, atEOF)
	if n == 0 {
		return 0, nil, nil
	}
	return n, data[:n], nil
}

// keyLength is the length of the event at the start of data, or 0 when
// more data is needed to tell (never 0 for non-empty data when final).
func keyLength(data []byte, final bool) int {
	if len(data) == 0 {
		return 0
	}
	switch b := data[0]; {
	case b == 0x1b:
		return escapeLength(data, final)
	case isControl(b):
		return 1
	default:
		return textLength(data, final)
	}
}

// isControl reports whether b is a C0 control character or DEL.
func isControl(b byte) bool {
	return b < 0x20 || b == 0x7f
}

// textLength is the length of the run of printable text at the start of
// data. A UTF-8 character cut off at the end of data waits for the rest,
// unless final.
func textLength(data []byte, final bool) int {
	i := 0
	for i < len(data) {
		b := data[i]
		if b == 0x1b || isControl(b) {
			break
		}
		if b < utf8.RuneSelf {
			i++
			continue
		}
		if !final && !utf8.FullRune(data[i:]) {
			break
		}
		_, size := utf8.DecodeRune(data[i:])
		i += size
	}
	return i
}

// escapeLength is the length of the escape sequence at the start of data,
// which begins with ESC.
func escapeLength(data []byte, final bool) int {
	if len(data) == 1 {
		if final {
			return 1
		}
		return 0
	}
	switch c := data[1]; {
	case c == '[':
		if len(data) > 2 && data[2] == '[' { // Linux console F1–F5: ESC [ [ A
			return linuxFunctionKeyLength(data, final)
		}
		return sequenceLength(data, true, final)
	case c == 'O':
		return sequenceLength(data, false, final)
	case c >= 0x20 && c <= 0x7f:
		return 2 // Alt and a key
	default:
		return 1 // ESC, then a key of its own (ESC, a control character)
	}
}

// sequenceLength is the length of a CSI (ESC [) or SS3 (ESC O) sequence:
// parameter bytes, for CSI intermediate bytes, and a final byte. A byte
// that cannot belong to the sequence ends it early.
func sequenceLength(data []byte, csi, final bool) int {
	i := 2
	for i < len(data) && data[i] >= 0x30 && data[i] <= 0x3f {
		i++
	}
	for csi && i < len(data) && data[i] >= 0x20 && data[i] <= 0x2f {
		i++
	}
	if i == len(data) {
		if final {
			return i
		}
		return 0
	}
	if data[i] >= 0x40 && data[i] <= 0x7e {
		return i + 1
	}
	return i
}

// linuxFunctionKeyLength is the length of ESC [ [ and a final byte; a
// byte that cannot be one ends the sequence before it.
func linuxFunctionKeyLength(data []byte, final bool) int {
	switch {
	case len(data) == 3 && final:
		return 3
	case len(data) == 3:
		return 0
	case data[3] >= 0x40 && data[3] <= 0x7e:
		return 4
	default:
		return 3
	}
}

// keyText returns the text of a text event, without any bytes that are not
// UTF-8; ok is false for a control character or an escape sequence.
func keyText(b []byte) (text string, ok bool) {
	if len(b) == 0 || b[0] == 0x1b || isControl(b[0]) {
		return "", false
	}
	text = strings.ToValidUTF8(string(b), "")
	return text, text != ""
}
