package iostreams

import (
	"io"
	"time"

	"github.com/schollz/progressbar/v3"
)

// Progress is a progress bar on standard error. It is drawn only when
// standard error is a terminal; otherwise (and on a nil *Progress) every
// method does nothing, so commands call it unconditionally.
type Progress struct {
	bar *progressbar.ProgressBar
}

// StartProgress starts a bar described by desc that counts items ("entities")
// towards total (-1 when unknown).
func (s *IOStreams) StartProgress(desc string, total int64, items string) *Progress {
	if !s.ErrTTY {
		return nil
	}
	return &Progress{bar: progressbar.NewOptions64(total,
		progressbar.OptionSetWriter(s.ErrOut),
		progressbar.OptionSetDescription(desc),
		progressbar.OptionShowCount(),
		progressbar.OptionSetItsString(items),
		progressbar.OptionShowIts(),
		progressbar.OptionThrottle(100*time.Millisecond),
		progressbar.OptionClearOnFinish(),
	)}
}

// StartByteProgress starts a bar that counts the bytes read through the
// returned reader towards total (-1 when unknown).
func (s *IOStreams) StartByteProgress(desc string, total int64, r io.Reader) (*Progress, io.Reader) {
	if !s.ErrTTY {
		return nil, r
	}
	bar := progressbar.NewOptions64(total,
		progressbar.OptionSetWriter(s.ErrOut),
		progressbar.OptionSetDescription(desc),
		progressbar.OptionShowBytes(true),
		progressbar.OptionThrottle(100*time.Millisecond),
		progressbar.OptionClearOnFinish(),
		progressbar.OptionSetRenderBlankState(true),
	)
	pr := progressbar.NewReader(r, bar)
	return &Progress{bar: bar}, &pr
}

// Add counts n more items.
func (p *Progress) Add(n int64) {
	if p != nil {
		p.bar.Add64(n)
	}
}

// SetOf sets the count to n of total (a total learnt on the way).
func (p *Progress) SetOf(n, total int64) {
	if p != nil {
		if p.bar.GetMax64() != total {
			p.bar.ChangeMax64(total)
		}
		p.bar.Set64(n)
	}
}

// Set sets the count to n.
func (p *Progress) Set(n int64) {
	if p != nil {
		p.bar.Set64(n)
	}
}

// Clear takes the bar off the screen for a moment (a message is about to
// be written); it is drawn again at the next change.
func (p *Progress) Clear() {
	if p != nil {
		p.bar.Clear()
	}
}

// Finish clears the bar.
func (p *Progress) Finish() {
	if p != nil {
		p.bar.Finish()
	}
}
