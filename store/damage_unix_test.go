//go:build unix

package store

import (
	"os"
	"syscall"
	"testing"

	"github.com/tstable/tstable/backend"
	"github.com/tstable/tstable/odata"
)

// A file cut short under an open DB is a Unix case: Windows refuses to
// truncate a file that a process has mapped.
func TestAFaultWhileReadingIsAnError(t *testing.T) {
	path := fixture(t)
	db, err := Open(path, &Options{ReadOnly: true})
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	// Cut the file under the open DB: its pages past the cut are still
	// mapped, and reading them faults.
	truncate(t, path, 5*4096)
	_, err = db.Query(ctx, "Alpha", backend.QueryRequest{}, func(*odata.Entity) error { return nil })
	wantDamaged(t, err, "tstable check")

	// And a fault in the engine's own memory reads, directly: a mapping
	// past the end of a file.
	f, err := os.OpenFile(path, os.O_RDWR, 0)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	m, err := syscall.Mmap(int(f.Fd()), 0, 64*4096, syscall.PROT_READ, syscall.MAP_SHARED)
	if err != nil {
		t.Skip("cannot map the file:", err)
	}
	defer syscall.Munmap(m)
	err = db.do(false, func(o *op) error {
		sink = m[40*4096] // past the end: SIGBUS
		return nil
	})
	wantDamaged(t, err, "cannot be read")
}

var sink byte
