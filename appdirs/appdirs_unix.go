//go:build !windows

package appdirs

import (
	"os"
	"path/filepath"
)

// dataHome is $XDG_DATA_HOME, else ~/.local/share.
func dataHome() (string, error) { return xdg("XDG_DATA_HOME", ".local", "share") }

// stateHome is $XDG_STATE_HOME, else ~/.local/state.
func stateHome() (string, error) { return xdg("XDG_STATE_HOME", ".local", "state") }

// xdg is the absolute folder in the variable env, else the folder under
// the home directory.
func xdg(env string, underHome ...string) (string, error) {
	if d := os.Getenv(env); d != "" && filepath.IsAbs(d) {
		return d, nil
	}
	home, err := os.UserHomeDir()
	if err != nil || home == "" {
		return "", errNoHome
	}
	return filepath.Join(append([]string{home}, underHome...)...), nil
}
