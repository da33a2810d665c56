//go:build unix

package boltfile

import (
	"os"
	"runtime/debug"
	"strings"
	"testing"

	bolt "go.etcd.io/bbolt"
)

// A fault reading the engine's memory map past the end of a file cut
// under it is understood too. (Windows refuses to cut a mapped file.)
func TestAFaultInTheEnginesMapIsUnderstood(t *testing.T) {
	path := buildFile(t)
	db, err := bolt.Open(path, 0o600, &bolt.Options{ReadOnly: true})
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	if err := os.Truncate(path, 8*testPageSize); err != nil {
		t.Fatal(err)
	}
	var r any
	func() {
		prev := debug.SetPanicOnFault(true)
		defer func() {
			r = recover()
			debug.SetPanicOnFault(prev)
		}()
		db.View(func(tx *bolt.Tx) error {
			c := tx.Bucket([]byte("big")).Cursor()
			for k, _ := c.First(); k != nil; k, _ = c.Next() {
			}
			return nil
		})
	}()
	if got := DescribePanic(r); !strings.HasPrefix(got, "a page it refers to cannot be read") {
		t.Fatalf("the engine's fault %v is described as %q", r, got)
	}
}
