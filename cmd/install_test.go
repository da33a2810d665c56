package cmd

import (
	"os"
	"strings"
	"testing"
)

// TestGoModInstallable keeps `go install
// github.com/tstable/tstable/cmd/tstable@VERSION` working: the go command
// refuses to install a module whose go.mod has a replace directive, and the
// fork of go-prompt is the package internal/prompt, not a module required
// and replaced.
func TestGoModInstallable(t *testing.T) {
	src, err := os.ReadFile("../go.mod")
	if err != nil {
		t.Fatal(err)
	}
	for i, line := range strings.Split(string(src), "\n") {
		fields := strings.Fields(line)
		if len(fields) > 0 && fields[0] == "replace" {
			t.Errorf("go.mod:%d: %q: go install refuses a module with a replace; make the code a package of this module instead", i+1, line)
		}
		if strings.Contains(line, "github.com/c-bata/go-prompt") {
			t.Errorf("go.mod:%d: %q: the shell's line editor is the fork in internal/prompt, not the upstream module", i+1, line)
		}
	}
}
