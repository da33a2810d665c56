package store

import (
	"os"
	"strings"
	"testing"
)

// This process's own command line is read as another's would be, and
// rendered without its folder and ".exe".
func TestProcessCommandReadsACommandLine(t *testing.T) {
	got := processCommand(os.Getpid())
	if !strings.HasPrefix(got, progName()+" ") || !strings.Contains(got, "-test.") {
		t.Fatalf("got %q, want %s and its flags", got, progName())
	}
}

func TestProcessAliveOnWindows(t *testing.T) {
	if !ProcessAlive(os.Getpid()) || ProcessAlive(0) || ProcessAlive(-1) {
		t.Fatal("ProcessAlive is wrong about this process or an impossible one")
	}
}
