//go:build windows

package appdirs

import "testing"

func TestFoldersAreInLocalAppData(t *testing.T) {
	t.Setenv("LOCALAPPDATA", `C:\Users\ana\AppData\Local`)
	t.Setenv("XDG_DATA_HOME", `D:\ignored`)
	for _, f := range []func() (string, error){Data, State} {
		if got, err := f(); err != nil || got != `C:\Users\ana\AppData\Local\tstable` {
			t.Errorf("got %q, %v", got, err)
		}
	}
}

func TestNoLocalAppDataIsAnError(t *testing.T) {
	t.Setenv("LOCALAPPDATA", "")
	if d, err := Data(); err == nil {
		t.Fatalf("Data() = %q with no LOCALAPPDATA", d)
	}
}
