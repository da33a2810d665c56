package server_test

import (
	"context"
	"encoding/json"
	"fmt"
	"io"
	"math/rand"
	"net"
	"net/http"
	"os"
	"path/filepath"
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
	benchParallel   = 8
	benchGets       = 5_000
	benchPartQuery  = 40
	benchScans      = 5
)

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
	actions := make([]aztables.TransactionAction, 100)
	for j := range actions {
		i := (chunk*100+j)*benchPartitions + p
		actions[j] = aztables.TransactionAction{ActionType: aztables.TransactionTypeAdd, Entity: benchEntity(i)}
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
		i := rand.New(rand.NewSource(int64(g))).Intn(benchEntities)
		_, err := c.GetEntity(context.Background(), fmt.Sprintf("p%03d", i%benchPartitions), fmt.Sprintf("%07d", i), nil)
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
// both meet the same load of the machine.
func TestBenchServe(t *testing.T) {
	if os.Getenv("TSTABLE_BENCH_SERVE") == "" {
		t.Skip("set TSTABLE_BENCH_SERVE=1 (make bench-serve)")
	}
	_, url, _ := startServe(t, filepath.Join(t.TempDir(), "bench.db"))
	tsTimes := &serverTimes{}
	ts := benchClient(t, "DefaultEndpointsProtocol=http;AccountName=devstoreaccount1;AccountKey="+server.DevelopmentKey+";TableEndpoint="+url+";", tsTimes)
	az := benchClient(t, storetest.StartAzurite(t), &serverTimes{})
	sdk := benchClient(t, instantService(t), &serverTimes{})

	var b strings.Builder
	fmt.Fprintf(&b, "%d entities in %d partitions, %d requests in flight, Go SDK (aztables)\n", benchEntities, benchPartitions, benchParallel)
	fmt.Fprintf(&b, "%-20s %14s %10s %10s   %14s %10s %10s   %7s   %s\n", "workload", "tstable ent/s", "median", "p99", "Azurite ent/s", "median", "p99", "ratio", "tstable's own time a request: median, p99")
	ratios := map[string]float64{}
	var getMedian time.Duration
	for _, w := range workloads {
		tsTimes.take()
		x := parallel(t, w.n, func(i int) (int64, error) { return w.req(ts, i) })
		own := tsTimes.take()
		y := parallel(t, w.n, func(i int) (int64, error) { return w.req(az, i) })
		ratios[w.name] = x.perSecond() / y.perSecond()
		if w.name == "point get" {
			getMedian = x.quantile(0.5)
		}
		fmt.Fprintf(&b, "%-20s %14.0f %10s %10s   %14.0f %10s %10s   %6.1fx   %s, %s\n", w.name,
			x.perSecond(), ms(x.quantile(0.5)), ms(x.quantile(0.99)),
			y.perSecond(), ms(y.quantile(0.5)), ms(y.quantile(0.99)), ratios[w.name],
			ms(own.quantile(0.5)), ms(own.quantile(0.99)))
	}
	// What the client itself can send: the same transactions against a
	// service that answers at once, without reading them.
	c := parallel(t, 300, func(i int) (int64, error) { return insertBatch(sdk, i) })
	fmt.Fprintf(&b, "(the Go SDK alone, against a service that answers at once: batch insert %.0f ent/s, median %s)\n", c.perSecond(), ms(c.quantile(0.5)))
	t.Log("\n" + b.String())
	fmt.Print(b.String())
	for _, w := range []string{"batch insert", "point get"} {
		if ratios[w] < 10 {
			t.Errorf("%s: tstable is %.1fx Azurite; the floor is 10x", w, ratios[w])
		}
	}
	if getMedian >= time.Millisecond {
		t.Errorf("point get median %s; the floor is under 1 ms", getMedian)
	}
}

// instantService is an HTTP service that accepts any table and any batch
// at once, to measure the client alone.
func instantService(t *testing.T) string {
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	srv := &http.Server{Handler: http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		io.Copy(io.Discard, r.Body)
		if strings.HasSuffix(r.URL.Path, "/Tables") {
			w.WriteHeader(http.StatusNoContent)
			return
		}
		w.Header().Set("Content-Type", "multipart/mixed; boundary=batchresponse_x")
		w.WriteHeader(http.StatusAccepted)
		io.WriteString(w, "--batchresponse_x\r\nContent-Type: multipart/mixed; boundary=changesetresponse_y\r\n\r\n"+
			"--changesetresponse_y\r\nContent-Type: application/http\r\n\r\nHTTP/1.1 204 No Content\r\n\r\n\r\n"+
			"--changesetresponse_y--\r\n--batchresponse_x--\r\n")
	})}
	go srv.Serve(l)
	t.Cleanup(func() { srv.Close() })
	return "DefaultEndpointsProtocol=http;AccountName=devstoreaccount1;AccountKey=" + server.DevelopmentKey + ";TableEndpoint=http://" + l.Addr().String() + "/devstoreaccount1;"
}

func ms(d time.Duration) string {
	return fmt.Sprintf("%.2f ms", float64(d)/float64(time.Millisecond))
}
