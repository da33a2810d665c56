package shell

import (
	"testing"

	"github.com/tstable/tstable/completions"
)

// openEnd reads a line as the shell's word splitter does: a line it calls
// whole splits, and one it calls open (inside a quote, or after a
// backslash) does not; joining the next line to an open one gives a line
// the splitter reads the same way.
func FuzzOpenEnd(f *testing.F) {
	for _, s := range []string{`query --filter "LastName eq 'Jo`, `insert '{"a":`, `table \`, `# it's`, `a "b\" c`, `q 'x'"y"`, `a\\`} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, line string) {
		_, err := completions.SplitLine(line)
		open := openEnd(line)
		if (open != 0) != (err != nil) {
			t.Fatalf("openEnd(%q) = %q, but shlex says %v", line, open, err)
		}
		if open != 0 {
			if _, err := completions.SplitLine(joinLine(line, "x")); (err != nil) != (openEnd(joinLine(line, "x")) != 0) {
				t.Fatalf("joined %q: %v", joinLine(line, "x"), err)
			}
		}
	})
}
