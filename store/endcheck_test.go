package store

import (
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	bolt "go.etcd.io/bbolt"
)

// Every database file a test of this package opens is checked when the
// test ends, twice: by the engine's own consistency check (tx.Check, as
// the engine's test helper runs it after each of its tests) and by
// tstable's Check. Both must find it sound; a test that leaves a file the
// two readers disagree on fails, whichever of them complains.
//
// A test gets its files from dbPath (or a helper built on it: openTemp,
// fixture, newFile, …), which registers the check. A test that damages a
// file on purpose says so with damaging (the damage helpers smash and
// writeAt do it themselves). TestMain fails the run when a test opened a
// database file that neither dbPath nor damaging covered, so a new test
// cannot skip the check by opening a file of its own.

// testFiles is what the tests opened, and what is covered.
var testFiles = struct {
	sync.Mutex
	opened, covered, damaged map[string]bool
}{opened: map[string]bool{}, covered: map[string]bool{}, damaged: map[string]bool{}}

func init() {
	testOpened = func(path string) {
		testFiles.Lock()
		testFiles.opened[filepath.Clean(path)] = true
		testFiles.Unlock()
	}
}

func TestMain(m *testing.M) {
	code := m.Run()
	if benchPath != "" {
		os.RemoveAll(filepath.Dir(benchPath)) // the benchmarks' file, built once per run
	}
	testFiles.Lock()
	var missed []string
	for p := range testFiles.opened {
		if !testFiles.covered[p] && !testFiles.damaged[p] {
			missed = append(missed, p)
		}
	}
	testFiles.Unlock()
	if code == 0 && len(missed) > 0 {
		slices.Sort(missed)
		fmt.Fprintf(os.Stderr, "FAIL: tests opened database files that are not checked when they end (make them with dbPath, or call damaging): %q\n", missed)
		code = 1
	}
	os.Exit(code)
}

// dbPath is the path of a database file named name in a new folder of
// the test's, which is checked when the test ends.
func dbPath(t testing.TB, name string) string {
	t.Helper()
	path := filepath.Join(t.TempDir(), name)
	checkAtEnd(t, path)
	return path
}

// checkAtEnd has the file at path checked when the test ends (after the
// clean-ups registered later, which close the test's DBs), unless the
// test damages it on purpose.
func checkAtEnd(t testing.TB, path string) {
	t.Helper()
	path = filepath.Clean(path)
	testFiles.Lock()
	testFiles.covered[path] = true
	testFiles.Unlock()
	t.Cleanup(func() {
		testFiles.Lock()
		skip := testFiles.damaged[path]
		testFiles.Unlock()
		if !skip && !t.Failed() {
			wantSound(t, path)
		}
	})
}

// damaging says that the test damages the file at path on purpose: it is
// not checked when the test ends.
func damaging(path string) {
	testFiles.Lock()
	testFiles.damaged[filepath.Clean(path)] = true
	testFiles.Unlock()
}

// unchecked says that the file at path is not checked when its test or
// benchmark ends: a benchmark's file is too large to check after each
// run (the tests check what the same code writes).
func unchecked(path string) { damaging(path) }

// benchFile is the path of a benchmark's database file named name, in a
// new folder of the benchmark's, unchecked.
func benchFile(b *testing.B, name string) string {
	path := filepath.Join(b.TempDir(), name)
	unchecked(path)
	return path
}

// wantSound fails the test unless both the engine's check and tstable's
// find the file at path sound. A file that does not exist, or is empty,
// holds no database to check.
func wantSound(t testing.TB, path string) {
	t.Helper()
	if st, err := os.Stat(path); err != nil || st.Size() == 0 {
		return
	}
	rep, err := Check(ctx, path, &ScanOptions{Wait: 2 * time.Second}) // a killed holder lets go a little after it is reaped
	var own, engine []string
	if err != nil {
		own = append(own, err.Error())
	} else {
		for _, p := range rep.Problems {
			own = append(own, p.String())
		}
	}
	if len(own) == 0 {
		// Only now: the engine checks in a goroutine of its own, where a
		// panic on a damaged page would end the whole test binary.
		engine = engineCheck(path)
	}
	if len(engine) > 0 || len(own) > 0 {
		t.Errorf("at the end of the test, %s is not sound:\n  the engine's check: %q\n  tstable's check: %q", path, engine, own)
	}
}

// engineCheck runs the engine's consistency check on the file at path and
// returns what it reports.
func engineCheck(path string) (problems []string) {
	defer func() {
		if r := recover(); r != nil {
			problems = append(problems, fmt.Sprint("the engine panicked: ", r))
		}
	}()
	b, err := bolt.Open(path, 0o644, &bolt.Options{ReadOnly: true, Timeout: 100 * time.Millisecond})
	if err != nil {
		return []string{"open: " + err.Error()}
	}
	defer b.Close()
	err = b.View(func(tx *bolt.Tx) error {
		for err := range tx.Check() {
			problems = append(problems, err.Error())
		}
		return nil
	})
	if err != nil {
		problems = append(problems, err.Error())
	}
	return problems
}

// recorder is a testing.TB that keeps what a check reports instead of
// failing its test.
type recorder struct {
	testing.TB
	errs []string
}

func (r *recorder) Helper() {}
func (r *recorder) Errorf(format string, args ...any) {
	r.errs = append(r.errs, fmt.Sprintf(format, args...))
}

// The check at a test's end fails the test when either reader finds a
// problem: tstable's own (a table missing from the catalogue, which the
// engine cannot know of) or both (a page in use on the list of free
// pages).
func TestTheEndCheckFailsAFileEitherReaderFaults(t *testing.T) {
	sound := fixture(t)
	r := &recorder{TB: t}
	wantSound(r, sound)
	if len(r.errs) != 0 {
		t.Fatalf("a sound file: %q", r.errs)
	}

	orphan := copyFile(t, sound, "orphan.db")
	underTheEngine(t, orphan, func(tx *bolt.Tx) error {
		_, err := tx.CreateBucket([]byte("t:orphan"))
		return err
	})
	r = &recorder{TB: t}
	wantSound(r, orphan)
	if len(r.errs) != 1 || !strings.Contains(r.errs[0], "not in the catalogue") {
		t.Fatalf("a table outside the catalogue: %q", r.errs)
	}

	freed := copyFile(t, sound, "freed.db")
	raw := openRaw(t, freed)
	e := fixtureEntity("Alpha", 77)
	leaf, _ := raw.leafOf("Alpha", e.PartitionKey, e.RowKey)
	addToFreeList(t, freed, leaf)
	r = &recorder{TB: t}
	wantSound(r, freed)
	if len(r.errs) != 1 || !strings.Contains(r.errs[0], fmt.Sprintf("page %d", leaf)) {
		t.Fatalf("a page in use on the list of free pages: %q", r.errs)
	}
}
