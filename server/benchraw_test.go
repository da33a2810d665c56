package server_test

import (
	"bytes"
	"fmt"
	"io"
	"math/rand"
	"net/http"
	"net/url"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/Azure/azure-sdk-for-go/sdk/data/aztables"
	"github.com/tstable/tstable/server"
	"github.com/tstable/tstable/storetest"
)

// make bench-serve's measures at the server: tstable serve and Azurite
// each in its own process, reached with plain HTTP requests signed by an
// account SAS in the URL (no SDK between), from a loop of Go requests
// and, when wrk is installed, from wrk. The CPU time of each server is
// read from /proc before and after each workload, so that what a request
// costs the server is seen apart from what it costs the client.

// Sizes of the raw workloads.
const (
	rawGets  = 20_000
	rawMixed = 20_000
)

// rawService is one service as the raw load reaches it.
type rawService struct {
	name string
	base string // http://host:port/devstoreaccount1
	sas  string // the account SAS, as a query string
	pid  int    // the server's process, whose CPU time is read
	c    *http.Client
}

// newRawService signs an account SAS (every permission, valid for two
// hours) with key and creates the bench's table.
func newRawService(t *testing.T, name, base, key string, pid int) *rawService {
	cred, err := aztables.NewSharedKeyCredential("devstoreaccount1", key)
	if err != nil {
		t.Fatal(err)
	}
	qp, err := aztables.AccountSASSignatureValues{
		Protocol:      aztables.SASProtocolHTTPSandHTTP,
		Permissions:   aztables.AccountSASPermissions{Read: true, Write: true, Delete: true, List: true, Add: true, Update: true}.String(),
		Services:      "t",
		ResourceTypes: aztables.AccountSASResourceTypes{Service: true, Container: true, Object: true}.String(),
		StartTime:     time.Now().Add(-time.Minute),
		ExpiryTime:    time.Now().Add(2 * time.Hour),
	}.Sign(cred)
	if err != nil {
		t.Fatal(err)
	}
	tr := &http.Transport{MaxIdleConnsPerHost: benchParallel, MaxConnsPerHost: benchParallel, DisableCompression: true}
	s := &rawService{name: name, base: base, sas: qp.Encode(), pid: pid, c: &http.Client{Transport: tr}}
	if err := s.send(http.MethodPost, s.base+"/Tables?"+s.sas, []byte(`{"TableName":"Bench"}`), "application/json", http.StatusNoContent, nil); err != nil {
		t.Fatalf("%s: create the table: %v", name, err)
	}
	return s
}

// send makes one request and reads its answer, which must have status
// want; check, when set, vets the body.
func (s *rawService) send(method, u string, body []byte, contentType string, want int, check func([]byte) error) error {
	req, err := http.NewRequest(method, u, bytes.NewReader(body))
	if err != nil {
		return err
	}
	h := req.Header
	h.Set("Accept", "application/json;odata=minimalmetadata")
	h.Set("x-ms-version", "2019-02-02")
	h.Set("DataServiceVersion", "3.0")
	h.Set("Prefer", "return-no-content")
	if contentType != "" {
		h.Set("Content-Type", contentType)
	}
	resp, err := s.c.Do(req)
	if err != nil {
		return err
	}
	got, err := io.ReadAll(resp.Body)
	resp.Body.Close()
	if err != nil {
		return err
	}
	if resp.StatusCode != want {
		return fmt.Errorf("%s %s: %d %.200s", method, u, resp.StatusCode, got)
	}
	if check != nil {
		return check(got)
	}
	return nil
}

// entityURL is the address of one entity, SAS included.
func (s *rawService) entityURL(pk, rk string) string {
	return s.base + "/Bench(PartitionKey='" + pk + "',RowKey='" + rk + "')?" + s.sas
}

func (s *rawService) get(pk, rk string) error {
	return s.send(http.MethodGet, s.entityURL(pk, rk), nil, "", http.StatusOK, nil)
}

// page reads the first page (up to 100 entities) of a partition.
func (s *rawService) page(pk string) error {
	u := s.base + "/Bench()?$top=100&$filter=" + url.QueryEscape("PartitionKey eq '"+pk+"'") + "&" + s.sas
	return s.send(http.MethodGet, u, nil, "", http.StatusOK, func(b []byte) error {
		if !bytes.Contains(b, []byte(`"value":[{`)) {
			return fmt.Errorf("page of %s: no entities in %.200s", pk, b)
		}
		return nil
	})
}

// upsert inserts or replaces one entity.
func (s *rawService) upsert(pk, rk string, entity []byte) error {
	return s.send(http.MethodPut, s.entityURL(pk, rk), entity, "application/json", http.StatusNoContent, nil)
}

// batch sends a body made by batchBody, whose every operation must
// succeed.
func (s *rawService) batch(body []byte, ops int) error {
	return s.send(http.MethodPost, s.base+"/$batch?"+s.sas, body, "multipart/mixed; boundary=batch_b", http.StatusAccepted, func(b []byte) error {
		if n := bytes.Count(b, []byte("HTTP/1.1 2")); n != ops {
			return fmt.Errorf("batch: %d of %d operations succeeded: %.300s", n, ops, b)
		}
		return nil
	})
}

// batchBody is the entity group transaction inserting entities, as the
// SDKs write it: one changeset of POSTs.
func (s *rawService) batchBody(entities [][]byte) []byte {
	var b bytes.Buffer
	b.WriteString("--batch_b\r\nContent-Type: multipart/mixed; boundary=changeset_c\r\n\r\n")
	for _, e := range entities {
		b.WriteString("--changeset_c\r\nContent-Type: application/http\r\nContent-Transfer-Encoding: binary\r\n\r\n")
		b.WriteString("POST " + s.base + "/Bench HTTP/1.1\r\nAccept: application/json;odata=minimalmetadata\r\n" +
			"Content-Type: application/json\r\nPrefer: return-no-content\r\nDataServiceVersion: 3.0\r\n\r\n")
		b.Write(e)
		b.WriteString("\r\n")
	}
	b.WriteString("--changeset_c--\r\n\r\n--batch_b--\r\n")
	return b.Bytes()
}

// rawResult is one workload on one service.
type rawResult struct {
	requests int
	wall     time.Duration
	lat      []time.Duration
	errs     int
	firstErr error
	cpu      time.Duration // the server's, user and system; -1 when unknown
}

func (r rawResult) perSecond(units int) float64 { return float64(units) / r.wall.Seconds() }

// cpuPer is the server's CPU time for each of units, or -1.
func (r rawResult) cpuPer(units int) time.Duration {
	if r.cpu < 0 {
		return -1
	}
	return r.cpu / time.Duration(units)
}

func (r rawResult) quantile(q float64) time.Duration {
	return benchResult{latencies: r.lat}.quantile(q)
}

// rawRun makes requests lo to hi-1, benchParallel at a time, reading the
// server's CPU time around them.
func rawRun(s *rawService, lo, hi int, req func(i int) error) rawResult {
	res := rawResult{requests: hi - lo, lat: make([]time.Duration, hi-lo)}
	next := atomic.Int64{}
	next.Store(int64(lo))
	var mu sync.Mutex
	var wg sync.WaitGroup
	cpu0 := cpuOf(s.pid)
	start := time.Now()
	for w := 0; w < benchParallel; w++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for i := int(next.Add(1) - 1); i < hi; i = int(next.Add(1) - 1) {
				t0 := time.Now()
				err := req(i)
				res.lat[i-lo] = time.Since(t0)
				if err != nil {
					mu.Lock()
					if res.errs++; res.firstErr == nil {
						res.firstErr = err
					}
					mu.Unlock()
				}
			}
		}()
	}
	wg.Wait()
	res.wall = time.Since(start)
	res.cpu = -1
	if cpu1 := cpuOf(s.pid); cpu0 >= 0 && cpu1 >= 0 {
		res.cpu = cpu1 - cpu0
	}
	return res
}

// add is r and a later run of the same workload, as one.
func (r rawResult) add(o rawResult) rawResult {
	out := rawResult{requests: r.requests + o.requests, wall: r.wall + o.wall, lat: append(r.lat, o.lat...),
		errs: r.errs + o.errs, firstErr: r.firstErr, cpu: r.cpu + o.cpu}
	if out.firstErr == nil {
		out.firstErr = o.firstErr
	}
	if r.cpu < 0 || o.cpu < 0 {
		out.cpu = -1
	}
	return out
}

// rawRounds is how many parts a workload's requests are made in, the
// services in turn (tstable's first part, Azurite's, tstable's second
// ...), so that a change in the machine's speed while they run falls on
// both alike.
const rawRounds = 3

// rawRunInTurn runs workload w on each service in rawRounds parts, the
// services in turn, and returns each service's whole run.
func rawRunInTurn(services []*rawService, w rawWorkload) []rawResult {
	res := make([]rawResult, len(services))
	for part := 0; part < rawRounds; part++ {
		lo, hi := w.n*part/rawRounds, w.n*(part+1)/rawRounds
		for i, s := range services {
			r := rawRun(s, lo, hi, func(j int) error { return w.req(s, j) })
			if part == 0 {
				res[i] = r
			} else {
				res[i] = res[i].add(r)
			}
		}
	}
	return res
}

// rawWorkload is one workload of the raw load, made (bodies, keys) before
// the clock starts; units are what its rate and CPU are counted in.
type rawWorkload struct {
	name  string
	n     int
	units int    // entities (batch insert) or requests
	unit  string // "ent" or "req"
	req   func(s *rawService, i int) error
}

// rawWorkloads are the batch inserts of the whole table, point gets of
// keys at random, and the mixed load: 60% gets, 20% first pages of a
// partition, 20% upserts of existing keys.
func rawWorkloads(bodies map[*rawService][][]byte) []rawWorkload {
	entities, _ := benchInputs()
	rnd := rand.New(rand.NewSource(2))
	keys := make([][2]string, max(rawGets, rawMixed))
	ids := make([]int, len(keys))
	for g := range keys {
		i := rnd.Intn(benchEntities)
		ids[g], keys[g] = i, [2]string{fmt.Sprintf("p%03d", i%benchPartitions), fmt.Sprintf("%07d", i)}
	}
	return []rawWorkload{
		{"batch insert (100)", benchEntities / 100, benchEntities, "ent", func(s *rawService, b int) error { return s.batch(bodies[s][b], 100) }},
		{"point get", rawGets, rawGets, "req", func(s *rawService, g int) error { return s.get(keys[g][0], keys[g][1]) }},
		{"mixed 80% read", rawMixed, rawMixed, "req", func(s *rawService, g int) error {
			switch g % 10 {
			case 0, 5:
				return s.page(keys[g][0])
			case 3, 8:
				return s.upsert(keys[g][0], keys[g][1], entities[ids[g]])
			}
			return s.get(keys[g][0], keys[g][1])
		}},
	}
}

// batchBodies are the bench's entities as transactions of 100 (batch b:
// partition b%100), addressed to s.
func batchBodies(s *rawService) [][]byte {
	entities, _ := benchInputs()
	out := make([][]byte, benchEntities/100)
	for b := range out {
		p, chunk := b%benchPartitions, b/benchPartitions
		part := make([][]byte, 100)
		for j := range part {
			part[j] = entities[(chunk*100+j)*benchPartitions+p]
		}
		out[b] = s.batchBody(part)
	}
	return out
}

// TestBenchServeRaw is the second part of make bench-serve: each raw
// workload on tstable serve and on Azurite, in parts taken in turn, with
// the server's CPU time per request (or per entity) and the ratios against
// the goals (at least 10 times Azurite's rate and at most a tenth of its
// CPU), then point gets from wrk when it is installed. Any failed request fails the test.
func TestBenchServeRaw(t *testing.T) {
	mode := os.Getenv("TSTABLE_BENCH_SERVE")
	if mode == "" || mode == "stub" {
		t.Skip("set TSTABLE_BENCH_SERVE=1 (make bench-serve); =tstable leaves Azurite out")
	}
	benchInputs()
	serve, u, _ := startServe(t, filepath.Join(t.TempDir(), "raw.db"))
	services := []*rawService{newRawService(t, "tstable", u, server.DevelopmentKey, serve.Process.Pid)}
	if mode != "tstable" {
		cs, pid := storetest.StartAzuriteProcess(t)
		services = append(services, newRawService(t, "Azurite", endpointOf(t, cs), storetest.AzuriteKey, pid))
	}
	bodies := map[*rawService][][]byte{}
	for _, s := range services {
		bodies[s] = batchBodies(s)
	}
	var b strings.Builder
	fmt.Fprintf(&b, "\nAt the server: raw HTTP with an account SAS in the URL, %d requests in flight from a Go loop; %d entities in %d partitions; each workload in %d parts, the services in turn\n", benchParallel, benchEntities, benchPartitions, rawRounds)
	fmt.Fprintf(&b, "%-19s %-8s %12s %9s %9s %13s %7s\n", "workload", "service", "rate", "p50", "p99", "server CPU", "errors")
	for _, w := range rawWorkloads(bodies) {
		res := rawRunInTurn(services, w)
		for i, s := range services {
			r := res[i]
			if r.errs > 0 {
				t.Errorf("%s on %s: %d of %d requests failed; the first: %v", w.name, s.name, r.errs, w.n, r.firstErr)
			}
			fmt.Fprintf(&b, "%-19s %-8s %8.0f %s/s %9s %9s %9s/%s %7d\n", w.name, s.name, r.perSecond(w.units), w.unit,
				ms(r.quantile(0.5)), ms(r.quantile(0.99)), us(r.cpuPer(w.units)), w.unit, r.errs)
		}
		if len(res) == 2 {
			b.WriteString(goalLine(w, res[0], res[1]))
		}
	}
	b.WriteString(wrkGets(t, services))
	t.Log(b.String())
	fmt.Print(b.String())
}

// goalLine compares tstable (x) with Azurite (y) on one workload: the
// ratio of their rates and of their CPU per unit, against the goals.
func goalLine(w rawWorkload, x, y rawResult) string {
	rate := x.perSecond(w.units) / y.perSecond(w.units)
	line := fmt.Sprintf("  %s: tstable %.1f× Azurite's rate (goal ≥ 10×: %s)", w.name, rate, met(rate >= 10))
	if xc, yc := x.cpuPer(w.units), y.cpuPer(w.units); xc > 0 && yc > 0 {
		per := map[string]string{"ent": "an entity", "req": "a request"}[w.unit]
		line += fmt.Sprintf(", 1/%.1f of its CPU %s (goal ≤ 1/10: %s)", float64(yc)/float64(xc), per, met(yc >= 10*xc))
	}
	return line + "\n"
}

func met(ok bool) string {
	if ok {
		return "met"
	}
	return "NOT met"
}

// us writes d in microseconds, or "?" when unknown.
func us(d time.Duration) string {
	if d < 0 {
		return "?"
	}
	return fmt.Sprintf("%.1f µs", float64(d)/float64(time.Microsecond))
}

// endpointOf is the TableEndpoint of a connection string.
func endpointOf(t *testing.T, cs string) string {
	for _, part := range strings.Split(cs, ";") {
		if v, ok := strings.CutPrefix(part, "TableEndpoint="); ok {
			return strings.TrimSuffix(v, "/")
		}
	}
	t.Fatalf("no TableEndpoint in %q", cs)
	return ""
}
