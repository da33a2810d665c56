package backend

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"syscall"

	"github.com/tstable/tstable/odata"
)

// CommitError is a write a local file did not take: committing its
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
	return fmt.Sprintf("saving to %s failed: %s; the transaction was rolled back and nothing of it is stored", e.Path, DescribeIOError(e.Err))
}

// Unwrap returns the cause, so that errors.Is(err, syscall.ENOSPC) works,
// and the failure coded as the service codes it (see FileError), so that
// it is reported with its code: InternalError for a full disk.
func (e *CommitError) Unwrap() []error {
	return []error{e.Err, &odata.Error{Code: fileCode(e.Err), Message: e.Error(), Index: -1}}
}

// fileError is a failure of the file system or the disk (see FileError).
type fileError struct {
	coded *odata.Error
	cause error
}

func (e *fileError) Error() string   { return e.coded.Error() }
func (e *fileError) Unwrap() []error { return []error{e.coded, e.cause} }

// FileError is a failure of the file system or the disk, coded as the
// service would code it: ResourceNotFound for a file that is not there,
// AuthorizationFailure for one that may not be read or written,
// InvalidInput for a folder where a file is wanted, and InternalError
// for the rest, a full disk among them. Its message is what failed
// (format and args) and why, in the system's words without the path the
// os package repeats ("the disk is full (no space left on device)"); the
// system's error stays its cause, for errors.Is.
func FileError(cause error, format string, args ...any) error {
	return FileFailure(cause, fmt.Sprintf(format, args...)+": "+DescribeIOError(cause))
}

// FileFailure is FileError with the whole message given, for a message
// that says the cause (DescribeIOError) elsewhere than at its end.
func FileFailure(cause error, msg string) error {
	return &fileError{coded: odata.Errorf(fileCode(cause), "%s", msg), cause: cause}
}

// Coded is err as tstable reports it, with a code: the *odata.Error it
// carries; else, for a failure of the file system or the disk, the code
// FileError gives it ("write /dev/stdout: no space left on device"
// becomes InternalError "cannot write /dev/stdout: the disk is full (no
// space left on device)"); else InternalError: a failure of tstable's own.
func Coded(err error) *odata.Error {
	var e *odata.Error
	if errors.As(err, &e) {
		return e
	}
	var pe *fs.PathError
	if errors.As(err, &pe) && err == error(pe) {
		return odata.Errorf(fileCode(err), "cannot %s %s: %s", pe.Op, pe.Path, DescribeIOError(err))
	}
	msg := err.Error()
	if errors.Is(err, syscall.ENOSPC) {
		msg += " (the disk is full)"
	}
	return odata.Errorf(fileCode(err), "%s", msg)
}

// fileCode is the code of a failure of the file system or the disk (see
// FileError).
func fileCode(err error) odata.Code {
	switch {
	case errors.Is(err, fs.ErrNotExist):
		return odata.CodeResourceNotFound
	case errors.Is(err, fs.ErrPermission):
		return odata.CodeAuthorizationFailure
	case errors.Is(err, syscall.EISDIR):
		return odata.CodeInvalidInput
	}
	return odata.CodeInternalError
}

// DescribeIOError renders an operating-system error without the path and
// operation the os package puts before it ("write /x/y.db: no space left
// on device" becomes "the disk is full (no space left on device)"):
// messages name the file themselves, once.
func DescribeIOError(err error) string {
	var msg string
	var (
		pe *fs.PathError
		le *os.LinkError
		se *os.SyscallError
	)
	switch {
	case errors.As(err, &pe):
		msg = pe.Err.Error()
	case errors.As(err, &le):
		msg = le.Err.Error()
	case errors.As(err, &se):
		msg = se.Err.Error()
	default:
		msg = err.Error()
	}
	if errors.Is(err, syscall.ENOSPC) {
		return "the disk is full (" + msg + ")"
	}
	return msg
}
