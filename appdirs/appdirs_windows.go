//go:build windows

package appdirs

import (
	"os"
	"path/filepath"
)

// dataHome is %LOCALAPPDATA%: the machine's own application data, not
// roamed to other machines (a database can be large).
func dataHome() (string, error) { return localAppData() }

// stateHome is %LOCALAPPDATA% too.
func stateHome() (string, error) { return localAppData() }

func localAppData() (string, error) {
	if d := os.Getenv("LOCALAPPDATA"); d != "" && filepath.IsAbs(d) {
		return d, nil
	}
	return "", errNoHome
}
