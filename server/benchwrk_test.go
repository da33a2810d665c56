package server_test

import (
	"fmt"
	"math/rand"
	"net/url"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"testing"
	"time"
)

// wrkSeconds is how long wrk runs against each service in a round: 5 s,
// or TSTABLE_BENCH_WRK_SECONDS.
var wrkSeconds = func() int {
	if n, err := strconv.Atoi(os.Getenv("TSTABLE_BENCH_WRK_SECONDS")); err == nil && n > 0 {
		return n
	}
	return 5
}()

// wrkRounds is how many times wrk runs against each service, the services
// in turn, so that a change in the machine's speed while they run (other
// machines' work on the same host) falls on both alike.
const wrkRounds = 3

// wrkGets runs point gets of keys at random from wrk (a load generator
// written in C, far cheaper a request than any Go client) against each
// service in turn, wrkRounds times, and says each round's rate, latency
// and CPU a request, then each service's over all its rounds (the mean
// of its rates; its requests and CPU time summed) and how tstable
// compares with the goals. It says so and measures nothing when wrk is
// not installed (apt-get install wrk).
func wrkGets(t *testing.T, services []*rawService) string {
	bin, err := exec.LookPath("wrk")
	if err != nil {
		return "\nwrk is not installed (apt-get install wrk): no point gets from wrk\n"
	}
	var b strings.Builder
	fmt.Fprintf(&b, "\nPoint gets from wrk (-t2 -c%d), keys at random, account SAS in the URL: %d rounds of %d s, the services in turn:\n", benchParallel, wrkRounds, wrkSeconds)
	scripts := make([]string, len(services))
	for i, s := range services {
		scripts[i] = wrkScript(t, s)
	}
	requests := make([]int64, len(services))
	rateSums := make([]float64, len(services))
	cpus := make([]time.Duration, len(services))
	for round := 1; round <= wrkRounds; round++ {
		for i, s := range services {
			cpu0 := cpuOf(s.pid)
			out, err := exec.Command(bin, "-t2", fmt.Sprintf("-c%d", benchParallel), fmt.Sprintf("-d%ds", wrkSeconds), "--latency", "-s", scripts[i], s.base).CombinedOutput()
			cpu1 := cpuOf(s.pid)
			if err != nil {
				t.Fatalf("wrk against %s: %v\n%s", s.name, err, out)
			}
			w := parseWrk(string(out))
			if w.errors > 0 {
				t.Errorf("wrk against %s: %d requests failed\n%s", s.name, w.errors, out)
			}
			cpu := time.Duration(-1) // this round's a request
			if cpu0 >= 0 && cpu1 >= 0 && w.requests > 0 {
				cpu = (cpu1 - cpu0) / time.Duration(w.requests)
			}
			if cpu < 0 || cpus[i] < 0 {
				cpus[i] = -1 // one round unknown: the whole is too
			} else {
				cpus[i] += cpu1 - cpu0
			}
			requests[i] += w.requests
			rateSums[i] += w.rate
			fmt.Fprintf(&b, "  round %d  %-8s %8.0f req/s   p50 %s, p99 %s   server CPU %s/req   %d requests, %d errors\n", round, s.name, w.rate, w.p50, w.p99, us(cpu), w.requests, w.errors)
		}
	}
	rates := make([]float64, len(services))
	per := make([]time.Duration, len(services))
	for i, s := range services {
		rates[i] = rateSums[i] / wrkRounds // wrk's own rates: its runs last a little longer than asked
		per[i] = -1
		if cpus[i] >= 0 && requests[i] > 0 {
			per[i] = cpus[i] / time.Duration(requests[i])
		}
		fmt.Fprintf(&b, "  all      %-8s %8.0f req/s   server CPU %s/req   %d requests\n", s.name, rates[i], us(per[i]), requests[i])
	}
	if len(rates) == 2 && rates[1] > 0 {
		r := rates[0] / rates[1]
		fmt.Fprintf(&b, "  point get (wrk): tstable %.1f× Azurite's rate (goal ≥ 12×: %s)", r, met(r >= 12))
		if per[0] > 0 && per[1] > 0 {
			fmt.Fprintf(&b, ", 1/%.1f of its CPU a request (goal ≤ 1/12: %s)", float64(per[1])/float64(per[0]), met(per[1] >= 12*per[0]))
		}
		b.WriteString("\n")
	}
	return b.String()
}

// wrkScript writes a wrk script that asks for the bench's entities in an
// order drawn at random, each request with the SAS and the headers the
// raw load sends.
func wrkScript(t *testing.T, s *rawService) string {
	base, err := url.Parse(s.base)
	if err != nil {
		t.Fatal(err)
	}
	var b strings.Builder
	b.WriteString("local paths = {\n")
	rnd := rand.New(rand.NewSource(3))
	for g := 0; g < 5000; g++ {
		i := rnd.Intn(benchEntities)
		p := base.Path + "/Bench(PartitionKey='" + fmt.Sprintf("p%03d", i%benchPartitions) + "',RowKey='" + fmt.Sprintf("%07d", i) + "')?" + s.sas
		b.WriteString(strconv.Quote(p) + ",\n")
	}
	b.WriteString(`}
local i = 0
local headers = { ["Accept"] = "application/json;odata=minimalmetadata", ["x-ms-version"] = "2019-02-02", ["DataServiceVersion"] = "3.0" }
request = function()
  i = i % #paths + 1
  return wrk.format("GET", paths[i], headers)
end
`)
	path := filepath.Join(t.TempDir(), "gets.lua")
	if err := os.WriteFile(path, []byte(b.String()), 0o644); err != nil {
		t.Fatal(err)
	}
	return path
}

// wrkResult is what wrk printed: its rate, the median and 99th
// percentile latency (as it wrote them), the requests made and how many
// failed (answers other than 2xx/3xx, and socket errors).
type wrkResult struct {
	rate     float64
	p50, p99 string
	requests int64
	errors   int64
}

var (
	wrkRate     = regexp.MustCompile(`Requests/sec:\s+([0-9.]+)`)
	wrkRequests = regexp.MustCompile(`(\d+) requests in`)
	wrkNon2xx   = regexp.MustCompile(`Non-2xx or 3xx responses:\s+(\d+)`)
	wrkSocket   = regexp.MustCompile(`Socket errors: connect (\d+), read (\d+), write (\d+), timeout (\d+)`)
	wrkLatency  = regexp.MustCompile(`(?m)^\s+(50|99)%\s+(\S+)`)
)

func parseWrk(out string) wrkResult {
	var w wrkResult
	if m := wrkRate.FindStringSubmatch(out); m != nil {
		w.rate, _ = strconv.ParseFloat(m[1], 64)
	}
	if m := wrkRequests.FindStringSubmatch(out); m != nil {
		w.requests, _ = strconv.ParseInt(m[1], 10, 64)
	}
	if m := wrkNon2xx.FindStringSubmatch(out); m != nil {
		n, _ := strconv.ParseInt(m[1], 10, 64)
		w.errors += n
	}
	if m := wrkSocket.FindStringSubmatch(out); m != nil {
		for _, v := range m[1:] {
			n, _ := strconv.ParseInt(v, 10, 64)
			w.errors += n
		}
	}
	for _, m := range wrkLatency.FindAllStringSubmatch(out, -1) {
		if m[1] == "50" {
			w.p50 = m[2]
		} else {
			w.p99 = m[2]
		}
	}
	return w
}
