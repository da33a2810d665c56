package cmd

import (
	"bytes"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"sync/atomic"
	"testing"
	"time"
)

// interruptBound is how long a command may take to stop after Ctrl-C
// before the test calls it not stopped. It is a bound on correctness (the
// command stopped at all), far above the half second it should take; the
// test logs what it measured.
const interruptBound = 5 * time.Second

// interrupted is how a run of tstable that got SIGINT ended.
type interrupted struct {
	status int
	stderr string
	took   time.Duration // from the signal to the exit
}

// interruptRun starts c, reads its standard output slowly (a pipe still
// being read, as a terminal reads it), sends SIGINT once ready says the
// command is at work (it is given the process's id and the bytes of
// output read so far), and waits for it to end. It fails the test when the
// command ended before it was ready, or does not end within
// interruptBound of the signal.
func interruptRun(t *testing.T, c *exec.Cmd, ready func(pid int, outBytes int64) bool) interrupted {
	t.Helper()
	var errOut bytes.Buffer
	c.Stderr = &errOut
	out, err := c.StdoutPipe()
	if err != nil {
		t.Fatal(err)
	}
	if err := c.Start(); err != nil {
		t.Fatal(err)
	}
	var read atomic.Int64
	go func() { // 32 KiB every 5 ms: about 6 MB/s, slower than tstable writes
		buf := make([]byte, 32<<10)
		for {
			n, err := out.Read(buf)
			read.Add(int64(n))
			if err != nil {
				return
			}
			time.Sleep(5 * time.Millisecond)
		}
	}()
	done := make(chan error, 1)
	go func() { done <- c.Wait() }()
	for !ready(c.Process.Pid, read.Load()) {
		select {
		case err := <-done:
			t.Fatalf("%s ended (%v) before it could be interrupted: give it more to do\n%s", c.Args, err, errOut.String())
		case <-time.After(5 * time.Millisecond):
		}
	}
	sent := time.Now()
	if err := c.Process.Signal(os.Interrupt); err != nil {
		t.Fatal(err)
	}
	select {
	case <-done:
	case <-time.After(interruptBound):
		c.Process.Kill()
		<-done
		t.Fatalf("%s did not stop within %s of Ctrl-C", c.Args, interruptBound)
	}
	took := time.Since(sent)
	t.Logf("%s stopped %s after Ctrl-C", strings.Join(c.Args[3:], " "), took.Round(time.Millisecond))
	return interrupted{status: c.ProcessState.ExitCode(), stderr: errOut.String(), took: took}
}

// wantInterrupted checks what every interrupted command shows: exit 130
// and "error: interrupted" as the last line of standard error.
func wantInterrupted(t *testing.T, what string, r interrupted) {
	t.Helper()
	if r.status != ExitInterrupted || !strings.HasSuffix(r.stderr, "error: interrupted\n") {
		t.Errorf("%s: exit %d, stderr %q; want exit %d and error: interrupted", what, r.status, r.stderr, ExitInterrupted)
	}
}

// opened reports whether process pid has path open.
func opened(pid int, path string) bool {
	fds, _ := os.ReadDir("/proc/" + strconv.Itoa(pid) + "/fd")
	for _, fd := range fds {
		if to, err := os.Readlink("/proc/" + strconv.Itoa(pid) + "/fd/" + fd.Name()); err == nil && to == path {
			return true
		}
	}
	return false
}

// readPast reports whether process pid has read path past offset n.
func readPast(pid int, path string, n int64) bool {
	dir := "/proc/" + strconv.Itoa(pid)
	fds, _ := os.ReadDir(dir + "/fd")
	for _, fd := range fds {
		if to, err := os.Readlink(dir + "/fd/" + fd.Name()); err != nil || to != path {
			continue
		}
		info, _ := os.ReadFile(dir + "/fdinfo/" + fd.Name())
		if m := regexp.MustCompile(`(?m)^pos:\s+(\d+)`).FindSubmatch(info); m != nil {
			if pos, _ := strconv.ParseInt(string(m[1]), 10, 64); pos > n {
				return true
			}
		}
	}
	return false
}

// pathExists reports whether path exists.
func pathExists(path string) bool {
	_, err := os.Stat(path)
	return err == nil
}

// TestInterruptStopsLongCommands interrupts each long command while it
// works, on a table of 100,000 entities: each stops with exit 130 and
// "error: interrupted" whatever its output format, to a pipe that is
// still read; a command that writes says what it kept, and the file it
// wrote passes check and holds exactly that.
func TestInterruptStopsLongCommands(t *testing.T) {
	if testing.Short() {
		t.Skip("builds a database of 200,000 entities")
	}
	bin := buildBinary(t)
	dir := t.TempDir()
	db := filepath.Join(dir, "big.db")
	env := append(os.Environ(), "HOME="+dir, "XDG_STATE_HOME="+filepath.Join(dir, "state"), "TSTABLE_DB=")
	tstable := func(args ...string) *exec.Cmd {
		c := exec.Command(bin, append([]string{"--db", db}, args...)...)
		c.Env = env
		return c
	}
	ok := func(args ...string) string {
		t.Helper()
		c := tstable(args...)
		out, err := c.Output()
		if err != nil {
			t.Fatalf("tstable %s: %v", strings.Join(args, " "), err)
		}
		return string(out)
	}
	count := func(t *testing.T, dbPath, table string) int {
		t.Helper()
		c := exec.Command(bin, "--db", dbPath, "query", table, "--all", "--select", "RowKey", "-o", "jsonl")
		c.Env = env
		out, err := c.Output()
		if err != nil {
			t.Fatalf("counting %s in %s: %v", table, dbPath, err)
		}
		return strings.Count(string(out), "\n")
	}
	checked := func(t *testing.T, dbPath string) {
		t.Helper()
		c := exec.Command(bin, "--db", dbPath, "check")
		c.Env = env
		if out, err := c.CombinedOutput(); err != nil {
			t.Errorf("check %s after the interrupt: %v\n%s", dbPath, err, out)
		}
	}
	ok("sample", "load", "logs", "--size", "100000")
	jsonl := filepath.Join(dir, "logs.jsonl")
	if err := os.WriteFile(jsonl, []byte(ok("export", "LogsByDate")), 0o644); err != nil {
		t.Fatal(err)
	}
	printing := func(_ int, outBytes int64) bool { return outBytes > 0 }
	reading := func(pid int, _ int64) bool { return opened(pid, db) }

	// The commands that print entities, in every format, with and without
	// --select and --filter.
	for _, args := range [][]string{
		{"export", "LogsByDate"},
		{"export", "LogsByDate", "-o", "csv"},
		{"export", "LogsByDate", "--filter", "Level ne 'none'"},
		{"query", "LogsByDate", "--all", "-o", "jsonl"},
		{"query", "LogsByDate", "--all", "-o", "json"},
		{"query", "LogsByDate", "--all", "-o", "csv"},
		{"query", "LogsByDate", "--all", "-o", "table"},
		{"query", "LogsByDate", "--all", "-o", "jsonl", "--select", "Level"},
		{"query", "LogsByDate", "--all", "-o", "json", "--select", "Level"},
		{"query", "LogsByDate", "--all", "-o", "table", "--select", "Level"},
		{"query", "LogsByDate", "--all", "-o", "json", "--filter", "Level ne 'none'"},
	} {
		wantInterrupted(t, strings.Join(args, " "), interruptRun(t, tstable(args...), printing))
	}
	// The commands that read the whole file.
	for _, args := range [][]string{{"stats", "LogsByDate"}, {"lint", "LogsByDate"}, {"check"}} {
		wantInterrupted(t, strings.Join(args, " "), interruptRun(t, tstable(args...), reading))
	}

	t.Run("import from a pipe", func(t *testing.T) {
		ok("table", "create", "Piped")
		c := tstable("import", "Piped")
		in, err := c.StdinPipe()
		if err != nil {
			t.Fatal(err)
		}
		var written atomic.Int64
		data, _ := os.ReadFile(jsonl)
		go func() { // half the input, then the pipe stays open and silent
			n, _ := in.Write(data[:len(data)/2])
			written.Add(int64(n))
		}()
		r := interruptRun(t, c, func(int, int64) bool { return written.Load() > 0 })
		in.Close()
		wantInterrupted(t, "import from a pipe", r)
		if !strings.HasPrefix(r.stderr, "imported 0 entities into Piped before the import was interrupted\n") {
			t.Errorf("import said %q", r.stderr)
		}
		if n := count(t, db, "Piped"); n != 0 {
			t.Errorf("Piped holds %d entities after an interrupted import that imported none", n)
		}
	})
	t.Run("import into a table that holds entities", func(t *testing.T) {
		ok("table", "create", "Held")
		ok("insert", "Held", `{"PartitionKey":"0","RowKey":"0"}`)
		r := interruptRun(t, tstable("import", "Held", jsonl), func(pid int, _ int64) bool { return readPast(pid, jsonl, 1<<20) })
		wantInterrupted(t, "import", r)
		m := regexp.MustCompile(`^imported (\d+) entit(?:y|ies) into Held before the import was interrupted\n`).FindStringSubmatch(r.stderr)
		if m == nil {
			t.Fatalf("import said %q", r.stderr)
		}
		if said, _ := strconv.Atoi(m[1]); count(t, db, "Held") != said+1 {
			t.Errorf("import said it imported %d; Held holds %d besides the one it held", said, count(t, db, "Held")-1)
		}
	})
	checked(t, db)

	t.Run("copy", func(t *testing.T) {
		to := filepath.Join(dir, "copy.db")
		r := interruptRun(t, tstable("copy", "LogsByDate", "--to-db", to), func(int, int64) bool { return pathExists(to) })
		wantInterrupted(t, "copy", r)
		said := 0
		if m := regexp.MustCompile(`^copy stopped after (\d+) entit(?:y|ies); run the same command with --resume to continue\n`).FindStringSubmatch(r.stderr); m != nil {
			said, _ = strconv.Atoi(m[1])
		} else if !strings.HasPrefix(r.stderr, "copy was interrupted before it committed any entity\n") {
			t.Fatalf("copy said %q", r.stderr)
		}
		if count(t, to, "LogsByDate") != said {
			t.Errorf("copy said it copied %d; the copy holds %d", said, count(t, to, "LogsByDate"))
		}
		checked(t, to)
	})
	t.Run("recover", func(t *testing.T) {
		to := filepath.Join(dir, "recovered.db")
		r := interruptRun(t, tstable("recover", db, to), func(int, int64) bool { return pathExists(to) })
		wantInterrupted(t, "recover", r)
		if want := "recover was interrupted: " + to + " was removed (it held only part of what can be saved); " + db + " is unchanged\n"; !strings.HasPrefix(r.stderr, want) {
			t.Errorf("recover said %q, want %q first", r.stderr, want)
		}
		if pathExists(to) {
			t.Errorf("an interrupted recover left %s", to)
		}
	})
	t.Run("sample load", func(t *testing.T) {
		r := interruptRun(t, tstable("sample", "load", "logs", "--size", "100000", "--table", "Again"), reading)
		wantInterrupted(t, "sample load", r)
		if want := "sample load was interrupted before any of its entities was committed\n"; !strings.HasPrefix(r.stderr, want) {
			t.Errorf("sample load said %q, want %q first", r.stderr, want)
		}
		for _, table := range []string{"AgainByDate", "AgainSpread"} {
			if n := count(t, db, table); n != 0 {
				t.Errorf("%s holds %d entities", table, n)
			}
		}
	})
	t.Run("compact", func(t *testing.T) {
		before := count(t, db, "LogsSpread")
		tmp := filepath.Join(dir, ".big.db.compact")
		r := interruptRun(t, tstable("compact"), func(int, int64) bool { return pathExists(tmp) })
		wantInterrupted(t, "compact", r)
		if want := "compact was interrupted: " + db + " is unchanged\n"; !strings.HasPrefix(r.stderr, want) {
			t.Errorf("compact said %q, want %q first", r.stderr, want)
		}
		if pathExists(tmp) {
			t.Errorf("an interrupted compact left %s", tmp)
		}
		if after := count(t, db, "LogsSpread"); after != before {
			t.Errorf("LogsSpread held %d entities before compact, %d after", before, after)
		}
	})
	checked(t, db)
}
