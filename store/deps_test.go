package store

import (
	"os/exec"
	"strings"
	"testing"
)

// A local store links no network code: net/http, net/url and TLS pull
// megabytes of code and dozens of package initializers into every program
// that opens a file, the tstable binary's point query included.
func TestStoreLinksNoNetworkCode(t *testing.T) {
	out, err := exec.Command("go", "list", "-deps", "github.com/tstable/tstable/store").Output()
	if err != nil {
		t.Skipf("go list: %v", err)
	}
	for _, dep := range strings.Fields(string(out)) {
		if dep == "net" || strings.HasPrefix(dep, "net/") || strings.HasPrefix(dep, "crypto/tls") || strings.HasPrefix(dep, "crypto/x509") {
			t.Errorf("store depends on %s", dep)
		}
	}
}
