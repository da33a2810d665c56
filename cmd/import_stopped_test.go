package cmd

import (
	"testing"

	"github.com/tstable/tstable/transfer"
)

// An import that stepped aside for another process, which then kept the
// file past the wait, says so in plain words, with what it imported.
func TestImportStoppedByAnotherProcessSaysSoPlainly(t *testing.T) {
	got := importStopped(&transfer.ImportOutcome{Stop: transfer.StopLocked, Written: 3}, "People")
	want := "imported 3 entities into People before another process took the file and did not give it back in time; the rest was not imported (run the import again when it is free)"
	if got != want {
		t.Errorf("got  %q\nwant %q", got, want)
	}
}
