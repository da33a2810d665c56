//go:build linux

package cmd

import (
	"os"
	"syscall"
	"testing"
)

// smallDisk mounts a small file system for the test (a tmpfs with opts,
// such as "size=3m") and returns its folder; the test is skipped where
// that cannot be done (not root).
func smallDisk(t *testing.T, opts string) string {
	t.Helper()
	if os.Geteuid() != 0 {
		t.Skip("mounting a small file system needs root")
	}
	dir := t.TempDir()
	if err := syscall.Mount("tmpfs", dir, "tmpfs", 0, opts); err != nil {
		t.Skipf("cannot mount a tmpfs (%s) on %s: %v", opts, dir, err)
	}
	t.Cleanup(func() { syscall.Unmount(dir, 0) })
	return dir
}
