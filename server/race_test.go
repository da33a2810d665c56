//go:build race

package server_test

// raceEnabled tells a test that the race detector slows it (see norace_test.go).
const raceEnabled = true
