//go:build race

package cmd

// raceEnabled tells a test that the race detector slows it (see norace_test.go).
const raceEnabled = true
