//go:build !windows

package appdirs

import (
	"path/filepath"
	"testing"
)

func TestFoldersFollowXDG(t *testing.T) {
	t.Setenv("HOME", "/home/ana")
	t.Setenv("XDG_DATA_HOME", "")
	t.Setenv("XDG_STATE_HOME", "relative/is/ignored")
	want(t, Data, "/home/ana/.local/share/tstable")
	want(t, State, "/home/ana/.local/state/tstable")
	t.Setenv("XDG_DATA_HOME", "/data")
	t.Setenv("XDG_STATE_HOME", "/state")
	want(t, Data, "/data/tstable")
	want(t, State, "/state/tstable")
}

func TestNoHomeIsAnError(t *testing.T) {
	t.Setenv("HOME", "")
	t.Setenv("XDG_DATA_HOME", "")
	if d, err := Data(); err == nil {
		t.Fatalf("Data() = %q with no home", d)
	}
}

func want(t *testing.T, f func() (string, error), path string) {
	t.Helper()
	if got, err := f(); err != nil || got != filepath.FromSlash(path) {
		t.Errorf("got %q, %v; want %q", got, err, path)
	}
}
