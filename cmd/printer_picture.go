package cmd

import (
	"os"
	"runtime"
	"strings"

	"github.com/tstable/tstable/keyspace"
)

// Picture writes a drawing for people (a key space, a chart) as it is,
// unwrapped, after a blank line; in the other formats it writes nothing.
func (p *Printer) Picture(text string) error {
	if !p.format.forPeople() || text == "" {
		return nil
	}
	p.out.WriteString("\n" + text)
	return p.out.Flush()
}

// DrawsByDefault reports whether a picture is drawn without --draw: the
// output is for people on a terminal at least keyspace.MinWidth wide (a
// terminal itself, not a buffer standing for one, as a lesson's replay).
func (p *Printer) DrawsByDefault() bool {
	return p.format.forPeople() && p.onTerminal() && p.io.TermWidth() >= keyspace.MinWidth
}

// onTerminal reports whether standard output is a terminal's file (or a
// writer to one, such as a pager's).
func (p *Printer) onTerminal() bool {
	return p.io.OnTerminal()
}

// ForPeopleNow is the printer in the table format, for a result that is
// drawn when no -o chose the format (--draw on a pipe).
func (p *Printer) ForPeopleNow() *Printer {
	if p.format.forPeople() {
		return p
	}
	return &Printer{format: tableFormat{}, io: p.io, out: p.out, expand: p.expand}
}

// DrawStyle is how the output takes a picture: the terminal's width (80
// off a terminal), colours on a colour terminal unless NO_COLOR is set
// (https://no-color.org), and ASCII unless the locale says UTF-8.
func (p *Printer) DrawStyle() keyspace.Style {
	w := p.io.TermWidth()
	if w <= 0 {
		w = defaultProseWidth
	}
	return keyspace.Style{Width: w, Color: p.onTerminal() && colourTerminal(), ASCII: !utf8Locale()}
}

// colourTerminal reports whether the environment allows colours: NO_COLOR
// unset and a TERM other than dumb (any console on Windows).
func colourTerminal() bool {
	if _, set := os.LookupEnv("NO_COLOR"); set {
		return false
	}
	if runtime.GOOS == "windows" {
		return true
	}
	t := os.Getenv("TERM")
	return t != "" && t != "dumb"
}

// utf8Locale reports whether the locale's character set is UTF-8: the
// first of LC_ALL, LC_CTYPE and LANG that is set says so. Without any, it
// is the C locale, ASCII (but Windows' consoles take UTF-8).
func utf8Locale() bool {
	for _, name := range []string{"LC_ALL", "LC_CTYPE", "LANG"} {
		if v := os.Getenv(name); v != "" {
			v = strings.ToLower(v)
			return strings.Contains(v, "utf-8") || strings.Contains(v, "utf8")
		}
	}
	return runtime.GOOS == "windows"
}
