//go:build !unix

package server

import "os"

// processAlive reports whether a process with this id is running (on
// systems without signals, whether it can be found).
func processAlive(pid int) bool {
	_, err := os.FindProcess(pid)
	return err == nil
}
