//go:build !linux && !windows

package store

import "os"

// holdersNamed tells whether holdersOf names the processes that hold a
// file.
const holdersNamed = false

// waitersSeen tells whether othersWaiting sees the processes waiting for
// a file.
const waitersSeen = false

// holdersOf cannot name the holders on this system.
func holdersOf(f *os.File) []holder { return nil }

// markWaiting has no mark to set on this system.
func markWaiting(f *os.File) func() { return func() {} }

// othersWaiting cannot tell on this system; a long load does not step aside.
func othersWaiting(f *os.File) bool { return false }
