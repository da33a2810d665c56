//go:build !linux

package store

import "os"

// queued cannot tell on this system: waiting processes take the file as
// the system gives it (see queue_linux.go).
func queued(f *os.File) bool { return false }

// joinQueue has no queue to join on this system.
func joinQueue(f *os.File) (int64, func()) { return -1, func() {} }

// olderWaiting is always false on this system.
func olderWaiting(f *os.File, ticket int64) bool { return false }
