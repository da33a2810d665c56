//go:build !race

package store

// raceEnabled tells a test that the race detector slows it.
const raceEnabled = false
