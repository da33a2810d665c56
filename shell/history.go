package shell

import (
	"bufio"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"sync"

	"github.com/tstable/tstable/appdirs"
)

// maxHistory is how many lines of history are loaded at start.
const maxHistory = 1000

// history is the file of lines typed in every session, oldest first.
type history struct {
	path  string
	lines []string
}

// DefaultHistoryPath is history in tstable's state folder (appdirs.State),
// or "" (no history) when the system names none.
func DefaultHistoryPath() string {
	d, err := appdirs.State()
	if err != nil {
		return ""
	}
	return filepath.Join(d, "history")
}

// openHistory reads the last maxHistory lines of path. A missing or
// unreadable file is an empty history.
func openHistory(path string) *history {
	h := &history{path: path}
	if path == "" {
		return h
	}
	f, err := os.Open(path)
	if err != nil {
		return h
	}
	defer f.Close()
	sc := bufio.NewScanner(f)
	sc.Buffer(make([]byte, 64*1024), 1024*1024)
	for sc.Scan() {
		if l := sc.Text(); l != "" {
			h.lines = append(h.lines, l)
		}
	}
	if len(h.lines) > maxHistory {
		h.lines = h.lines[len(h.lines)-maxHistory:]
	}
	return h
}

// secretFlag matches a flag whose value is a secret, with its value.
var secretFlag = sync.OnceValue(func() *regexp.Regexp {
	return regexp.MustCompile(`(--(?:to-)?connection-string[= ])("[^"]*"|'[^']*'|\S+)`)
})

// redact replaces secrets in a line before it is kept.
func redact(line string) string {
	line = secretFlag().ReplaceAllString(line, "${1}<redacted>")
	for _, k := range []string{"AccountKey=", "SharedAccessSignature=", "sig="} {
		for i := strings.Index(line, k); i >= 0; {
			j := i + len(k)
			end := strings.IndexAny(line[j:], ";&\"' ")
			if end < 0 {
				end = len(line) - j
			}
			line = line[:j] + "<redacted>" + line[j+end:]
			next := strings.Index(line[j+len("<redacted>"):], k)
			if next < 0 {
				break
			}
			i = j + len("<redacted>") + next
		}
	}
	return line
}

// add appends line to the file, so other sessions see it when they start.
func (h *history) add(line string) {
	line = redact(strings.TrimSpace(line))
	if line == "" || (len(h.lines) > 0 && h.lines[len(h.lines)-1] == line) {
		return
	}
	h.lines = append(h.lines, line)
	if h.path == "" {
		return
	}
	if err := os.MkdirAll(filepath.Dir(h.path), 0o700); err != nil {
		return
	}
	f, err := os.OpenFile(h.path, os.O_APPEND|os.O_CREATE|os.O_WRONLY, 0o600)
	if err != nil {
		return
	}
	f.WriteString(line + "\n")
	f.Close()
}

// print writes the last n lines, numbered from the oldest kept, as bash's
// history does.
func (h *history) print(w io.Writer, n int) {
	from := max(len(h.lines)-n, 0)
	for i := from; i < len(h.lines); i++ {
		fmt.Fprintf(w, "%5d  %s\n", i+1, h.lines[i])
	}
}
