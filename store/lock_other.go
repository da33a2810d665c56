//go:build !unix && !windows

package store

import (
	"context"
	"errors"
	"os"
	"time"
)

// engineLocksItself is true here: the engine takes the file's lock,
// waiting as long as Options.Wait says, and who holds it is not known.
const engineLocksItself = true

// trimOnClose is false here: whether a mapped file can be cut is not known.
const trimOnClose = false

// closeBeforeReplace is false here: Compact renames its copy over the
// file while it still holds it.
const closeBeforeReplace = false

var errBusy = errors.New("the file is locked by another process")

// lockFile leaves the lock to the engine on this system.
func lockFile(ctx context.Context, f *os.File, exclusive bool, wait time.Duration, onWait func(string)) error {
	return nil
}

// releaseFile does nothing here: the engine releases its lock.
func releaseFile(f *os.File) {}

// ProcessAlive cannot tell here: only this process counts as running (a
// load of another that stepped aside then finds its staging removed and
// fails, writing nothing).
func ProcessAlive(pid int) bool { return pid == os.Getpid() }
