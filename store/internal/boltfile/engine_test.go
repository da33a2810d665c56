package boltfile

import (
	"errors"
	"os"
	"os/exec"
	"runtime/debug"
	"slices"
	"strconv"
	"strings"
	"testing"

	bolt "go.etcd.io/bbolt"
)

// The package was verified against the versions of the engine in
// VerifiedEngine only: building with another fails here until its source
// has been read again for every rule the package's doc lists, and the
// version added to the list (and to the doc).
func TestTheEngineIsAVerifiedVersion(t *testing.T) {
	v := engineVersion(t)
	if !slices.Contains(VerifiedEngine, v) {
		t.Fatalf("the module builds with go.etcd.io/bbolt %s; boltfile was verified against %v only: read the engine's source again for each rule in boltfile's doc, then add the version to VerifiedEngine", v, VerifiedEngine)
	}
	doc, err := os.ReadFile("doc.go")
	if err != nil {
		t.Fatal(err)
	}
	for _, v := range VerifiedEngine {
		if !strings.Contains(string(doc), "bbolt "+v) {
			t.Errorf("doc.go does not name bbolt %s, which VerifiedEngine lists", v)
		}
	}
}

// engineVersion is the version of go.etcd.io/bbolt the module builds
// with: from the binary's build information when it records it, else from
// the go command's view of the module (a test binary records none).
func engineVersion(t *testing.T) string {
	t.Helper()
	if bi, ok := debug.ReadBuildInfo(); ok {
		for _, d := range bi.Deps {
			if d.Path == "go.etcd.io/bbolt" {
				if d.Replace != nil {
					return d.Replace.Version
				}
				return d.Version
			}
		}
	}
	out, err := exec.Command("go", "list", "-m", "-f", "{{if .Replace}}{{.Replace.Version}}{{else}}{{.Version}}{{end}}", "go.etcd.io/bbolt").Output()
	if errors.Is(err, exec.ErrNotFound) {
		t.Skip("the go command is not installed")
	}
	if err != nil {
		t.Fatalf("go list -m go.etcd.io/bbolt: %v", err)
	}
	return strings.TrimSpace(string(out))
}

// The engine's own panics on a damaged page, met for real, are still
// understood by DescribePanic: a page that calls itself by another number,
// and one of an unknown kind, each named.
func TestTheEnginesPanicOnADamagedPageIsUnderstood(t *testing.T) {
	for _, c := range []struct {
		name   string
		damage func(id uint64) []byte // bytes for the start of the page
		want   string
	}{
		{"another number", func(id uint64) []byte { return Order.AppendUint64(nil, id+1000) }, "does not hold what the page that leads to it expects"},
		{"unknown kind", func(id uint64) []byte {
			return Order.AppendUint16(Order.AppendUint64(nil, id), 0x20)
		}, "does not hold what the page that leads to it expects"},
	} {
		t.Run(c.name, func(t *testing.T) {
			path := buildFile(t)
			key := testKey(12345)
			var leaf uint64
			inView(t, path, func(tx *bolt.Tx, ck *Checker) {
				leaf = leafOf(t, ck, uint64(tx.Bucket([]byte("big")).RootPage()), key)
			})
			overwrite(t, path, int64(leaf)*testPageSize, c.damage(leaf))
			r := enginePanic(t, path, func(tx *bolt.Tx) { tx.Bucket([]byte("big")).Get(key) })
			if r == nil {
				t.Fatal("the engine read the damaged page without a panic")
			}
			got := DescribePanic(r)
			if want := "page " + strconv.FormatUint(leaf, 10) + " " + c.want; got != want {
				t.Fatalf("the engine panicked with %q; DescribePanic says %q, want %q", r, got, want)
			}
		})
	}
}

// enginePanic runs fn in a read transaction of the engine on the file at
// path and returns what it panicked with, or nil.
func enginePanic(t *testing.T, path string, fn func(tx *bolt.Tx)) (r any) {
	t.Helper()
	db, err := bolt.Open(path, 0o600, &bolt.Options{ReadOnly: true})
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	defer func() { r = recover() }()
	db.View(func(tx *bolt.Tx) error {
		fn(tx)
		return nil
	})
	return nil
}

// leafOf is the leaf page under root that key's lookup reaches.
func leafOf(t *testing.T, ck *Checker, root uint64, key []byte) uint64 {
	t.Helper()
	id := root
	for {
		b, err := ck.branchIn(id)
		if err != nil {
			t.Fatal(err)
		}
		if b.leaf {
			return id
		}
		id = b.kids[Slot(b.keys, key)]
	}
}

// overwrite writes b into the file at path at off.
func overwrite(t *testing.T, path string, off int64, b []byte) {
	t.Helper()
	f, err := os.OpenFile(path, os.O_WRONLY, 0)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	if _, err := f.WriteAt(b, off); err != nil {
		t.Fatal(err)
	}
}

func errorsAs(err error, target any) bool { return errors.As(err, target) }
