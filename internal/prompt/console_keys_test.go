package prompt

import (
	"testing"
	"unicode/utf8"
)

func press(char uint16) consoleKey { return consoleKey{down: true, repeat: 1, char: char} }

func TestConsoleKeysDecode(t *testing.T) {
	emoji := []uint16{0xd83d, 0xde00} // U+1F600
	for _, c := range []struct {
		name string
		keys []consoleKey
		want string
	}{
		{"text", []consoleKey{press('l'), {char: 'l'}, press('s')}, "ls"},
		{"Enter, Ctrl-C, Ctrl-D, Backspace", []consoleKey{press('\r'), press(3), press(4), press(8)}, "\r\x03\x04\x08"},
		{"VT input: the console sends the arrow as characters", []consoleKey{press(0x1b), press('['), press('A')}, "\x1b[A"},
		{"no VT input: the arrow by its key code", []consoleKey{{down: true, repeat: 1, vk: 0x26}}, "\x1b[A"},
		{"Ctrl-Left", []consoleKey{{down: true, vk: 0x25, state: leftCtrlPressed}}, "\x1b[1;5D"},
		{"Shift-Tab", []consoleKey{{down: true, char: '\t', state: shiftPressed}}, "\x1b[Z"},
		{"Alt-b", []consoleKey{{down: true, char: 'b', state: leftAltPressed}}, "\x1bb"},
		{"AltGr-@ is a character", []consoleKey{{down: true, char: '@', state: rightAltPressed | leftCtrlPressed}}, "@"},
		{"a surrogate pair", []consoleKey{press(emoji[0]), press(emoji[1])}, "😀"},
		{"a lone half is dropped", []consoleKey{press(emoji[1]), press('x')}, "x"},
		{"a key held down", []consoleKey{{down: true, repeat: 3, char: 'z'}}, "zzz"},
		{"Shift alone, key releases", []consoleKey{{down: true, vk: 0x10}, {char: 'a'}}, ""},
	} {
		var d keyDecoder
		if got := string(d.decode(c.keys)); got != c.want {
			t.Errorf("%s: got %q, want %q", c.name, got, c.want)
		}
	}
}

// Whatever the console reports, the bytes are UTF-8 and go through
// ScanKeys as whole key events.
func FuzzConsoleKeys(f *testing.F) {
	f.Add([]byte{1, 0x3d, 0xd8, 0, 0, 1, 0x00, 0xde, 0, 0, 1, 0, 0, 0x26, 0})
	f.Fuzz(func(t *testing.T, raw []byte) {
		var keys []consoleKey
		for ; len(raw) >= 5; raw = raw[5:] {
			keys = append(keys, consoleKey{
				down:   raw[0]&1 == 1,
				repeat: uint16(raw[0] >> 1),
				char:   uint16(raw[1]) | uint16(raw[2])<<8,
				vk:     uint16(raw[3]),
				state:  uint32(raw[4]),
			})
		}
		var d keyDecoder
		out := d.decode(keys)
		if !utf8.Valid(out) {
			t.Fatalf("not UTF-8: %q", out)
		}
		for rest := out; len(rest) > 0; {
			n, _, err := ScanKeys(rest, true)
			if err != nil || n == 0 {
				t.Fatalf("ScanKeys(%q) = %d, %v", rest, n, err)
			}
			rest = rest[n:]
		}
	})
}
