package main

import (
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
)

// docsVersion is the form docs/install.md gives a build between releases:
// "devel", or "devel COMMIT (DATE)" with "+dirty" after the commit.
var docsVersion = regexp.MustCompile(`^tstable devel( [0-9a-f]{12}(\+dirty)? \(\d{4}-\d\d-\d\d\))?\n$`)

// tstable --version says what docs/install.md says whether the go command
// stamps the build from git (Go's default, -buildvcs=auto, which records a
// pseudo-version such as v0.0.0-20261125205245-2cf14e8c7bd3) or not
// (-buildvcs=false), and where git recorded the commit it is HEAD's.
func TestVersionWithAndWithoutVCSStamping(t *testing.T) {
	dir := t.TempDir()
	head := ""
	if out, err := exec.Command("git", "rev-parse", "--short=12", "HEAD").Output(); err == nil {
		head = strings.TrimSpace(string(out))
	}
	for _, stamp := range []string{"auto", "false"} {
		bin := filepath.Join(dir, "tstable-"+stamp)
		c := exec.Command("go", "build", "-o", bin, ".")
		c.Env = append(os.Environ(), "CGO_ENABLED=0", "GOFLAGS=-buildvcs="+stamp)
		if b, err := c.CombinedOutput(); err != nil {
			t.Fatalf("go build -buildvcs=%s: %v\n%s", stamp, err, b)
		}
		out, err := exec.Command(bin, "--version").Output()
		if err != nil {
			t.Fatalf("-buildvcs=%s: tstable --version: %v", stamp, err)
		}
		got := string(out)
		if !docsVersion.MatchString(got) {
			t.Errorf("-buildvcs=%s: tstable --version says %q, not docs/install.md's devel COMMIT (DATE)", stamp, got)
		}
		if fields := strings.Fields(got); len(fields) > 2 && head != "" && strings.TrimSuffix(fields[2], "+dirty") != head {
			t.Errorf("-buildvcs=%s: tstable --version names commit %s, HEAD is %s", stamp, fields[2], head)
		}
	}
}
