// Package lessons holds tstable's lessons in table design: text files,
// embedded in the binary, that mix commentary (lines starting with #) with
// tstable commands. "tstable learn NAME" replays one: the commentary is
// printed, each command is run and its output shown.
//
// A lesson file starts with two header lines, "# title: …" and
// "# summary: …". After them:
//
//   - a line starting with # is commentary ("# " is dropped when printed);
//   - an empty line is printed as one;
//   - any other line is a command, written as after "tstable" on the
//     command line (a leading "tstable " is allowed), quoted as in a POSIX
//     shell; "$TOKEN" stands for the last continuation token printed;
//   - a command ending in "<<EOF" takes the lines up to a line "EOF" as its
//     standard input;
//   - a line "#= fails: CODE" (not printed) says that the next command is
//     meant to fail with that error code: a lesson shows no other error.
//
// What a lesson says of a query's class ("a point query", "a range
// query", "a partition scan", "a table scan", in the commentary just
// before it) is what tstable's explain reports for it: the tests hold
// every lesson to both.
package lessons

import (
	"embed"
	"fmt"
	"path"
	"slices"
	"strings"

	"github.com/google/shlex"
)

//go:embed text/*.txt
var files embed.FS

// Lesson is one lesson.
type Lesson struct {
	Name    string // the file name without .txt, e.g. "query-classes"
	Order   int    // position in the course (the file name's leading number)
	Title   string
	Summary string
	Steps   []Step
}

// StepKind is what a lesson line is.
type StepKind int

// The kinds of steps.
const (
	Comment StepKind = iota + 1
	Blank
	Command
)

// Step is one line of a lesson (or a command with its input).
type Step struct {
	Kind StepKind
	// Text is the commentary without "# ", or the command as written.
	Text string
	// Args is a command's arguments (without "tstable").
	Args []string
	// Stdin is a command's standard input ("" when none).
	Stdin string
	// Fails is the error code a command is meant to fail with ("#= fails:
	// CODE" before it), or "" when it is meant to succeed.
	Fails string
	// Line is the step's line in the lesson file.
	Line int
}

// List returns every lesson in course order.
func List() []*Lesson {
	entries, err := files.ReadDir("text")
	if err != nil {
		panic(err) // embedded: cannot fail
	}
	var out []*Lesson
	for _, e := range entries {
		data, err := files.ReadFile(path.Join("text", e.Name()))
		if err != nil {
			panic(err)
		}
		l, err := Parse(e.Name(), string(data))
		if err != nil {
			panic(err) // a broken lesson is caught by the package's tests
		}
		out = append(out, l)
	}
	slices.SortFunc(out, func(a, b *Lesson) int { return a.Order - b.Order })
	return out
}

// Lookup finds a lesson by name, or by its number in the course ("3").
func Lookup(name string) (*Lesson, bool) {
	for _, l := range List() {
		if l.Name == name || fmt.Sprint(l.Order) == name {
			return l, true
		}
	}
	return nil, false
}

// Names returns the lesson names in course order, for completion.
func Names() []string {
	var out []string
	for _, l := range List() {
		out = append(out, l.Name)
	}
	return out
}

// Parse reads a lesson file named file ("2-pagination.txt").
func Parse(file, text string) (*Lesson, error) {
	base := strings.TrimSuffix(path.Base(file), ".txt")
	l := &Lesson{Name: base}
	if num, rest, ok := strings.Cut(base, "-"); ok {
		if _, err := fmt.Sscan(num, &l.Order); err == nil {
			l.Name = rest
		}
	}
	lines := strings.Split(strings.TrimRight(text, "\n"), "\n")
	fails := ""
	for i := 0; i < len(lines); i++ {
		line := lines[i]
		n := i + 1
		switch {
		case strings.HasPrefix(line, "#="):
			code, ok := strings.CutPrefix(strings.TrimSpace(strings.TrimPrefix(line, "#=")), "fails:")
			if !ok || strings.TrimSpace(code) == "" {
				return nil, fmt.Errorf("%s:%d: a check line is \"#= fails: CODE\"", file, n)
			}
			fails = strings.TrimSpace(code)
		case strings.HasPrefix(line, "# title:") && l.Title == "":
			l.Title = strings.TrimSpace(strings.TrimPrefix(line, "# title:"))
		case strings.HasPrefix(line, "# summary:") && l.Summary == "":
			l.Summary = strings.TrimSpace(strings.TrimPrefix(line, "# summary:"))
		case strings.HasPrefix(line, "#"):
			t := strings.TrimPrefix(strings.TrimPrefix(line, "#"), " ")
			l.Steps = append(l.Steps, Step{Kind: Comment, Text: t, Line: n})
		case strings.TrimSpace(line) == "":
			l.Steps = append(l.Steps, Step{Kind: Blank, Line: n})
		default:
			s := Step{Kind: Command, Line: n}
			cmdText := strings.TrimSpace(line)
			if before, ok := strings.CutSuffix(cmdText, "<<EOF"); ok {
				cmdText = strings.TrimSpace(before)
				var in []string
				for i++; i < len(lines) && lines[i] != "EOF"; i++ {
					in = append(in, lines[i])
				}
				if i == len(lines) {
					return nil, fmt.Errorf("%s:%d: no EOF line ends the input", file, n)
				}
				s.Stdin = strings.Join(in, "\n") + "\n"
			}
			s.Text = strings.TrimPrefix(cmdText, "tstable ")
			args, err := shlex.Split(s.Text)
			if err != nil {
				return nil, fmt.Errorf("%s:%d: %v", file, n, err)
			}
			s.Args = args
			s.Fails, fails = fails, ""
			l.Steps = append(l.Steps, s)
		}
	}
	if l.Title == "" || l.Summary == "" {
		return nil, fmt.Errorf("%s: a lesson starts with '# title:' and '# summary:' lines", file)
	}
	return l, nil
}

// Expand replaces $TOKEN in args with token.
func Expand(args []string, token string) []string {
	out := make([]string, len(args))
	for i, a := range args {
		out[i] = strings.ReplaceAll(a, "$TOKEN", token)
	}
	return out
}
