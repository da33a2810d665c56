package store

import (
	"errors"
	"fmt"
	"io/fs"
	"os"

	"github.com/tstable/tstable/odata"
)

// CommitError is a write the file did not take: committing its
// transaction failed (the disk is full, an I/O error), so nothing of that
// transaction is stored. What was committed before it stays.
type CommitError struct {
	// Path is the database file.
	Path string
	// Err is the cause, as the operating system reported it.
	Err error
	// From is the position in a source (0-based) of the first entity that
	// was not stored, for a write that has one; -1 otherwise. Load writes
	// in key order and says FromKey instead.
	From int64
	// FromKey is, for Load, the key of the first entity not stored: Load
	// writes in key order, so the file holds the entities of the source
	// with a smaller key (but the refused ones) and none from it on.
	FromKey *odata.Key
}

func (e *CommitError) Error() string {
	return fmt.Sprintf("saving to %s failed: %s; the transaction was rolled back and nothing of it is stored", e.Path, describeIOError(e.Err))
}

// Unwrap returns the cause, so that errors.Is(err, syscall.ENOSPC) works.
func (e *CommitError) Unwrap() error { return e.Err }

// describeIOError renders an operating-system error without the path and
// operation the os package puts before it ("write /x/y.db: no space left
// on device" becomes "no space left on device"): messages here name the
// file themselves, once.
func describeIOError(err error) string {
	var pe *fs.PathError
	if errors.As(err, &pe) {
		return pe.Err.Error()
	}
	var le *os.LinkError
	if errors.As(err, &le) {
		return le.Err.Error()
	}
	var se *os.SyscallError
	if errors.As(err, &se) {
		return se.Err.Error()
	}
	return err.Error()
}
