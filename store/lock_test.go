package store

import (
	"bufio"
	"bytes"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"reflect"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/tstable/tstable/backend"
	"github.com/tstable/tstable/odata"
	"github.com/tstable/tstable/store/internal/bulk"
	"github.com/tstable/tstable/store/internal/values"
)

// TestHelperProcess is not a test of its own: the lock tests run the test
// binary again with TSTABLE_STORE_HELPER set, to use a database from
// another process. "hold" opens it for writing, says "ready" and keeps it
// until its standard input closes; "load", "stage" and "spill" load into
// table Slow (see each); "read" opens it for reading (waiting up
// to 20 s) and says how many entities table Slow holds.
func TestHelperProcess(t *testing.T) {
	mode, path := os.Getenv("TSTABLE_STORE_HELPER"), os.Getenv("TSTABLE_STORE_DB")
	if mode == "" {
		t.Skip("run by the lock tests in another process")
	}
	switch mode {
	case "hold":
		db, err := Open(path, nil)
		if err != nil {
			fmt.Println("error:", err)
			os.Exit(1)
		}
		fmt.Println("ready")
		io.Copy(io.Discard, os.Stdin)
		db.Close()
	case "load":
		// A load in random key order that spills its runs and commits
		// chunks of 100, saying how many it has committed after each.
		db, err := Open(path, &Options{loadRun: 16 << 10, loadChunk: 100})
		if err != nil {
			fmt.Println("error:", err)
			os.Exit(1)
		}
		_, err = db.Load(ctx, "Slow", backend.OpInsert, sliceSource(shuffled(20000, 8)), backend.LoadOptions{Progress: func(n int64) {
			fmt.Println("committed", n)
			time.Sleep(5 * time.Millisecond)
		}})
		fmt.Println("error:", err)
		os.Exit(1)
	case "stage":
		// A load in key order into the empty table, which it stages in
		// chunks of 100, saying how many it has staged after each.
		db, err := Open(path, &Options{loadChunk: 100})
		if err != nil {
			fmt.Println("error:", err)
			os.Exit(1)
		}
		want := shuffled(20000, 0)
		for i := range want {
			want[i] = benchEntity(i)
		}
		slices.SortFunc(want, func(a, b *odata.Entity) int {
			return bytes.Compare(values.EntityKey(a.PartitionKey, a.RowKey), values.EntityKey(b.PartitionKey, b.RowKey))
		})
		_, err = db.Load(ctx, "Slow", backend.OpInsert, sliceSource(want), backend.LoadOptions{Progress: func(n int64) {
			fmt.Println("committed", n)
			time.Sleep(5 * time.Millisecond)
		}})
		fmt.Println("error:", err)
		os.Exit(1)
	case "spill":
		// A load in random key order that spills its runs to its
		// temporary file, says so, and stops there until it is killed.
		db, err := Open(path, &Options{loadRun: 16 << 10})
		if err != nil {
			fmt.Println("error:", err)
			os.Exit(1)
		}
		src := sliceSource(shuffled(20000, 8))
		_, err = db.Load(ctx, "Slow", backend.OpInsert, func() (*odata.Entity, error) {
			if left, _ := filepath.Glob(bulk.TempPattern(path)); len(left) > 0 {
				fmt.Println("spilled")
				select {}
			}
			return src()
		}, backend.LoadOptions{})
		fmt.Println("error:", err)
		os.Exit(1)
	case "churn":
		// Writes of every kind, for ever, until it is killed.
		db, err := Open(path, &Options{loadChunk: 300})
		if err != nil {
			fmt.Println("error:", err)
			os.Exit(1)
		}
		fmt.Println("ready")
		churn(db)
	case "read":
		db, err := Open(path, &Options{ReadOnly: true, Wait: 20 * time.Second, OnWait: func(h string) { fmt.Println("waiting for", h) }})
		if err != nil {
			fmt.Println("error:", err)
			os.Exit(1)
		}
		n := 0
		if _, err := db.Query(ctx, "Slow", backend.QueryRequest{}, func(*odata.Entity) error { n++; return nil }); err != nil {
			fmt.Println("error:", err)
			os.Exit(1)
		}
		db.Close()
		fmt.Println("read", n)
	}
	os.Exit(0)
}

// helper starts the test binary as a helper process; lines delivers what
// it prints.
func helper(t *testing.T, mode, path string) (cmd *exec.Cmd, stdin io.WriteCloser, lines <-chan string) {
	t.Helper()
	cmd = exec.Command(os.Args[0], "-test.run=^TestHelperProcess$")
	cmd.Env = append(os.Environ(), "TSTABLE_STORE_HELPER="+mode, "TSTABLE_STORE_DB="+path)
	stdin, err := cmd.StdinPipe()
	if err != nil {
		t.Fatal(err)
	}
	out, err := cmd.StdoutPipe()
	if err != nil {
		t.Fatal(err)
	}
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	ch := make(chan string, 16)
	go func() {
		sc := bufio.NewScanner(out)
		for sc.Scan() {
			ch <- sc.Text()
		}
		close(ch)
	}()
	t.Cleanup(func() {
		stdin.Close()
		cmd.Process.Kill()
		cmd.Wait()
	})
	return cmd, stdin, ch
}

// expect waits for the helper to print a line starting with prefix.
func expect(t *testing.T, lines <-chan string, prefix string) string {
	t.Helper()
	timeout := time.After(30 * time.Second)
	for {
		select {
		case l, ok := <-lines:
			if !ok {
				t.Fatalf("the helper ended before saying %q", prefix)
			}
			if strings.HasPrefix(l, prefix) {
				return l
			}
			if strings.HasPrefix(l, "error:") {
				t.Fatalf("helper: %s", l)
			}
		case <-timeout:
			t.Fatalf("the helper did not say %q", prefix)
		}
	}
}

func newFile(t *testing.T) string {
	t.Helper()
	path := dbPath(t, "t.db")
	db, err := Open(path, nil)
	if err != nil {
		t.Fatal(err)
	}
	newTable(t, db, "Slow")
	db.Close()
	return path
}

func TestGivingUpNamesTheHolder(t *testing.T) {
	path := newFile(t)
	cmd, _, lines := helper(t, "hold", path)
	expect(t, lines, "ready")
	name, pid := progName(), fmt.Sprintf("(pid %d)", cmd.Process.Pid)
	if !holdersNamed {
		name, pid = "another process", "another process"
	}
	for _, ro := range []bool{false, true} {
		var told []string
		start := time.Now()
		_, err := Open(path, &Options{ReadOnly: ro, Wait: 300 * time.Millisecond, OnWait: func(h string) { told = append(told, h) }})
		e := wantCode(t, err, odata.CodeDatabaseLocked, 409)
		if waited := time.Since(start); waited < 300*time.Millisecond || waited > 5*time.Second {
			t.Errorf("waited %s for a wait of 300ms", waited)
		}
		if len(told) != 1 || !strings.HasPrefix(told[0], name) || !strings.Contains(told[0], pid) {
			t.Errorf("OnWait was told %q, want one call naming %s %s", told, name, pid)
		}
		for _, want := range []string{path + " is in use by " + name, pid, "waited 300ms", "--wait"} {
			if !strings.Contains(e.Message, want) {
				t.Errorf("message %q lacks %q", e.Message, want)
			}
		}
	}
}

func TestNoWaitFailsAtOnce(t *testing.T) {
	path := newFile(t)
	_, _, lines := helper(t, "hold", path)
	expect(t, lines, "ready")
	called := false
	start := time.Now()
	_, err := Open(path, &Options{Wait: -1, OnWait: func(string) { called = true }})
	e := wantCode(t, err, odata.CodeDatabaseLocked, 409)
	if called || time.Since(start) > time.Second || !strings.Contains(e.Message, "let tstable wait for it with --wait") {
		t.Fatalf("called %v, after %s: %s", called, time.Since(start), e.Message)
	}
}

func TestOpenWaitsUntilTheHolderLetsGo(t *testing.T) {
	path := newFile(t)
	_, stdin, lines := helper(t, "hold", path)
	expect(t, lines, "ready")
	var calls int
	done := make(chan error)
	go func() {
		db, err := Open(path, &Options{Wait: 20 * time.Second, OnWait: func(string) { calls++ }})
		if err == nil {
			db.Close()
		}
		done <- err
	}()
	select {
	case err := <-done:
		t.Fatalf("Open returned while the file was held: %v", err)
	case <-time.After(300 * time.Millisecond):
	}
	stdin.Close() // the holder closes the database and ends
	select {
	case err := <-done:
		if err != nil || calls != 1 {
			t.Fatalf("Open: %v, OnWait called %d times", err, calls)
		}
	case <-time.After(10 * time.Second):
		t.Fatal("Open did not get the file after its holder let go")
	}
}

// A long load does not hold the file while it reads its source: a reader
// gets in at once, without waiting, and sees the table as it was, for the
// load writes nothing before it has read and checked the whole source.
func TestLongLoadLetsAReaderIn(t *testing.T) {
	path := newFile(t)
	db, err := Open(path, &Options{loadEvery: 100 * time.Millisecond})
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	for i := 0; i < 10; i++ {
		mustWrite(t, db, "Slow", backend.OpInsert, ent("a", fmt.Sprint(i)))
	}
	const total = 15000
	type line struct {
		text string
		at   time.Time
	}
	var (
		mu        sync.Mutex
		said      []line
		readerCmd *exec.Cmd
		heard     = make(chan struct{})
	)
	i := 0
	src := func() (*odata.Entity, error) {
		if i == total {
			return nil, io.EOF
		}
		if i%100 == 0 {
			time.Sleep(20 * time.Millisecond) // a slow source: the load takes about 3 s
		}
		if i == 2000 {
			var reader <-chan string
			readerCmd, _, reader = helper(t, "read", path)
			go func() {
				defer close(heard)
				for l := range reader {
					mu.Lock()
					said = append(said, line{l, time.Now()})
					mu.Unlock()
				}
			}()
		}
		i++
		return ent("p", fmt.Sprintf("%06d", i), prop("N", odata.Int32(int32(i)))), nil
	}
	began := time.Now()
	res, err := db.Load(ctx, "Slow", backend.OpInsert, src, backend.LoadOptions{})
	loadEnded := time.Now()
	if err != nil || res.Written != total {
		t.Fatalf("load: %+v %v", res, err)
	}
	readerCmd.Wait()
	<-heard
	mu.Lock()
	defer mu.Unlock()
	var waitLine, readLine line
	for _, l := range said {
		switch {
		case strings.HasPrefix(l.text, "waiting for"):
			waitLine = l
		case strings.HasPrefix(l.text, "read "):
			readLine = l
		}
	}
	if waitLine.text != "" {
		t.Errorf("the reader waited (%q) while the load read its source", waitLine.text)
	}
	var n int64
	fmt.Sscanf(readLine.text, "read %d", &n)
	if readerCmd.ProcessState.ExitCode() != 0 || n != 10 || !readLine.at.Before(loadEnded) {
		t.Fatalf("the reader said %q (exit %d) at %s, the load ended at %s; want 10 entities, before the end", readLine.text, readerCmd.ProcessState.ExitCode(), readLine.at.Sub(began), loadEnded.Sub(began))
	}
	if took := loadEnded.Sub(began); took < 2*time.Second {
		t.Fatalf("the load took only %s", took)
	}
	if got := len(dump(t, db, "Slow")); got != total+10 {
		t.Fatalf("the table holds %d", got)
	}
}

// progName is this test binary's name as a message names it.
func progName() string {
	return strings.TrimSuffix(filepath.Base(os.Args[0]), ".exe")
}

func TestRenderCommand(t *testing.T) {
	for _, c := range []struct {
		args []string
		want string
	}{
		{[]string{"/usr/local/bin/tstable", "import", "People", "big.jsonl"}, "tstable import People big.jsonl"},
		{[]string{"tstable", "query", "T", "--filter", "A eq 'x y'"}, `tstable query T --filter "A eq 'x y'"`},
		{[]string{filepath.Join("bin", "tstable.exe"), "get", "T", "p", ""}, `tstable get T p ""`},
		{nil, ""},
		{[]string{"/x/tstable", strings.Repeat("a", 100)}, "tstable " + strings.Repeat("a", 51) + "…"},
	} {
		if got := renderCommand(c.args); got != c.want {
			t.Errorf("%q: got %q, want %q", c.args, got, c.want)
		}
	}
	if got := describeHolders([]holder{{1, "a"}, {2, "b"}}); got != "a (pid 1) and b (pid 2)" {
		t.Error(got)
	}
	if got := describeHolders(nil); got != "another process" {
		t.Error(got)
	}
}

// killAfterCommits runs the helper process in mode on path, and kills it
// (SIGKILL) once it says it has committed at least n entities, returning
// the count it said last.
func killAfterCommits(t *testing.T, mode, path string, n int64) (seen int64) {
	t.Helper()
	cmd, _, lines := helper(t, mode, path)
	for seen < n {
		fmt.Sscanf(expect(t, lines, "committed "), "committed %d", &seen)
	}
	if err := cmd.Process.Kill(); err != nil {
		t.Fatal(err)
	}
	cmd.Wait()
	return seen
}

// A load killed while it writes leaves a file that opens, holding whole
// chunks: the source's entities up to some key, in key order.
func TestKilledLoadLeavesAKeyPrefix(t *testing.T) {
	path := newFile(t)
	seen := killAfterCommits(t, "load", path, 1000)
	if left := tempFiles(t, path); len(left) != 1 {
		t.Fatalf("temporary files: %v; want the one the killed load left", left)
	}
	db, err := Open(path, nil)
	if err != nil {
		t.Fatalf("the file does not open after the kill: %v", err)
	}
	defer db.Close()
	got := dump(t, db, "Slow")
	want := shuffled(20000, 0)
	for i := range want {
		want[i] = benchEntity(i)
	}
	slices.SortFunc(want, func(a, b *odata.Entity) int {
		return bytes.Compare(values.EntityKey(a.PartitionKey, a.RowKey), values.EntityKey(b.PartitionKey, b.RowKey))
	})
	if int64(len(got)) < seen || len(got)%100 != 0 || !reflect.DeepEqual(keysOf(got), keysOf(want[:len(got)])) {
		t.Fatalf("the table holds %d entities (%d committed when killed); want whole chunks of the first keys", len(got), seen)
	}
	if left := tempFiles(t, path); len(left) != 0 {
		t.Fatalf("temporary files left after a write open: %v", left)
	}
	t.Logf("%d entities committed before the kill", len(got))
}

// A load whose source waits (a producer that is silent) holds nothing
// meanwhile: another opening of the file, for writing, gets it at once —
// for a load staged into an empty table and for one sorted into a table
// that holds rows — and the load then ends with every row.
func TestLoadWaitingForItsSourceHoldsNothing(t *testing.T) {
	for _, held := range []bool{false, true} {
		path := newFile(t)
		db, err := Open(path, nil)
		if err != nil {
			t.Fatal(err)
		}
		if held {
			mustWrite(t, db, "Slow", backend.OpInsert, ent("a", "0"))
		}
		silent, resume := make(chan struct{}), make(chan struct{})
		i := 0
		src := func() (*odata.Entity, error) {
			switch i {
			case 40:
				close(silent)
				<-resume
			case 80:
				return nil, io.EOF
			}
			i++
			return ent("p", fmt.Sprintf("%04d", i)), nil
		}
		done := make(chan error, 1)
		go func() {
			_, err := db.Load(ctx, "Slow", backend.OpInsert, src, backend.LoadOptions{})
			done <- err
		}()
		<-silent
		other, err := Open(path, &Options{Wait: -1})
		if err != nil {
			t.Fatalf("held %v: another opening while the source waits: %v", held, err)
		}
		if err := other.CreateTable(ctx, "Other"); err != nil {
			t.Fatal(err)
		}
		mustWrite(t, other, "Other", backend.OpInsert, ent("x", "1"))
		other.Close()
		close(resume)
		if err := <-done; err != nil {
			t.Fatalf("held %v: load: %v", held, err)
		}
		want := 80
		if held {
			want++
		}
		if got := len(dump(t, db, "Slow")); got != want {
			t.Errorf("held %v: the table holds %d, want %d", held, got, want)
		}
		db.Close()
	}
}
