package shell_test

import (
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
)

// bashCompletion is the bash-completion package's script, which cobra's
// bash completion needs.
const bashCompletion = "/usr/share/bash-completion/bash_completion"

// Bash completes inside an open quote as the shell does: a property, then
// a PartitionKey literal, in --filter "…; the quote stays open, and the
// line runs.
func TestTmuxBashCompletesInsideQuotes(t *testing.T) {
	needTmux(t)
	if _, err := os.Stat(bashCompletion); err != nil {
		t.Skip("bash-completion is not installed (apt-get install bash-completion)")
	}
	bin := buildTstable(t)
	dir := t.TempDir()
	db := newDB(t, bin, dir)
	rc := filepath.Join(dir, "bashrc")
	script, err := exec.Command(bin, "completion", "bash").Output()
	if err != nil {
		t.Fatal(err)
	}
	os.WriteFile(filepath.Join(dir, "tstable.bash"), script, 0o644)
	os.WriteFile(rc, []byte("source "+bashCompletion+"\nsource "+filepath.Join(dir, "tstable.bash")+"\nPS1='$ '\n"), 0o644)
	s := startShell(t, []string{"HOME=" + dir, "HISTFILE=/dev/null", "PATH=" + filepath.Dir(bin) + ":/usr/bin:/bin"}, "bash --rcfile "+rc+" -i")
	s.waitFor(`(?m)^\$ $`)
	s.send(`tstable --db `+db+` query Employees --filter "LastN`, keyTab)
	s.waitFor(`--filter "LastName\s*$`)
	s.send(` eq 'Jones' and PartitionKey eq 'Sa`, keyTab)
	s.waitFor(`--filter "LastName eq 'Jones' and PartitionKey eq 'Sales'\s*$`)
	s.send(`" --select Age -o csv`, keyEnter)
	sc := s.waitFor(`(?m)^Sales,empid_\d+,.*\n\$ $`)
	if strings.Contains(sc, "Marketing,") || !strings.Contains(sc, "PartitionKey,RowKey,Timestamp,Age@Edm.Int32") {
		t.Errorf("the completed query did not run as typed:\n%s", sc)
	}
}
