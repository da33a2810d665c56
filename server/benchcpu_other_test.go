//go:build !linux

package server_test

import "time"

// cpuTime is not measured outside Linux.
func cpuTime(int) (time.Duration, bool) { return 0, false }
