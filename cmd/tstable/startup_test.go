package main

import (
	"bufio"
	"bytes"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"runtime"
	"strconv"
	"testing"
)

// The start-up floor: before main runs, the Go runtime initialises every
// package linked into the binary, and for a point query that work (and
// the pages of the binary it touches) is most of the process's time
// (docs/performance.md; make bench-startup). A program that links only
// the store and the command-line library (scripts/startfloor/withcobra)
// does the same query; tstable may do more at start-up than it by these
// margins at most, counted in what cannot vary with the machine's load:
// the packages whose initialisation does work, the bytes and the
// allocations of that work, as GODEBUG=inittrace=1 reports them.
//
// Measured when the margin was set (Linux, amd64): tstable 131 packages,
// 131.6 KB in 795 allocations; withcobra 52 packages, 30.3 KB in 181.
const (
	maxExtraInitPackages = 85
	maxExtraInitBytes    = 112 << 10
	maxExtraInitAllocs   = 680
)

// TestStartupFloor fails when tstable's package initialisation grows past
// the store + cobra floor by more than the margins above. When it fails,
// see what grew with GODEBUG=inittrace=1 tstable --version: a package
// that builds a table, compiles a regexp or reads the environment at
// init, or a new dependency linked into every command.
func TestStartupFloor(t *testing.T) {
	if runtime.GOOS != "linux" {
		t.Skip("the margins were measured on Linux; other systems link other packages")
	}
	dir := t.TempDir()
	tstable := buildStatic(t, dir, "tstable", ".")
	floor := buildStatic(t, dir, "withcobra", "../../scripts/startfloor/withcobra")
	got, base := initWorkOf(t, tstable, "--version"), initWorkOf(t, floor, "--help")
	extra := initWork{got.packages - base.packages, got.bytes - base.bytes, got.allocs - base.allocs}
	t.Logf("tstable %+v, floor %+v, extra %+v", got, base, extra)
	if extra.packages > maxExtraInitPackages {
		t.Errorf("tstable initialises %d packages more than the store + cobra floor (%d against %d); at most %d", extra.packages, got.packages, base.packages, maxExtraInitPackages)
	}
	if extra.bytes > maxExtraInitBytes {
		t.Errorf("tstable's package initialisation allocates %d bytes more than the floor's (%d against %d); at most %d", extra.bytes, got.bytes, base.bytes, maxExtraInitBytes)
	}
	if extra.allocs > maxExtraInitAllocs {
		t.Errorf("tstable's package initialisation makes %d allocations more than the floor's (%d against %d); at most %d", extra.allocs, got.allocs, base.allocs, maxExtraInitAllocs)
	}
}

// buildStatic builds pkg into dir/name as make build does (without cgo).
func buildStatic(t *testing.T, dir, name, pkg string) string {
	t.Helper()
	out := filepath.Join(dir, name)
	c := exec.Command("go", "build", "-o", out, pkg)
	c.Env = append(os.Environ(), "CGO_ENABLED=0")
	if b, err := c.CombinedOutput(); err != nil {
		t.Fatalf("go build %s: %v\n%s", pkg, err, b)
	}
	return out
}

// initWork is the package initialisation of one process: the packages
// whose init did work, and the bytes and allocations it took.
type initWork struct{ packages, bytes, allocs int }

var initLine = regexp.MustCompile(`^init \S+ @[0-9.]+ ms, [0-9.]+ ms clock, (\d+) bytes, (\d+) allocs$`)

// initWorkOf runs bin with args and GODEBUG=inittrace=1 and adds up what
// the runtime reports of each package's initialisation.
func initWorkOf(t *testing.T, bin string, args ...string) initWork {
	t.Helper()
	c := exec.Command(bin, args...)
	c.Env = append(os.Environ(), "GODEBUG=inittrace=1")
	var stderr bytes.Buffer
	c.Stderr = &stderr
	if err := c.Run(); err != nil {
		t.Fatalf("%s %v: %v\n%s", bin, args, err, stderr.Bytes())
	}
	w, err := parseInitTrace(stderr.Bytes())
	if err != nil || w.packages == 0 {
		t.Fatalf("%s: no init trace read (%v) from:\n%s", bin, err, stderr.Bytes())
	}
	return w
}

// parseInitTrace adds up the lines of an init trace.
func parseInitTrace(trace []byte) (initWork, error) {
	var w initWork
	sc := bufio.NewScanner(bytes.NewReader(trace))
	for sc.Scan() {
		m := initLine.FindSubmatch(sc.Bytes())
		if m == nil {
			continue
		}
		b, err1 := strconv.Atoi(string(m[1]))
		a, err2 := strconv.Atoi(string(m[2]))
		if err1 != nil || err2 != nil {
			return w, fmt.Errorf("bad init line %q", sc.Text())
		}
		w.packages++
		w.bytes += b
		w.allocs += a
	}
	return w, sc.Err()
}

// The parser reads the runtime's lines and nothing else.
func TestParseInitTrace(t *testing.T) {
	trace := "init internal/bytealg @0.010 ms, 0 ms clock, 0 bytes, 0 allocs\n" +
		"init github.com/spf13/cobra @6.0 ms, 0.019 ms clock, 1192 bytes, 14 allocs\n" +
		"tstable version x\n" +
		"init unicode @2.0 ms, 0.047 ms clock, 11400 bytes, 16 allocs\n"
	w, err := parseInitTrace([]byte(trace))
	if err != nil || w != (initWork{3, 12592, 30}) {
		t.Fatalf("got %+v, %v", w, err)
	}
}
