package lessons

import (
	"strings"
	"testing"
)

func TestEveryLessonParses(t *testing.T) {
	ls := List()
	if len(ls) != 6 {
		t.Fatalf("%d lessons", len(ls))
	}
	for i, l := range ls {
		if l.Order != i+1 {
			t.Errorf("%s is number %d", l.Name, l.Order)
		}
		cmds := 0
		for _, s := range l.Steps {
			if s.Kind == Command {
				cmds++
				if len(s.Args) == 0 || s.Args[0] == "tstable" {
					t.Errorf("%s line %d: %q", l.Name, s.Line, s.Text)
				}
			}
		}
		if cmds < 3 {
			t.Errorf("%s has %d commands", l.Name, cmds)
		}
		last := l.Steps[len(l.Steps)-1]
		if !strings.Contains(strings.Join(commentTail(l), " "), "Try a variation") {
			t.Errorf("%s does not end with a variation to try (last: %q)", l.Name, last.Text)
		}
	}
}

// commentTail returns the commentary after the last command.
func commentTail(l *Lesson) []string {
	var out []string
	for _, s := range l.Steps {
		switch s.Kind {
		case Command:
			out = nil
		case Comment:
			out = append(out, s.Text)
		}
	}
	return out
}

func TestParse(t *testing.T) {
	l, err := Parse("7-x.txt", "# title: T\n# summary: S\n# hello\n\ntstable query T --filter \"A eq 'b c'\"\nbatch T - <<EOF\n{\"op\":1}\nEOF\n")
	if err != nil {
		t.Fatal(err)
	}
	if l.Name != "x" || l.Order != 7 || l.Title != "T" || l.Summary != "S" || len(l.Steps) != 4 {
		t.Fatalf("%+v", l)
	}
	if got := l.Steps[2].Args; strings.Join(got, "|") != "query|T|--filter|A eq 'b c'" {
		t.Errorf("args %q", got)
	}
	if l.Steps[3].Stdin != "{\"op\":1}\n" || strings.Join(l.Steps[3].Args, " ") != "batch T -" {
		t.Errorf("heredoc %+v", l.Steps[3])
	}
	if _, err := Parse("x.txt", "# title: T\n# summary: S\nbatch T - <<EOF\n{}\n"); err == nil {
		t.Error("an unterminated input parses")
	}
	if _, err := Parse("x.txt", "query T\n"); err == nil {
		t.Error("a lesson without a title parses")
	}
	if l, ok := Lookup("2"); !ok || l.Name != "pagination" {
		t.Errorf("lookup by number: %v", l)
	}
}
