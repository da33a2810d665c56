package cmd

import (
	"context"
	"path/filepath"
	"strings"
	"testing"

	"github.com/tstable/tstable/lessons"
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
