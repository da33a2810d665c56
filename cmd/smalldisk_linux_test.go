//go:build linux

package cmd

import (
	"os"
	"syscall"
	"testing"
)

// smallDisk mounts a 3 MiB file system for the test and returns its
// folder; the test is skipped where that cannot be done (not root).
func smallDisk(t *testing.T) string {
	t.Helper()
	if os.Geteuid() != 0 {
		t.Skip("mounting a small file system needs root")
	}
	dir := t.TempDir()
	if err := syscall.Mount("tmpfs", dir, "tmpfs", 0, "size=3m"); err != nil {
		t.Skipf("cannot mount a 3 MiB tmpfs on %s: %v", dir, err)
	}
	t.Cleanup(func() { syscall.Unmount(dir, 0) })
	return dir
}
