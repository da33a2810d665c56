package remote

import (
	"os/exec"
	"strings"
	"testing"
)

// The remote backend sits below the server in the package graph: it
// speaks the Table REST API as a client and links none of the server's
// code (nor its authentication).
func TestRemoteLinksNoServerCode(t *testing.T) {
	out, err := exec.Command("go", "list", "-deps", "github.com/tstable/tstable/remote").Output()
	if err != nil {
		t.Skipf("go list: %v", err)
	}
	for _, dep := range strings.Fields(string(out)) {
		if strings.HasPrefix(dep, "github.com/tstable/tstable/server") {
			t.Errorf("remote depends on %s", dep)
		}
	}
}
