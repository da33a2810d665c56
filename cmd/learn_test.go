package cmd

import (
	"context"
	"encoding/json"
	"fmt"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"github.com/tstable/tstable/lessons"
	"github.com/tstable/tstable/odata"
)

// TestLessonReplays replays every lesson non-interactively, as
// "tstable learn NAME < /dev/null" does, and compares the transcript with
// testdata/lessons/NAME.golden (Timestamps and ETags masked).
func TestLessonReplays(t *testing.T) {
	for _, l := range lessons.List() {
		t.Run(l.Name, func(t *testing.T) {
			db := filepath.Join(t.TempDir(), "unused.db")
			out, errOut, status := run(context.Background(), db, "", "learn", l.Name)
			if status != 0 || errOut != "" {
				t.Fatalf("exit %d\n%s", status, errOut)
			}
			checkFile(t, filepath.Join("lessons", l.Name+".golden"), normalize(out))
			// Every command ran: no usage error inside a lesson.
			if strings.Contains(out, "error: usage:") || strings.Contains(out, "(exit status 2)") {
				t.Errorf("a command of the lesson was used wrongly")
			}
		})
	}
}

// classPhrase finds what a lesson's commentary says of a query's class.
var classPhrase = regexp.MustCompile(`(?i)\b(point quer(?:y|ies)|range (?:quer(?:y|ies)|reads?)|partition scans?|table scans?)\b`)

// classOf is the query class a phrase of classPhrase names.
func classOf(phrase string) odata.QueryClass {
	p := strings.ToLower(phrase)
	switch {
	case strings.HasPrefix(p, "point"):
		return odata.ClassPoint
	case strings.HasPrefix(p, "range"):
		return odata.ClassRange
	case strings.HasPrefix(p, "partition"):
		return odata.ClassPartitionScan
	}
	return odata.ClassTableScan
}

// Every lesson says only what tstable does: no command shows an error
// unless the lesson marks it as meant to fail ("#= fails: CODE"), and then
// it fails with that code; the query class the commentary gives a query or
// explain (point query, range query, partition scan, table scan) is the
// class explain reports for it.
func TestLessonsSayWhatTstableDoes(t *testing.T) {
	checked := 0
	for _, l := range lessons.List() {
		db := filepath.Join(t.TempDir(), l.Name+".db")
		token := ""
		var said []string // the commentary just before the command
		newBlock := true
		for _, s := range l.Steps {
			switch s.Kind {
			case lessons.Comment:
				if newBlock {
					said, newBlock = nil, false
				}
				said = append(said, s.Text)
				continue
			case lessons.Blank:
				continue
			}
			newBlock = true
			args := lessons.Expand(s.Args, token)
			out, errOut, st := run(context.Background(), db, s.Stdin, args...)
			if m := continuationLine().FindStringSubmatch(errOut); m != nil {
				token = m[1]
			}
			where := fmt.Sprintf("%s line %d (%s)", l.Name, s.Line, s.Text)
			switch {
			case s.Fails == "" && strings.Contains(errOut, "error:"): // (lint exits 1 for warnings: no error)
				t.Errorf("%s: exit %d, an error the lesson does not mean to show:\n%s", where, st, errOut)
			case s.Fails != "" && (st == 0 || !strings.Contains(errOut, s.Fails)):
				t.Errorf("%s: meant to fail with %s; exit %d\n%s%s", where, s.Fails, st, out, errOut)
			}
			filter := flagValue(args, "--filter")
			if filter == "" || (args[0] != "query" && args[0] != "explain") {
				continue
			}
			for _, phrase := range classPhrase.FindAllString(strings.Join(said, " "), -1) {
				x := mustRun(t, db, "", "explain", args[1], "--filter", filter, "-o", "json")
				var got struct{ Class odata.QueryClass }
				if err := json.Unmarshal([]byte(x), &got); err != nil {
					t.Fatal(err)
				}
				if got.Class != classOf(phrase) {
					t.Errorf("%s: the lesson says %q; explain says %s", where, phrase, got.Class)
				}
				checked++
			}
		}
	}
	if checked < 6 {
		t.Errorf("only %d claims of a class were checked", checked)
	}
}

// flagValue is the value of flag in args ("" when absent).
func flagValue(args []string, flag string) string {
	for i, a := range args {
		if v, ok := strings.CutPrefix(a, flag+"="); ok {
			return v
		}
		if a == flag && i+1 < len(args) {
			return args[i+1]
		}
	}
	return ""
}
