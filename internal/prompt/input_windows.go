//go:build windows

package prompt

import (
	"github.com/erikgeiser/coninput"
	"golang.org/x/sys/windows"
)

// WindowsParser is a ConsoleParser for the Windows console. While a line
// is read the console is in raw mode: no echo, no line editing of its
// own, and Ctrl-C a key (0x03) rather than an interrupt; with
// ENABLE_VIRTUAL_TERMINAL_INPUT, where the console has it, keys without
// a character arrive as VT sequences, as on a Unix terminal. Key events
// are read only when the console has some (GetNumberOfConsoleInputEvents),
// so Read never waits, and decoded by keyDecoder.
type WindowsParser struct {
	in    windows.Handle
	saved uint32
	keys  keyDecoder
}

// maxEvents bounds the console events one Read takes.
const maxEvents = 256

// rawOff are the console input modes a line's reading turns off.
const rawOff = windows.ENABLE_ECHO_INPUT | windows.ENABLE_LINE_INPUT | windows.ENABLE_PROCESSED_INPUT |
	windows.ENABLE_MOUSE_INPUT | windows.ENABLE_WINDOW_INPUT

// Setup opens the console's input (CONIN$, whatever standard input is)
// and puts it in raw mode.
func (p *WindowsParser) Setup() error {
	name, err := windows.UTF16PtrFromString("CONIN$")
	if err != nil {
		return err
	}
	h, err := windows.CreateFile(name, windows.GENERIC_READ|windows.GENERIC_WRITE,
		windows.FILE_SHARE_READ|windows.FILE_SHARE_WRITE, nil, windows.OPEN_EXISTING, 0, 0)
	if err != nil {
		return err
	}
	if err := windows.GetConsoleMode(h, &p.saved); err != nil {
		windows.CloseHandle(h)
		return err
	}
	raw := p.saved &^ rawOff
	if windows.SetConsoleMode(h, raw|windows.ENABLE_VIRTUAL_TERMINAL_INPUT) != nil {
		if err := windows.SetConsoleMode(h, raw); err != nil {
			windows.CloseHandle(h)
			return err
		}
	}
	p.in, p.keys = h, keyDecoder{}
	return nil
}

// TearDown puts the console's input back as Setup found it.
func (p *WindowsParser) TearDown() error {
	if p.in == 0 {
		return nil
	}
	err := windows.SetConsoleMode(p.in, p.saved)
	windows.CloseHandle(p.in)
	p.in = 0
	return err
}

// Read returns the bytes of the key events the console holds, nothing
// when it holds none.
func (p *WindowsParser) Read() ([]byte, error) {
	n, err := coninput.GetNumberOfConsoleInputEvents(p.in)
	if err != nil || n == 0 {
		return nil, err
	}
	recs, err := coninput.ReadNConsoleInputs(p.in, min(n, maxEvents))
	if err != nil {
		return nil, err
	}
	keys := make([]consoleKey, 0, len(recs))
	for _, r := range recs {
		if k, ok := r.Unwrap().(coninput.KeyEventRecord); ok {
			keys = append(keys, consoleKey{down: k.KeyDown, repeat: k.RepeatCount, vk: uint16(k.VirtualKeyCode), char: uint16(k.Char), state: uint32(k.ControlKeyState)})
		}
	}
	return p.keys.decode(keys), nil
}

// GetWinSize returns the size of the console's window (80×25 when there
// is no console to ask).
func (p *WindowsParser) GetWinSize() *WinSize {
	var info windows.ConsoleScreenBufferInfo
	out, err := windows.GetStdHandle(windows.STD_OUTPUT_HANDLE)
	if err != nil || windows.GetConsoleScreenBufferInfo(out, &info) != nil {
		return &WinSize{Row: 25, Col: 80}
	}
	w := info.Window
	return &WinSize{Row: uint16(w.Bottom - w.Top + 1), Col: uint16(w.Right - w.Left + 1)}
}

var _ ConsoleParser = &WindowsParser{}

// NewStandardInputParser returns ConsoleParser object to read from stdin.
func NewStandardInputParser() *WindowsParser {
	return &WindowsParser{}
}
