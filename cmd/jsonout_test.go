package cmd

import (
	"context"
	"path/filepath"
	"strings"
	"testing"
)

// JSON output writes <, > and & as they are, as the service does, in
// every report and explanation (not \u003c, \u003e, \u0026).
func TestJSONOutputKeepsAngleBracketsAndAmpersands(t *testing.T) {
	db := filepath.Join(t.TempDir(), "t.db")
	seed(t, db)
	mustRun(t, db, "", "sample", "load", "bad")
	for _, args := range [][]string{
		{"explain", "People", "--filter", "PartitionKey eq 'a<b' and Note eq 'x&y'", "-o", "json"},
		{"query", "People", "--filter", "PartitionKey eq 'a<b>'", "--explain", "-o", "json"},
		{"lint", "BadDesign", "-o", "json"},
		{"lint", "BadDesign", "-o", "jsonl"},
	} {
		out, errOut, _ := run(context.Background(), db, "", args...)
		if strings.Contains(out, `\u003c`) || strings.Contains(out, `\u003e`) || strings.Contains(out, `\u0026`) {
			t.Errorf("%s: escaped for HTML:\n%s%s", strings.Join(args, " "), out, errOut)
		}
		if !strings.Contains(out, "<") {
			t.Errorf("%s: no < in the output:\n%s%s", strings.Join(args, " "), out, errOut)
		}
	}
}
