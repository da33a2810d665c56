package shell

import (
	"context"
	"strings"
	"testing"
)

// An empty line offers nothing until Tab asks; then it lists the commands,
// the shell's own among them.
func TestCompleteEmptyLine(t *testing.T) {
	s, _, _ := testShell(t)
	ctx := context.Background()
	if got := s.complete(ctx, "", false); len(got) != 0 {
		t.Errorf("an empty line without Tab offers %v", got)
	}
	var names []string
	for _, x := range s.complete(ctx, "", true) {
		names = append(names, x.Text)
	}
	got := strings.Join(names, " ")
	for _, want := range []string{"advise", "get", "insert", "query", "table", "use", "next", "exit"} {
		if !strings.Contains(" "+got+" ", " "+want+" ") {
			t.Errorf("Tab on an empty line does not offer %q: %s", want, got)
		}
	}
	if got := s.complete(ctx, "q", false); len(got) != 1 || got[0].Text != "query" {
		t.Errorf("\"q\" offers %v", got)
	}
}
