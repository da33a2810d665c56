//go:build !race

package cmd

// raceEnabled tells a test that the race detector slows it.
const raceEnabled = false
