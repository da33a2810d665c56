package cmd

import (
	"bufio"
	"context"
	"fmt"
	"io"
	"os/exec"
	"runtime"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/tstable/tstable/iostreams"
)

// A script through the shell opens the file once for a run of reads, and
// once more when a write needs it held for writing, instead of once a
// command.
func TestShellKeepsFileOpen(t *testing.T) {
	c := &cli{t: t, db: t.TempDir() + "/k.db"}
	c.ok("", "table", "create", "Things")
	c.ok("", "upsert", "Things", `{"PartitionKey":"p","RowKey":"r","N":1}`)
	var script strings.Builder
	for i := 0; i < 20; i++ {
		script.WriteString("get Things p r\n")
	}
	script.WriteString(`upsert Things '{"PartitionKey":"p","RowKey":"r","N":2}'` + "\n")
	for i := 0; i < 20; i++ {
		script.WriteString("get Things p r --select N\n")
	}
	ios, in, out, errOut := iostreams.Test()
	in.WriteString(script.String())
	before := keptOpens.Load()
	args := []string{"--db", c.db, "shell"}
	if st := Execute(context.Background(), newRootFor(&Factory{IO: ios}, args), args, ios); st != ExitOK {
		t.Fatalf("status %d: %s", st, errOut)
	}
	if got := strings.Count(out.String(), `"N":2`); got != 21 { // the upsert and the 20 gets
		t.Fatalf("N=2 was written %d times, not by the upsert and the 20 gets after it:\n%s", got, out)
	}
	// The shell opens the file when it starts (to say at once when another
	// process holds it; for reading, reading a script) and keeps it for
	// the reads, and again for writing at the upsert, kept from then on; a
	// loaded machine pausing the shell for longer than keepIdle between
	// two commands makes it open again, but never once a command.
	if opens := keptOpens.Load() - before; opens < 1 || opens > 10 {
		t.Errorf("the shell opened the file %d times for 41 commands; want 2 (a few more on a loaded machine)", opens)
	}
}

// While a script runs through the shell, holding the file, another
// process that needs it gets in within about a second: a writer while the
// script reads, and a reader while it writes.
func TestShellScriptLetsOthersIn(t *testing.T) {
	if runtime.GOOS != "linux" && runtime.GOOS != "windows" {
		t.Skip("only Linux and Windows show who waits for a file")
	}
	c := &cli{t: t, bin: buildBinary(t), db: t.TempDir() + "/share.db"}
	c.ok("", "table", "create", "Things")
	c.ok("", "upsert", "Things", `{"PartitionKey":"p","RowKey":"r","N":0}`)
	for _, tc := range []struct {
		script string
		other  []string
	}{
		{"get Things p r", []string{"upsert", "Things", `{"PartitionKey":"p","RowKey":"x","N":1}`}},
		{`upsert Things '{"PartitionKey":"p","RowKey":"r","N":2}'`, []string{"get", "Things", "p", "r"}},
	} {
		stop := runScript(t, c, tc.script)
		start := time.Now()
		out, errOut, st := c.run("", append(tc.other, "--wait", "10s")...)
		took := time.Since(start)
		stop()
		if st != 0 {
			t.Fatalf("%s beside a script of %q: exit %d\n%s%s", tc.other, tc.script, st, out, errOut)
		}
		t.Logf("%v got in after %s beside a script of %q", tc.other[0], took, tc.script)
		if took > 1500*time.Millisecond {
			t.Errorf("%s waited %s for a script of %q; want about a second at most", tc.other, took, tc.script)
		}
	}
}

// runScript starts tstable shell reading the line over and over from a
// pipe, a few lines ahead of what it has run, and returns when it has run
// it a few times; the returned func ends the script and checks that the
// shell ended well.
func runScript(t *testing.T, c *cli, line string) (stop func()) {
	t.Helper()
	sh := exec.Command(c.bin, "--db", c.db, "shell")
	stdin, err := sh.StdinPipe()
	if err != nil {
		t.Fatal(err)
	}
	stdout, err := sh.StdoutPipe()
	if err != nil {
		t.Fatal(err)
	}
	var stderr strings.Builder
	sh.Stderr = &stderr
	if err := sh.Start(); err != nil {
		t.Fatal(err)
	}
	for i := 0; i < 10; i++ {
		fmt.Fprintln(stdin, line)
	}
	var stopping atomic.Bool
	ran := make(chan struct{}, 1)
	go func() { // a line more for each line run, until stopping
		lines := bufio.NewScanner(stdout)
		for n := 1; lines.Scan(); n++ {
			if n == 20 {
				ran <- struct{}{}
			}
			if stopping.Load() {
				break
			}
			fmt.Fprintln(stdin, line)
		}
		stdin.Close()
		io.Copy(io.Discard, stdout)
	}()
	select {
	case <-ran:
	case <-time.After(30 * time.Second):
		t.Fatalf("tstable shell did not run %q 20 times in 30 s\n%s", line, stderr.String())
	}
	return func() {
		stopping.Store(true)
		if err := sh.Wait(); err != nil {
			t.Errorf("tstable shell running %q: %v\n%s", line, err, stderr.String())
		}
	}
}
