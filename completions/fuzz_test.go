package completions

import (
	"context"
	"strings"
	"testing"
)

// FuzzComplete: whatever is typed, completion never panics, and every
// suggestion replaces exactly the text after the line's last space.
func FuzzComplete(f *testing.F) {
	for _, s := range []string{
		"", "qu", "query Employees --filter \"LastName eq 'Jo", "get ", "use E",
		`query Employees --filter "PartitionKey eq 'Sales E`, "query Employees --select Age,",
		`query --filter="(not Age ge 3 or`, "table delete ", `query "unclosed 'x`, `a\ b\`,
		`query Employees --filter "Hired ge datetime'2020`, "explain o", "-o j",
	} {
		f.Add(s)
	}
	l := &Line{Root: testTree(), Source: testSource(), Table: func() string { return "Employees" }}
	f.Fuzz(func(t *testing.T, line string) {
		for _, s := range l.Complete(context.Background(), line) {
			if strings.Contains(s.Text, "\n") {
				t.Errorf("Complete(%q) offers a line break: %q", line, s.Text)
			}
		}
		Filter(context.Background(), testSource(), "Employees", line)
		Select(context.Background(), testSource(), "Employees", line)
	})
}
