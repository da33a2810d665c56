//go:build !linux

package cmd

import "testing"

// smallDisk would mount a small file system for the test: only Linux's
// tmpfs is used for that, so the test is skipped here.
func smallDisk(t *testing.T, opts string) string {
	t.Helper()
	t.Skip("a small file system is mounted for this test on Linux only")
	return ""
}
