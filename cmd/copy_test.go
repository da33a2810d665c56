package cmd

import (
	"context"
	"encoding/json"
	"errors"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"testing"

	"github.com/tstable/tstable/backend"
)

// canonical is an export with Timestamps and ETags dropped and each
// entity's members sorted, so two backends' exports compare.
func canonical(t *testing.T, export string) string {
	t.Helper()
	var lines []string
	for _, l := range strings.Split(strings.TrimSpace(export), "\n") {
		if l == "" {
			continue
		}
		var m map[string]any
		if err := json.Unmarshal([]byte(l), &m); err != nil {
			t.Fatalf("%v: %s", err, l)
		}
		delete(m, "Timestamp")
		delete(m, "odata.etag")
		b, _ := json.Marshal(m) // maps marshal with sorted keys
		lines = append(lines, string(b))
	}
	sort.Strings(lines)
	return strings.Join(lines, "\n")
}

func TestCopyInterruptedAndResumed(t *testing.T) {
	isolateState(t)
	src := filepath.Join(t.TempDir(), "src.db")
	dst := filepath.Join(t.TempDir(), "dst.db")
	mustRun(t, src, "", "sample", "load", "logs", "--size", "12000")

	// The destination fails to take the second chunk, as an interruption
	// would stop it.
	_, errOut, status := runWith(context.Background(), failSecondLoad(), src, "", "copy", "LogsByDate", "--to-db", dst)
	if status != 1 || !strings.Contains(errOut, "copy stopped after 5000 entities; run the same command with --resume to continue") {
		t.Fatalf("interrupted copy: exit %d, stderr %q", status, errOut)
	}
	if n := strings.Count(mustRun(t, dst, "", "export", "LogsByDate"), "\n"); n != 5000 {
		t.Fatalf("after the interruption the destination has %d entities, want the 5000 committed", n)
	}

	_, errOut, status = run(context.Background(), src, "", "copy", "LogsByDate", "--to-db", dst, "--resume")
	if status != 0 || !strings.Contains(errOut, "resuming after 5000 entities") || !strings.Contains(errOut, "copied 7000 entities from LogsByDate to LogsByDate (12000 in all, resumed after 5000)") {
		t.Fatalf("resumed copy: exit %d, stderr %q", status, errOut)
	}
	if a, b := canonical(t, mustRun(t, src, "", "export", "LogsByDate")), canonical(t, mustRun(t, dst, "", "export", "LogsByDate")); a != b {
		t.Fatal("after resuming, the destination's export differs from the source's")
	}
	// The checkpoint is gone: --resume now starts over.
	_, errOut, _ = run(context.Background(), src, "", "copy", "LogsByDate", "--to-db", dst, "--resume")
	if !strings.Contains(errOut, "no interrupted copy to resume") {
		t.Errorf("stderr %q", errOut)
	}
}

// failSecondLoad is a Factory whose storage refuses every load for
// writing after the first one: a copy stops after its first chunk.
func failSecondLoad() *Factory {
	f := &Factory{}
	loads := 0
	f.Opener = func(ctx context.Context, t Target, write bool) (backend.Backend, error) {
		b, err := (&Factory{IO: f.IO}).Open(ctx, t, write)
		if err != nil || !write {
			return b, err
		}
		return &loadLimit{Backend: b, loads: &loads}, nil
	}
	return f
}

// loadLimit is a backend whose loads fail after the first.
type loadLimit struct {
	backend.Backend
	loads *int
}

func (b *loadLimit) Load(ctx context.Context, table string, kind backend.OpKind, src backend.EntitySource, opts backend.LoadOptions) (*backend.LoadResult, error) {
	if *b.loads++; *b.loads > 1 {
		return &backend.LoadResult{}, errors.New("interrupted")
	}
	return b.Backend.Load(ctx, table, kind, src, opts)
}

func TestCopyFilterAndRename(t *testing.T) {
	isolateState(t)
	src := filepath.Join(t.TempDir(), "src.db")
	dst := filepath.Join(t.TempDir(), "dst.db")
	seed(t, src)
	_, errOut, status := run(context.Background(), src, "", "copy", "People", "--to-db", dst, "--to-table", "Sales", "--filter", "PartitionKey eq 'Sales'")
	if status != 0 || !strings.Contains(errOut, "copied 3 entities from People to Sales") {
		t.Fatalf("exit %d, stderr %q", status, errOut)
	}
	want := canonical(t, mustRun(t, src, "", "export", "People", "--filter", "PartitionKey eq 'Sales'"))
	if got := canonical(t, mustRun(t, dst, "", "export", "Sales")); got != want {
		t.Errorf("copied:\n%s\nwant:\n%s", got, want)
	}
}

func TestCopyUsage(t *testing.T) {
	db := filepath.Join(t.TempDir(), "t.db")
	seed(t, db)
	for _, args := range [][]string{
		{"copy", "People"},
		{"copy", "People", "--to-db", "x.db", "--to-connection-string", "UseDevelopmentStorage=true"},
		{"copy", "People", "--to-db", db},
	} {
		if _, errOut, status := run(context.Background(), db, "", args...); status != 2 {
			t.Errorf("%q: exit %d, stderr %q; want a usage error", args, status, errOut)
		}
	}
}

// A destination whose folder is not there (here a file stands in its
// way) is said to be so, before anything is read; no folder is made.
func TestCopyToAFolderThatCannotBeMade(t *testing.T) {
	isolateState(t)
	db := filepath.Join(t.TempDir(), "t.db")
	seed(t, db)
	notDir := filepath.Join(t.TempDir(), "file")
	os.WriteFile(notDir, nil, 0o644)
	_, errOut, status := run(context.Background(), db, "", "copy", "People", "--to-db", filepath.Join(notDir, "sub", "dst.db"))
	if want := "error: ResourceNotFound: cannot create the database " + filepath.Join(notDir, "sub", "dst.db") + ": the folder " + filepath.Join(notDir, "sub") + " does not exist"; status != ExitFailed || !strings.HasPrefix(errOut, want) {
		t.Fatalf("exit %d, stderr %q", status, errOut)
	}
}
