package server_test

import (
	"os"
	"strconv"
	"strings"
	"time"
)

// cpuTime is the CPU time, user and system, that process pid (0: this
// one) has used so far, from /proc (in clock ticks of 10 ms).
func cpuTime(pid int) (time.Duration, bool) {
	p := "self"
	if pid != 0 {
		p = strconv.Itoa(pid)
	}
	b, err := os.ReadFile("/proc/" + p + "/stat")
	if err != nil {
		return 0, false
	}
	_, rest, ok := strings.Cut(string(b), ") ") // after the command's name
	f := strings.Fields(rest)
	if !ok || len(f) < 13 {
		return 0, false
	}
	utime, err1 := strconv.ParseInt(f[11], 10, 64) // fields 14 and 15 of proc(5)
	stime, err2 := strconv.ParseInt(f[12], 10, 64)
	if err1 != nil || err2 != nil {
		return 0, false
	}
	return time.Duration(utime+stime) * 10 * time.Millisecond, true
}
