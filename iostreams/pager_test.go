package iostreams

import (
	"bytes"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

// pagedTo returns a Pager writing to a file in place of the terminal
// (24 rows by 80: the size of a terminal that cannot be asked), running
// command as its pager, and the file's path.
func pagedTo(t *testing.T, command string, onQuit func()) (*Pager, *IOStreams, string) {
	t.Helper()
	path := filepath.Join(t.TempDir(), "term")
	f, err := os.Create(path)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { f.Close() })
	p := NewPager(f, command, onQuit)
	s := p.Streams(&IOStreams{Out: f, ErrOut: f, OutTTY: true, ErrTTY: true})
	return p, s, path
}

func lines(n int, word string) string {
	var b strings.Builder
	for i := 1; i <= n; i++ {
		fmt.Fprintf(&b, "%s %d\n", word, i)
	}
	return b.String()
}

func read(t *testing.T, path string) string {
	t.Helper()
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}

// Output that fits the screen is written as it is, when the command ends;
// the pager does not run.
func TestPagerShortOutput(t *testing.T) {
	p, s, path := pagedTo(t, "false", nil)
	fmt.Fprint(s.Out, lines(5, "row"))
	fmt.Fprint(s.ErrOut, "note\n")
	if ran := p.Close(); ran {
		t.Error("the pager ran for 6 lines")
	}
	if got := read(t, path); got != lines(5, "row")+"note\n" {
		t.Errorf("written: %q", got)
	}
}

// Output longer than the screen goes to the pager, all of it in order;
// standard error written meanwhile comes after the pager ends.
func TestPagerLongOutput(t *testing.T) {
	p, s, path := pagedTo(t, "cat", nil)
	fmt.Fprint(s.Out, lines(10, "row"))
	fmt.Fprint(s.ErrOut, "in order\n")
	fmt.Fprint(s.Out, lines(30, "more"))
	fmt.Fprint(s.ErrOut, "continuation: TOKEN\n")
	if ran := p.Close(); !ran {
		t.Fatal("the pager did not run for 41 lines")
	}
	want := lines(10, "row") + "in order\n" + lines(30, "more") + "continuation: TOKEN\n"
	if got := read(t, path); got != want {
		t.Errorf("written:\n%s\nwant:\n%s", got, want)
	}
}

// Long lines count the rows they wrap to.
func TestPagerCountsWrappedRows(t *testing.T) {
	p, s, _ := pagedTo(t, "cat", nil)
	fmt.Fprint(s.Out, strings.Repeat(strings.Repeat("x", 200)+"\n", 8)) // 24 rows
	if ran := p.Close(); !ran {
		t.Error("8 lines of 200 columns on an 80-column screen did not page")
	}
}

// A command that reads the terminal gets what was held written first, and
// no pager.
func TestPagerBeforeTerminalRead(t *testing.T) {
	p, s, path := pagedTo(t, "cat", nil)
	fmt.Fprint(s.Out, "Lesson 1\n(Enter runs it) ")
	s.BeforeTerminalRead()
	if got := read(t, path); got != "Lesson 1\n(Enter runs it) " {
		t.Errorf("before the read: %q", got)
	}
	fmt.Fprint(s.Out, lines(40, "row"))
	if p.Close() {
		t.Error("the pager ran after the command read the terminal")
	}
}

// A pager left early (it reads one line and ends) drops the rest of the
// output and calls onQuit; Close does not hang.
func TestPagerLeftEarly(t *testing.T) {
	quit := make(chan bool, 1)
	p, s, _ := pagedTo(t, "head -n 1", func() { quit <- true })
	for i := 0; i < 2000; i++ {
		fmt.Fprint(s.Out, lines(100, "row"))
	}
	p.Close()
	select {
	case <-quit:
	case <-time.After(5 * time.Second):
		t.Error("onQuit was not called")
	}
}

// A command's closing summary (a query's footer) comes after the pager is
// left, with standard error, so that it stays on the screen; without the
// pager it comes in its place after the output, and never starts the
// pager by itself.
func TestPagerTrailer(t *testing.T) {
	p, s, path := pagedTo(t, "cat", nil)
	fmt.Fprint(s.Out, lines(30, "row"))
	s.WriteTrailer([]byte("30 entities · table scan\n"))
	fmt.Fprint(s.ErrOut, "continuation: TOKEN\n")
	if !p.Close() {
		t.Fatal("the pager did not run for 30 lines")
	}
	want := lines(30, "row") + "30 entities · table scan\ncontinuation: TOKEN\n"
	if got := read(t, path); got != want {
		t.Errorf("paged:\n%s\nwant:\n%s", got, want)
	}

	p, s, path = pagedTo(t, "cat", nil)
	fmt.Fprint(s.Out, lines(23, "row")) // the screen less the prompt's row
	s.WriteTrailer([]byte("23 entities\n"))
	if p.Close() {
		t.Error("the footer started the pager")
	}
	if got := read(t, path); got != lines(23, "row")+"23 entities\n" {
		t.Errorf("not paged: %q", got)
	}

	var plain bytes.Buffer
	(&IOStreams{Out: &plain}).WriteTrailer([]byte("1 entity\n"))
	if plain.String() != "1 entity\n" {
		t.Errorf("without a pager: %q", plain.String())
	}
}

// Paged tells whether output written next would be read in the pager: it
// would start it (its rows wrapped at the width), or the pager runs; not
// once the command read the terminal, nor without a pager.
func TestPagerPaged(t *testing.T) {
	p, s, _ := pagedTo(t, "cat", nil)
	fmt.Fprint(s.Out, lines(20, "row"))
	if s.Paged([]byte(lines(3, "row"))) {
		t.Error("23 rows would page")
	}
	if !s.Paged([]byte(lines(4, "row"))) || !s.Paged([]byte(strings.Repeat("x", 250)+"\n")) {
		t.Error("24 rows would not page")
	}
	fmt.Fprint(s.Out, lines(10, "row"))
	if !s.Paged([]byte("x\n")) {
		t.Error("the pager runs, but output is not paged")
	}
	p.Close()

	p, s, _ = pagedTo(t, "cat", nil)
	s.BeforeTerminalRead()
	if s.Paged([]byte(lines(40, "row"))) {
		t.Error("paged after the command read the terminal")
	}
	p.Close()
	if (&IOStreams{Out: &bytes.Buffer{}}).Paged([]byte(lines(40, "row"))) {
		t.Error("paged without a pager")
	}
}
