package cmdspec

import "fmt"

// Exit statuses of tstable and of each command the shell runs.
const (
	ExitOK          = 0   // success
	ExitFailed      = 1   // the store refused the operation, or it failed while running
	ExitUsage       = 2   // unknown command or flag, wrong arguments, a syntax error
	ExitInterrupted = 130 // Ctrl-C
)

// UsageError is a command used the wrong way (exit status 2). Path is
// the command it concerns ("tstable get"), for the help hint; "" gives
// none.
type UsageError struct {
	Msg  string
	Path string
}

func (e *UsageError) Error() string { return e.Msg }

// Usagef makes a UsageError about the command at path.
func Usagef(path, format string, args ...any) *UsageError {
	return &UsageError{Msg: fmt.Sprintf(format, args...), Path: path}
}
