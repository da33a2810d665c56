package prompt

import "unicode/utf8"

// consoleKey is one key event of the Windows console as ReadConsoleInput
// reports it. It is declared on every system so that the decoding below
// is tested everywhere; only input_windows.go reads such events.
type consoleKey struct {
	down   bool
	repeat uint16
	vk     uint16 // virtual-key code
	char   uint16 // UTF-16 code unit, 0 for keys without a character
	state  uint32 // control-key state
}

// Control-key states (KEY_EVENT_RECORD.dwControlKeyState).
const (
	rightAltPressed  = 0x1
	leftAltPressed   = 0x2
	rightCtrlPressed = 0x4
	leftCtrlPressed  = 0x8
	shiftPressed     = 0x10
)

// vkSequences are the VT sequences of the keys that carry no character,
// for a console that does not translate them itself (one without
// ENABLE_VIRTUAL_TERMINAL_INPUT): as xterm sends them.
var vkSequences = map[uint16]string{
	0x21: "\x1b[5~", // Page Up
	0x22: "\x1b[6~", // Page Down
	0x23: "\x1b[F",  // End
	0x24: "\x1b[H",  // Home
	0x25: "\x1b[D",  // Left
	0x26: "\x1b[A",  // Up
	0x27: "\x1b[C",  // Right
	0x28: "\x1b[B",  // Down
	0x2d: "\x1b[2~", // Insert
	0x2e: "\x1b[3~", // Delete
}

// vkCtrlSequences are those keys with Ctrl held.
var vkCtrlSequences = map[uint16]string{
	0x25: "\x1b[1;5D",
	0x26: "\x1b[1;5A",
	0x27: "\x1b[1;5C",
	0x28: "\x1b[1;5B",
	0x2e: "\x1b[3;5~",
}

// maxRepeat bounds the characters one held-down key event yields.
const maxRepeat = 64

// keyDecoder turns console key events into the bytes a terminal sends:
// text as UTF-8 (a character beyond the Basic Multilingual Plane arrives
// as two events, a UTF-16 surrogate pair), Alt with a character as ESC
// and the character, Shift-Tab and the keys without a character as VT
// sequences. Key releases and other keys yield nothing.
type keyDecoder struct {
	high uint16 // the first half of a surrogate pair, waiting for its second
}

// decode returns the bytes of keys, in order.
func (d *keyDecoder) decode(keys []consoleKey) []byte {
	var out []byte
	for _, k := range keys {
		if !k.down {
			continue
		}
		n := int(min(max(k.repeat, 1), maxRepeat))
		for range n {
			out = d.one(out, k)
		}
	}
	return out
}

// one appends the bytes of one key press.
func (d *keyDecoder) one(out []byte, k consoleKey) []byte {
	ctrl := k.state&(leftCtrlPressed|rightCtrlPressed) != 0
	alt := k.state&(leftAltPressed|rightAltPressed) != 0 && !ctrl // AltGr is Ctrl+Alt
	switch c := k.char; {
	case c == 0:
		d.high = 0
		if s, ok := vkCtrlSequences[k.vk]; ok && ctrl {
			return append(out, s...)
		}
		return append(out, vkSequences[k.vk]...)
	case c >= 0xd800 && c < 0xdc00:
		d.high = c
		return out
	case c >= 0xdc00 && c < 0xe000:
		if d.high == 0 {
			return out // half a pair: not a character
		}
		r := 0x10000 + (rune(d.high)-0xd800)<<10 + rune(c) - 0xdc00
		d.high = 0
		return utf8.AppendRune(out, r)
	case c == '\t' && k.state&shiftPressed != 0:
		d.high = 0
		return append(out, "\x1b[Z"...)
	default:
		d.high = 0
		if alt {
			out = append(out, 0x1b)
		}
		return utf8.AppendRune(out, rune(c))
	}
}
