package server_test

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"math/rand"
	"net"
	"net/http"
	"os"
	"path/filepath"
	"runtime"
	"slices"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/Azure/azure-sdk-for-go/sdk/azcore/policy"
	"github.com/Azure/azure-sdk-for-go/sdk/azcore/to"
	"github.com/Azure/azure-sdk-for-go/sdk/data/aztables"
	"github.com/tstable/tstable/server"
	"github.com/tstable/tstable/storetest"
)

// Sizes of make bench-serve.
const (
	benchEntities   = 100_000
	benchPartitions = 100
	benchGets       = 5_000
	benchPartQuery  = 40
	benchScans      = 5
)

// benchParallel is how many requests are in flight at once, against
// either service: 8, or TSTABLE_BENCH_PARALLEL.
var benchParallel = func() int {
	if n, err := strconv.Atoi(os.Getenv("TSTABLE_BENCH_PARALLEL")); err == nil && n > 0 {
		return n
	}
	return 8
}()

// benchResult is one workload on one service: entities handled, wall
// time, and the latency of each request.
type benchResult struct {
	entities  int64
	wall      time.Duration
	latencies []time.Duration
}

func (r benchResult) perSecond() float64 { return float64(r.entities) / r.wall.Seconds() }

func (r benchResult) quantile(q float64) time.Duration {
	if len(r.latencies) == 0 {
		return 0
	}
	l := slices.Clone(r.latencies)
	slices.Sort(l)
	return l[min(len(l)-1, int(q*float64(len(l))))]
}

// parallel runs n requests on benchParallel workers; each returns how
// many entities it handled.
func parallel(t *testing.T, n int, req func(i int) (int64, error)) benchResult {
	var mu sync.Mutex
	res := benchResult{latencies: make([]time.Duration, 0, n)}
	next := make(chan int)
	var wg sync.WaitGroup
	start := time.Now()
	for w := 0; w < benchParallel; w++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for i := range next {
				t0 := time.Now()
				got, err := req(i)
				d := time.Since(t0)
				if err != nil {
					t.Errorf("request %d: %v", i, err)
				}
				mu.Lock()
				res.entities += got
				res.latencies = append(res.latencies, d)
				mu.Unlock()
			}
		}()
	}
	for i := 0; i < n; i++ {
		next <- i
	}
	close(next)
	wg.Wait()
	res.wall = time.Since(start)
	return res
}

// benchInputs are the bench's entities (by number) and the keys of its
// point gets, made once, before any clock starts: what is timed is the
// client and the service, not the making of the rows.
var benchInputs = sync.OnceValues(func() (entities [][]byte, gets [][2]string) {
	entities = make([][]byte, benchEntities)
	for i := range entities {
		entities[i] = benchEntity(i)
	}
	gets = make([][2]string, benchGets)
	rnd := rand.New(rand.NewSource(1))
	for g := range gets {
		i := rnd.Intn(benchEntities)
		gets[g] = [2]string{fmt.Sprintf("p%03d", i%benchPartitions), fmt.Sprintf("%07d", i)}
	}
	return entities, gets
})

func benchEntity(i int) []byte {
	b, _ := json.Marshal(map[string]any{
		"PartitionKey": fmt.Sprintf("p%03d", i%benchPartitions), "RowKey": fmt.Sprintf("%07d", i),
		"Name": fmt.Sprintf("customer %d", i), "N": i, "Amount": float64(i) / 4, "Active": i%3 == 0,
		"Note": strings.Repeat("x", 100),
	})
	return b
}

// serverTimes collects the Server-Timing of each response (tstable
// serve's time to answer, without the client's and the network's).
type serverTimes struct {
	mu sync.Mutex
	d  []time.Duration
}

func (s *serverTimes) Do(req *policy.Request) (*http.Response, error) {
	resp, err := req.Next()
	if resp != nil {
		if _, v, ok := strings.Cut(resp.Header.Get("Server-Timing"), "dur="); ok {
			if ms, perr := strconv.ParseFloat(v, 64); perr == nil {
				s.mu.Lock()
				s.d = append(s.d, time.Duration(ms*float64(time.Millisecond)))
				s.mu.Unlock()
			}
		}
	}
	return resp, err
}

// take returns the times collected since the last call, and forgets them.
func (s *serverTimes) take() benchResult {
	s.mu.Lock()
	defer s.mu.Unlock()
	r := benchResult{latencies: s.d}
	s.d = nil
	return r
}

// benchClient connects the Go SDK to a service, with as many kept-alive
// connections as requests in flight.
func benchClient(t *testing.T, cs string, times *serverTimes) *aztables.Client {
	opts := &aztables.ClientOptions{}
	opts.Transport = &http.Client{Transport: &http.Transport{MaxIdleConnsPerHost: benchParallel, MaxConnsPerHost: benchParallel}}
	opts.PerCallPolicies = []policy.Policy{times}
	svc, err := aztables.NewServiceClientFromConnectionString(cs, opts)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := svc.CreateTable(context.Background(), "Bench", nil); err != nil {
		t.Fatal(err)
	}
	return svc.NewClient("Bench")
}

// insertBatch is transaction b of the load: 100 rows of partition b%100.
func insertBatch(c *aztables.Client, b int) (int64, error) {
	p, chunk := b%benchPartitions, b/benchPartitions
	entities, _ := benchInputs()
	actions := make([]aztables.TransactionAction, 100)
	for j := range actions {
		i := (chunk*100+j)*benchPartitions + p
		actions[j] = aztables.TransactionAction{ActionType: aztables.TransactionTypeAdd, Entity: entities[i]}
	}
	_, err := c.SubmitTransaction(context.Background(), actions, nil)
	return 100, err
}

// query runs a query to its end and counts what it returned.
func query(c *aztables.Client, filter string) (int64, error) {
	var n int64
	pager := c.NewListEntitiesPager(&aztables.ListEntitiesOptions{Filter: to.Ptr(filter)})
	for pager.More() {
		page, err := pager.NextPage(context.Background())
		if err != nil {
			return n, err
		}
		n += int64(len(page.Entities))
	}
	return n, nil
}

// workloads are what make bench-serve measures, in order; each returns
// the entities it handled.
var workloads = []struct {
	name string
	n    int
	req  func(c *aztables.Client, i int) (int64, error)
}{
	{"batch insert", benchEntities / 100, insertBatch},
	{"point get", benchGets, func(c *aztables.Client, g int) (int64, error) {
		_, gets := benchInputs()
		_, err := c.GetEntity(context.Background(), gets[g][0], gets[g][1], nil)
		return 1, err
	}},
	{"partition query", benchPartQuery, func(c *aztables.Client, _ int) (int64, error) {
		return query(c, "PartitionKey eq 'p042'")
	}},
	{"filtered table scan", benchScans, func(c *aztables.Client, _ int) (int64, error) {
		_, err := query(c, "Amount ge 24000.0 and Active eq true")
		return benchEntities, err // a table scan reads the whole table
	}},
}

// TestBenchServe is make bench-serve: the same workloads through the Go
// SDK, with the same parallelism, against tstable serve (the command, on a
// file) and Azurite (in memory), each in its own process, side by side.
// Each workload runs on one service, then at once on the other, so that
// both meet the same load of the machine. It ends with the ceiling of the
// client itself (see stubService); TSTABLE_BENCH_SERVE=stub measures only
// that ceiling.
func TestBenchServe(t *testing.T) {
	mode := os.Getenv("TSTABLE_BENCH_SERVE")
	if mode == "" {
		t.Skip("set TSTABLE_BENCH_SERVE=1 (make bench-serve); =stub measures the client's ceiling alone, =tstable leaves Azurite out")
	}
	benchInputs() // built before any clock starts
	var b strings.Builder
	fmt.Fprintf(&b, "%d entities in %d partitions, %d requests in flight, Go SDK (aztables), GOMAXPROCS %d\n", benchEntities, benchPartitions, benchParallel, runtime.GOMAXPROCS(0))
	if mode == "stub" {
		clientCeiling(t, &b)
		t.Log("\n" + b.String())
		fmt.Print(b.String())
		return
	}
	serve, url, _ := startServe(t, filepath.Join(t.TempDir(), "bench.db"))
	tsTimes := &serverTimes{}
	ts := benchClient(t, "DefaultEndpointsProtocol=http;AccountName=devstoreaccount1;AccountKey="+server.DevelopmentKey+";TableEndpoint="+url+";", tsTimes)
	var az *aztables.Client
	if mode != "tstable" { // =tstable: tstable serve alone, to profile it
		az = benchClient(t, storetest.StartAzurite(t), &serverTimes{})
	}

	fmt.Fprintf(&b, "%-20s %14s %10s %10s   %14s %10s %10s   %7s   %s\n", "workload", "tstable ent/s", "median", "p99", "Azurite ent/s", "median", "p99", "ratio", "tstable's own time a request: median, p99")
	ratios := map[string]float64{}
	var getMedian time.Duration
	var cpu strings.Builder
	for _, w := range workloads {
		tsTimes.take()
		c0, s0 := cpuOf(0), cpuOf(serve.Process.Pid)
		x := parallel(t, w.n, func(i int) (int64, error) { return w.req(ts, i) })
		c1, s1 := cpuOf(0), cpuOf(serve.Process.Pid)
		own := tsTimes.take()
		if c0 >= 0 && s0 >= 0 && c1 >= 0 && s1 >= 0 {
			fmt.Fprintf(&cpu, "  %-18s client %s, tstable serve %s\n", w.name, ms((c1-c0)/time.Duration(w.n)), ms((s1-s0)/time.Duration(w.n)))
		}
		var y benchResult
		if az != nil {
			y = parallel(t, w.n, func(i int) (int64, error) { return w.req(az, i) })
		}
		ratios[w.name] = x.perSecond() / y.perSecond()
		if w.name == "point get" {
			getMedian = x.quantile(0.5)
		}
		azurite := fmt.Sprintf("%14.0f %10s %10s   %6.1fx", y.perSecond(), ms(y.quantile(0.5)), ms(y.quantile(0.99)), ratios[w.name])
		if az == nil {
			azurite = fmt.Sprintf("%14s %10s %10s   %7s", "-", "-", "-", "-")
		}
		fmt.Fprintf(&b, "%-20s %14.0f %10s %10s   %s   %s, %s\n", w.name,
			x.perSecond(), ms(x.quantile(0.5)), ms(x.quantile(0.99)), azurite,
			ms(own.quantile(0.5)), ms(own.quantile(0.99)))
	}
	if cpu.Len() > 0 {
		fmt.Fprintf(&b, "CPU time a request against tstable (both cores count; the machine can give 2 s of CPU a second):\n%s", cpu.String())
	}
	clientCeiling(t, &b)
	t.Log("\n" + b.String())
	fmt.Print(b.String())
	// Through the SDK the client's own CPU caps the rate any service shows
	// (its ceiling is printed above), so the goals of at least 10 times
	// Azurite's rate are held at the server, with raw requests
	// (TestBenchServeRaw), and only said here.
	for _, w := range []string{"batch insert", "point get"} {
		if az != nil && ratios[w] < 10 {
			t.Logf("%s through the SDK: tstable is %.1fx Azurite (the client's ceiling caps it; see the measures at the server)", w, ratios[w])
		}
	}
	if getMedian >= time.Millisecond {
		t.Errorf("point get median %s; the floor is under 1 ms", getMedian)
	}
}

// clientCeiling runs the batch inserts and the point gets, with the
// bench's parallelism and client settings, against a service that answers
// at once (stubService): what this client can reach on this machine, and
// so the most any service can show through it.
func clientCeiling(t *testing.T, b *strings.Builder) {
	sdk := benchClient(t, stubService(t), &serverTimes{})
	fmt.Fprintf(b, "the Go SDK alone, against an in-process service that answers at once with canned responses:\n")
	for _, w := range workloads[:2] {
		c0 := cpuOf(0)
		c := parallel(t, w.n, func(i int) (int64, error) { return w.req(sdk, i) })
		c1 := cpuOf(0)
		fmt.Fprintf(b, "  %-18s %9.0f ent/s %9.0f requests/s   median %s, p99 %s", w.name,
			c.perSecond(), float64(len(c.latencies))/c.wall.Seconds(), ms(c.quantile(0.5)), ms(c.quantile(0.99)))
		if c0 >= 0 && c1 >= 0 {
			fmt.Fprintf(b, "   CPU a request %s (client and stub)", ms((c1-c0)/time.Duration(w.n)))
		}
		b.WriteString("\n")
	}
}

// stubService is an HTTP service, in this process, that answers any table
// creation, any batch and any point get at once, with responses shaped
// as tstable serve's (one 204 with its headers for each operation of a
// batch; one entity of the bench for a get), to measure the client alone.
func stubService(t *testing.T) string {
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	base := "http://" + l.Addr().String() + "/devstoreaccount1"
	const etag = `W/"datetime'2026-01-02T03%3A04%3A05.0000000Z'"`
	entity := []byte(`{"odata.metadata":"` + base + `/$metadata#Bench/@Element","odata.etag":"W/\"datetime'2026-01-02T03%3A04%3A05.0000000Z'\"",` +
		`"PartitionKey":"p001","RowKey":"0000001","Timestamp":"2026-01-02T03:04:05.0000000Z","Active":false,"Amount":0.25,"N":1,` +
		`"Name":"customer 1","Note":"` + strings.Repeat("x", 100) + `"}`)
	srv := &http.Server{Handler: http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		body, _ := io.ReadAll(r.Body)
		h := w.Header()
		switch {
		case strings.HasSuffix(r.URL.Path, "/Tables"):
			w.WriteHeader(http.StatusNoContent)
		case strings.HasSuffix(r.URL.Path, "/$batch"):
			var out bytes.Buffer
			out.WriteString("--batchresponse_x\r\nContent-Type: multipart/mixed; boundary=changesetresponse_y\r\n\r\n")
			for i, n := 0, bytes.Count(body, []byte("application/http")); i < n; i++ {
				loc := base + "/Bench(PartitionKey='p001',RowKey='" + fmt.Sprintf("%07d", i) + "')"
				out.WriteString("--changesetresponse_y\r\nContent-Type: application/http\r\nContent-Transfer-Encoding: binary\r\n\r\n" +
					"HTTP/1.1 204 No Content\r\nCache-Control: no-cache\r\nDataserviceid: " + loc + "\r\nDataserviceversion: 3.0;\r\n" +
					"Etag: " + etag + "\r\nLocation: " + loc + "\r\nPreference-Applied: return-no-content\r\nX-Content-Type-Options: nosniff\r\n\r\n\r\n")
			}
			out.WriteString("--changesetresponse_y--\r\n--batchresponse_x--\r\n")
			h.Set("Content-Type", "multipart/mixed; boundary=batchresponse_x")
			w.WriteHeader(http.StatusAccepted)
			w.Write(out.Bytes())
		default: // a point get
			h.Set("Content-Type", "application/json;odata=minimalmetadata;streaming=true;charset=utf-8")
			h.Set("Etag", etag)
			w.Write(entity)
		}
	})}
	go srv.Serve(l)
	t.Cleanup(func() { srv.Close() })
	return "DefaultEndpointsProtocol=http;AccountName=devstoreaccount1;AccountKey=" + server.DevelopmentKey + ";TableEndpoint=" + base + ";"
}

// cpuOf is cpuTime, or -1 when it cannot be read.
func cpuOf(pid int) time.Duration {
	if d, ok := cpuTime(pid); ok {
		return d
	}
	return -1
}

func ms(d time.Duration) string {
	return fmt.Sprintf("%.2f ms", float64(d)/float64(time.Millisecond))
}
