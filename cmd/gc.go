package cmd

import (
	"os"
	"runtime/debug"
)

// collectLess lets the heap grow percent% past the live heap between two
// collections (as GOGC=percent would) until the returned func is called,
// unless the user set GOGC. Commands that churn through much short-lived
// memory while keeping little live (a load's decoded rows, a server's
// requests) spend a large part of their CPU collecting at Go's default of
// 100; with a bounded live heap the heap stays bounded, a few times
// larger. The shell runs commands in one process, so the setting is put
// back when the command ends.
func collectLess(percent int) (restore func()) {
	if os.Getenv("GOGC") != "" {
		return func() {}
	}
	prev := debug.SetGCPercent(percent)
	return func() { debug.SetGCPercent(prev) }
}
