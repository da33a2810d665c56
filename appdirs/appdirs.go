// Package appdirs says where tstable keeps its own files when no flag
// says: the default database, the shell's history and the checkpoints of
// interrupted copies. Each is in a tstable folder under the system's usual
// place for an application's data:
//
//   - Linux and macOS (XDG): data in $XDG_DATA_HOME/tstable, else
//     ~/.local/share/tstable; state in $XDG_STATE_HOME/tstable, else
//     ~/.local/state/tstable. A variable holding a relative path is
//     ignored, as the XDG specification says.
//   - Windows: both in %LOCALAPPDATA%\tstable.
//
// DefaultDB is what help says of the default database, the same text on
// every system, so that the generated reference does not depend on where
// it was generated.
package appdirs

import (
	"errors"
	"path/filepath"
)

// DefaultDB describes the default database file for help and the docs.
const DefaultDB = `$XDG_DATA_HOME/tstable/tstable.db or ~/.local/share/tstable/tstable.db; on Windows %LOCALAPPDATA%\tstable\tstable.db`

// errNoHome is the error when the system names no folder for tstable.
var errNoHome = errors.New("the system names no folder for application data")

// Data is the folder of tstable's data: the default database.
func Data() (string, error) {
	d, err := dataHome()
	if err != nil {
		return "", err
	}
	return filepath.Join(d, "tstable"), nil
}

// State is the folder of tstable's state: the shell's history and the
// checkpoints of interrupted copies.
func State() (string, error) {
	d, err := stateHome()
	if err != nil {
		return "", err
	}
	return filepath.Join(d, "tstable"), nil
}
