package cmd

import (
	"io"

	"github.com/tstable/tstable/iostreams"
)

// Bar is a progress bar on standard error, drawn only when it is a
// terminal (every method of a bar not drawn does nothing).
type Bar struct {
	p   *Printer
	bar *iostreams.Progress
}

// Progress starts a bar described by desc counting items ("entities")
// towards total (-1 when unknown).
func (p *Printer) Progress(desc string, total int64, items string) *Bar {
	b := &Bar{p: p, bar: p.io.StartProgress(desc, total, items)}
	p.showing(b)
	return b
}

// showing records the bar on the screen (nil: none).
func (p *Printer) showing(b *Bar) {
	p.mu.Lock()
	defer p.mu.Unlock()
	p.bar = b
}

// ByteProgress starts a bar counting the bytes read through the returned
// reader towards total (-1 when unknown).
func (p *Printer) ByteProgress(desc string, total int64, r io.Reader) (*Bar, io.Reader) {
	bar, r := p.io.StartByteProgress(desc, total, r)
	b := &Bar{p: p, bar: bar}
	p.showing(b)
	return b, r
}

// Set sets the count to n.
func (b *Bar) Set(n int64) { b.bar.Set(n) }

// SetOf sets the count to n of total (a total learnt on the way).
func (b *Bar) SetOf(n, total int64) { b.bar.SetOf(n, total) }

// Finish takes the bar off the screen for good.
func (b *Bar) Finish() {
	b.bar.Finish()
	b.p.showing(nil)
}

func (b *Bar) clear() {
	if b != nil {
		b.bar.Clear()
	}
}
