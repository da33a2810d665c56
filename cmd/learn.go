package cmd

import (
	"bytes"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"sync"

	"github.com/spf13/cobra"
	"github.com/tstable/tstable/backend"
	"github.com/tstable/tstable/cmdspec"
	"github.com/tstable/tstable/iostreams"
	"github.com/tstable/tstable/lessons"
)

// lessonWidth is the table width of a lesson's output when standard output
// is not a terminal (a replay, a golden file).
const lessonWidth = 100

func newLearnCmd(f *Factory) *cobra.Command {
	c := &cobra.Command{
		Use:   "learn [LESSON]",
		Short: "Lessons in table design, run on sample data",
		Long: `Without an argument, list the lessons. With one (a name or a number), run it:
its commentary is printed and its commands are run, one after the other,
against a scratch database that is deleted afterwards (--db is not used;
your own data is never touched). On a terminal, each command waits for
Enter; otherwise (tstable learn NAME < /dev/null) the lesson replays
straight through. Each lesson ends with a variation to try on your own.`,
		Example:           "  tstable learn\n  tstable learn query-classes\n  tstable learn 2 < /dev/null",
		ValidArgsFunction: firstArgOf(lessons.Names),
		RunE: func(c *cobra.Command, args []string) error {
			if len(args) == 0 {
				return listLessons(c, f)
			}
			l, ok := lessons.Lookup(args[0])
			if !ok {
				return usageErrorf(c, "no lesson named %q; tstable learn lists them", args[0])
			}
			if o := c.Flag("output"); o.Changed && !f.printer.ForPeople() {
				return usageErrorf(c, "a lesson prints a transcript for people; -o %s applies only to the list of lessons (tstable learn -o %s)", o.Value, o.Value)
			}
			return runLesson(c, f, l)
		},
	}
	cmdspec.Args(c, "[LESSON]")
	return c
}

func listLessons(c *cobra.Command, f *Factory) error {
	type item struct {
		Number  int    `json:"number"`
		Name    string `json:"name"`
		Title   string `json:"title"`
		Summary string `json:"summary"`
	}
	var items []item
	w := 0
	for _, l := range lessons.List() {
		items = append(items, item{l.Order, l.Name, l.Title, l.Summary})
		w = max(w, len(l.Name))
	}
	return f.printer.Print(items, func(out io.Writer) error {
		for _, it := range items {
			fmt.Fprintf(out, "%d  %-*s  %s: %s\n", it.Number, w, it.Name, it.Title, it.Summary)
		}
		_, err := fmt.Fprintln(out, "\nRun one with: tstable learn NAME (or its number)")
		return err
	})
}

var continuationLine = sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile(`(?m)^continuation: (\S+)$`) })

// runLesson replays a lesson against a scratch database: commentary is
// printed, each command runs in a fresh command tree (as the shell runs a
// line) with its output and errors shown in place.
func runLesson(c *cobra.Command, f *Factory, l *lessons.Lesson) error {
	dir, err := os.MkdirTemp("", "tstable-lesson-")
	if err != nil {
		return backend.FileError(err, "cannot create the lesson's scratch database")
	}
	defer os.RemoveAll(dir)
	r := &lessonRun{c: c, f: f, p: f.printer.Transcript(), db: filepath.Join(dir, "lesson.db"), width: f.IO.TermWidth(), pause: f.IO.InTTY}
	if r.width <= 0 {
		r.width = lessonWidth
	}
	r.p.Tell(fmt.Sprintf("Lesson %d: %s\n%s\n(in a scratch database; your own data is not touched)", l.Order, l.Title, l.Summary))
	for _, s := range l.Steps {
		switch s.Kind {
		case lessons.Comment:
			r.p.Tell(s.Text)
		case lessons.Blank:
			r.p.Tell("")
		case lessons.Command:
			if err := r.command(s); err != nil {
				return err
			}
		}
	}
	return r.p.Tell(fmt.Sprintf("\nEnd of lesson %d. The scratch database is gone; to go on with your own copy: tstable sample load employees (or logs, orders, bad).", l.Order))
}

// lessonRun is a lesson being replayed.
type lessonRun struct {
	c     *cobra.Command
	f     *Factory
	p     *Printer
	db    string // the scratch database
	width int    // of the commands' tables
	pause bool   // wait for Enter before each command
	token string // the last continuation token printed, for $TOKEN
}

// command shows a lesson's command, waits for Enter on a terminal, runs
// it in a fresh command tree and shows its output and errors in place.
func (r *lessonRun) command(s lessons.Step) error {
	ctx := r.c.Context()
	r.p.Tell("tstable> " + strings.ReplaceAll(s.Text, "$TOKEN", r.token))
	if s.Stdin != "" {
		r.p.Tell(indentLines(s.Stdin, "       | "))
	}
	if r.pause {
		r.p.Prompt("(Enter runs it) ")
		_, err := r.f.IO.ReadTerminalLine(ctx)
		if err == nil || errors.Is(err, io.EOF) {
			r.p.ClearPrompt(err == nil) // the command's output takes its place
		}
		if errors.Is(err, io.EOF) {
			r.pause = false // input ended: replay the rest
		} else if err != nil {
			return err // Ctrl-C
		}
	}
	var buf bytes.Buffer
	ios := &iostreams.IOStreams{In: strings.NewReader(s.Stdin), Out: &buf, ErrOut: &buf, OutTTY: true, Width: r.width}
	status := Execute(ctx, NewRoot(ios), append([]string{"--db", r.db}, lessons.Expand(s.Args, r.token)...), ios)
	if m := continuationLine().FindSubmatch(buf.Bytes()); m != nil {
		r.token = string(m[1])
	}
	if buf.Len() > 0 {
		r.p.Tell(buf.String())
	}
	if status != ExitOK {
		r.p.Tell(fmt.Sprintf("(exit status %d)", status))
	}
	return ctx.Err()
}

// indentLines prefixes every line of s.
func indentLines(s, prefix string) string {
	lines := strings.Split(strings.TrimRight(s, "\n"), "\n")
	return prefix + strings.Join(lines, "\n"+prefix) + "\n"
}
