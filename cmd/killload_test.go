package cmd

import (
	"bufio"
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"math/rand"
	"net"
	"net/http"
	"net/url"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"sort"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"syscall"
	"testing"
	"time"

	"github.com/tstable/tstable/loadtest"
)

// servedProcess is tstable serve running as a process of its own.
type servedProcess struct {
	cmd  *exec.Cmd
	url  string // http://127.0.0.1:PORT/devstoreaccount1
	mu   sync.Mutex
	tail []string // its last lines on standard error
}

var servingAt = regexp.MustCompile(` at (http://\S+)`)

// startServeProcess runs tstable serve --no-auth on db at a port of its own and
// returns once it has said where it serves.
func startServeProcess(bin, db string) (*servedProcess, error) {
	p := &servedProcess{cmd: exec.Command(bin, "serve", "--db", db, "--addr", "127.0.0.1:0", "--no-auth")}
	p.cmd.Stdout = io.Discard
	stderr, err := p.cmd.StderrPipe()
	if err != nil {
		return nil, err
	}
	if err := p.cmd.Start(); err != nil {
		return nil, err
	}
	found := make(chan string, 1)
	go func() {
		sc := bufio.NewScanner(stderr)
		for sc.Scan() {
			p.mu.Lock()
			p.tail = append(p.tail, sc.Text())
			if len(p.tail) > 20 {
				p.tail = p.tail[1:]
			}
			p.mu.Unlock()
			if m := servingAt.FindStringSubmatch(sc.Text()); m != nil {
				select {
				case found <- m[1]:
				default:
				}
			}
		}
		close(found)
	}()
	select {
	case u, ok := <-found:
		if ok {
			p.url = u
			return p, nil
		}
		p.cmd.Wait()
		return nil, fmt.Errorf("tstable serve stopped before serving: %s", p.said())
	case <-time.After(60 * time.Second):
		p.kill()
		return nil, fmt.Errorf("tstable serve did not say where it serves within a minute: %s", p.said())
	}
}

// said is the server's last lines on standard error.
func (p *servedProcess) said() string {
	p.mu.Lock()
	defer p.mu.Unlock()
	return strings.Join(p.tail, "\n")
}

// kill stops the server with SIGKILL, as a crash or the OOM killer does.
func (p *servedProcess) kill() {
	p.cmd.Process.Kill()
	p.cmd.Wait()
}

// stop stops the server as Ctrl-C does and returns its exit error.
func (p *servedProcess) stop() error {
	p.cmd.Process.Signal(os.Interrupt)
	return p.cmd.Wait()
}

// killLoad is the clients' view of a server that is killed and restarted:
// where it serves now, every value a writer sent (whether or not it was
// acknowledged), and what went wrong, by kind.
type killLoad struct {
	*loadtest.Load
	url      atomic.Pointer[string]
	hc       *http.Client
	requests atomic.Int64
	writes   atomic.Int64 // write requests acknowledged
	mu       sync.Mutex
	sent     map[string]bool     // every value written: "pk/rk#n"
	order    map[string][]string // "pk/rk" → the values written, in turn ("" a delete)
	errs     map[string]int      // requests that got no answer, by kind
}

// value returns a value never sent before for entity (pk, rk), and
// records that it was sent.
func (k *killLoad) value(pk, rk string, n int) string {
	v := fmt.Sprintf("%s/%s#%d", pk, rk, n)
	k.mu.Lock()
	k.sent[v] = true
	k.order[pk+"/"+rk] = append(k.order[pk+"/"+rk], v)
	k.mu.Unlock()
	return v
}

// deleting records that entity (pk, rk) is to be deleted.
func (k *killLoad) deleting(pk, rk string) {
	k.mu.Lock()
	k.order[pk+"/"+rk] = append(k.order[pk+"/"+rk], "")
	k.mu.Unlock()
}

// lost returns, for each acknowledged write whose entity does not hold
// its value in got ("pk/rk" → value, as read after the load), why. As
// each entity is written by one writer in turn, a value written after the
// acknowledged one (a write that got no answer but was done) is no loss.
func (k *killLoad) lost(got map[string]string) []string {
	var lost []string
	for key, v := range k.Acked() {
		later := k.order[key]
		for len(later) > 0 && later[0] != v {
			later = later[1:]
		}
		if len(later) == 0 {
			lost = append(lost, fmt.Sprintf("%s: acknowledged as %q, which was never written", key, v))
			continue
		}
		found := false
		for _, w := range later {
			found = found || got[key] == w
		}
		if !found {
			lost = append(lost, fmt.Sprintf("%s: the value is %q after the load, want %q as acknowledged (or one written after it)", key, got[key], v))
		}
	}
	sort.Strings(lost)
	return lost
}

// checkRead is an error when v, read as entity (pk, rk)'s value, is not a
// value some writer sent for that entity.
func (k *killLoad) checkRead(pk, rk, v string) error {
	k.mu.Lock()
	ok := k.sent[v]
	k.mu.Unlock()
	if !ok || !strings.HasPrefix(v, pk+"/"+rk+"#") {
		return fmt.Errorf("%s/%s read as %q, a value never written", pk, rk, v)
	}
	return nil
}

// noAnswer counts a request that got no answer, by its kind.
func (k *killLoad) noAnswer(err error) {
	kind := "other: " + err.Error()
	var ne net.Error
	switch {
	case errors.Is(err, syscall.ECONNREFUSED):
		kind = "connection refused"
	case errors.Is(err, syscall.ECONNRESET):
		kind = "connection reset"
	case errors.Is(err, syscall.EPIPE):
		kind = "broken pipe"
	case errors.Is(err, io.EOF), errors.Is(err, io.ErrUnexpectedEOF):
		kind = "EOF"
	case strings.Contains(err.Error(), "server closed idle connection"):
		kind = "server closed idle connection"
	case errors.As(err, &ne) && ne.Timeout():
		kind = "timeout"
	}
	k.mu.Lock()
	k.errs[kind]++
	k.mu.Unlock()
}

// errNoAnswer is a request's failure to reach a live server: expected
// while the server is down, and not the test's failure.
var errNoAnswer = errors.New("no answer")

// do sends a request to the server as it is now. An error that is not
// errNoAnswer is an answer no request of this test should get.
func (k *killLoad) do(method, path string, body []byte, want int, headers ...string) (http.Header, []byte, error) {
	return k.doAt(*k.url.Load(), method, path, body, want, headers...)
}

// doAt is do to the server at base, as it was when the request was made.
func (k *killLoad) doAt(base, method, path string, body []byte, want int, headers ...string) (http.Header, []byte, error) {
	k.requests.Add(1)
	req, err := http.NewRequest(method, base+path, bytes.NewReader(body))
	if err != nil {
		return nil, nil, err
	}
	req.Header.Set("Accept", "application/json;odata=nometadata")
	req.Header.Set("Content-Type", "application/json")
	for i := 0; i+1 < len(headers); i += 2 {
		req.Header.Set(headers[i], headers[i+1])
	}
	resp, err := k.hc.Do(req)
	if err != nil {
		k.noAnswer(err)
		time.Sleep(20 * time.Millisecond) // the server may be down: let it start
		return nil, nil, errNoAnswer
	}
	defer resp.Body.Close()
	b, err := io.ReadAll(resp.Body)
	if err != nil {
		k.noAnswer(err)
		return nil, nil, errNoAnswer
	}
	if resp.StatusCode != want {
		return nil, nil, fmt.Errorf("%s %s: %d %s, want %d", method, path, resp.StatusCode, b, want)
	}
	return resp.Header, b, nil
}

// tolerate turns errNoAnswer into success: the load goes on.
func tolerate(err error) error {
	if errors.Is(err, errNoAnswer) {
		return nil
	}
	return err
}

// killLoadWriters starts the writers: each owns the entities it writes,
// so that an entity's values come from one writer in turn.
func killLoadWriters(k *killLoad) {
	k.Loop("inserter", func(i int) error { // insert, then delete or merge
		rk := fmt.Sprintf("%06d", i)
		v := k.value("ins", rk, 0)
		if _, _, err := k.do("POST", "/Load", fmt.Appendf(nil, `{"PartitionKey":"ins","RowKey":"%s","V":"%s"}`, rk, v), 204, "Prefer", "return-no-content"); err != nil {
			return tolerate(err)
		}
		k.writes.Add(1)
		k.Ack("ins", rk, v)
		path := fmt.Sprintf("/Load(PartitionKey='ins',RowKey='%s')", rk)
		switch i % 3 {
		case 1:
			k.deleting("ins", rk)
			if _, _, err := k.do("DELETE", path, nil, 204, "If-Match", "*"); err != nil {
				return tolerate(err)
			}
			k.writes.Add(1)
			k.Ack("ins", rk, "")
		case 2:
			v := k.value("ins", rk, 1)
			if _, _, err := k.do("MERGE", path, fmt.Appendf(nil, `{"V":"%s"}`, v), 204, "If-Match", "*"); err != nil {
				return tolerate(err)
			}
			k.writes.Add(1)
			k.Ack("ins", rk, v)
		}
		return nil
	})
	for w := range 2 {
		pk := fmt.Sprintf("up%d", w)
		k.Loop("upserter "+pk, func(i int) error { // Insert Or Replace and Insert Or Merge over 300 entities
			rk := fmt.Sprintf("%03d", (i*7)%300)
			method := "PUT"
			if i%2 == 1 {
				method = "MERGE"
			}
			v := k.value(pk, rk, i)
			if _, _, err := k.do(method, fmt.Sprintf("/Load(PartitionKey='%s',RowKey='%s')", pk, rk), fmt.Appendf(nil, `{"V":"%s"}`, v), 204); err != nil {
				return tolerate(err)
			}
			k.writes.Add(1)
			k.Ack(pk, rk, v)
			return nil
		})
	}
	k.Loop("batcher", func(i int) error { // entity group transactions of 20
		pk := fmt.Sprintf("b%06d", i)
		base := *k.url.Load()
		var b bytes.Buffer
		b.WriteString("--batch_b\r\nContent-Type: multipart/mixed; boundary=changeset_c\r\n\r\n")
		vals := make([]string, 20)
		for j := range vals {
			rk := fmt.Sprintf("%02d", j)
			vals[j] = k.value(pk, rk, 0)
			fmt.Fprintf(&b, "--changeset_c\r\nContent-Type: application/http\r\nContent-Transfer-Encoding: binary\r\n\r\n"+
				"PUT %s/Load(PartitionKey='%s',RowKey='%s') HTTP/1.1\r\nContent-Type: application/json\r\nAccept: application/json;odata=nometadata\r\n\r\n"+
				"{\"V\":\"%s\"}\r\n", base, pk, rk, vals[j])
		}
		b.WriteString("--changeset_c--\r\n--batch_b--\r\n")
		_, body, err := k.doAt(base, "POST", "/$batch", b.Bytes(), 202, "Content-Type", "multipart/mixed; boundary=batch_b")
		if err != nil {
			return tolerate(err)
		}
		if bytes.Contains(body, []byte("odata.error")) {
			return fmt.Errorf("batch %s refused: %s", pk, body)
		}
		k.writes.Add(1)
		for j, v := range vals {
			k.Ack(pk, fmt.Sprintf("%02d", j), v)
		}
		return nil
	})
}

// killLoadReaders starts the readers: point gets and partition queries,
// every value they see checked against the values sent.
func killLoadReaders(k *killLoad) {
	k.Loop("getter", func(i int) error {
		pk, rk := fmt.Sprintf("up%d", i%2), fmt.Sprintf("%03d", (i*13)%300)
		req, err := http.NewRequest("GET", *k.url.Load()+fmt.Sprintf("/Load(PartitionKey='%s',RowKey='%s')", pk, rk), nil)
		if err != nil {
			return err
		}
		req.Header.Set("Accept", "application/json;odata=nometadata")
		k.requests.Add(1)
		resp, err := k.hc.Do(req)
		if err != nil {
			k.noAnswer(err)
			time.Sleep(20 * time.Millisecond)
			return nil
		}
		defer resp.Body.Close()
		b, err := io.ReadAll(resp.Body)
		if err != nil {
			k.noAnswer(err)
			return nil
		}
		switch resp.StatusCode {
		case 404: // not written yet
			return nil
		case 200:
			var e struct{ V string }
			if err := json.Unmarshal(b, &e); err != nil {
				return fmt.Errorf("get %s/%s: %v: %s", pk, rk, err, b)
			}
			return k.checkRead(pk, rk, e.V)
		}
		return fmt.Errorf("get %s/%s: %d %s", pk, rk, resp.StatusCode, b)
	})
	for _, pk := range []string{"up0", "up1", "ins"} {
		k.Loop("partition "+pk, func(int) error {
			_, err := k.readPartition(fmt.Sprintf("PartitionKey eq '%s'", pk), true)
			return tolerate(err)
		})
	}
}

// readPartition reads every entity that filter selects, a page at a time,
// checking each value against the values sent (when check is set).
func (k *killLoad) readPartition(filter string, check bool) (map[string]string, error) {
	got := map[string]string{}
	next := ""
	for {
		h, b, err := k.do("GET", "/Load()?$filter="+url.QueryEscape(filter)+next, nil, 200)
		if err != nil {
			return nil, err
		}
		var page struct {
			Value []struct{ PartitionKey, RowKey, V string }
		}
		if err := json.Unmarshal(b, &page); err != nil {
			return nil, fmt.Errorf("query %s: %v: %s", filter, err, b)
		}
		for _, e := range page.Value {
			if check {
				if err := k.checkRead(e.PartitionKey, e.RowKey, e.V); err != nil {
					return nil, err
				}
			}
			got[e.PartitionKey+"/"+e.RowKey] = e.V
		}
		npk := h.Get("x-ms-continuation-NextPartitionKey")
		if npk == "" {
			return got, nil
		}
		next = "&NextPartitionKey=" + url.QueryEscape(npk) + "&NextRowKey=" + url.QueryEscape(h.Get("x-ms-continuation-NextRowKey"))
	}
}

// killPlan is how long the load runs and how often the server is killed:
// 10 s and 3 kills, or with TSTABLE_LONG_TEST=1 a minute and 20;
// TSTABLE_KILLS sets the number of kills (0 for the same load without),
// TSTABLE_KILL_SEED the seed of the moments.
func killPlan(t *testing.T) (d time.Duration, kills int, seed int64) {
	d, kills, seed = 10*time.Second, 3, time.Now().UnixNano()
	if os.Getenv("TSTABLE_LONG_TEST") != "" {
		d, kills = time.Minute, 20
	}
	if s := os.Getenv("TSTABLE_KILLS"); s != "" {
		n, err := strconv.Atoi(s)
		if err != nil {
			t.Fatalf("TSTABLE_KILLS=%q: %v", s, err)
		}
		kills = n
	}
	if s := os.Getenv("TSTABLE_KILL_SEED"); s != "" {
		n, err := strconv.ParseInt(s, 10, 64)
		if err != nil {
			t.Fatalf("TSTABLE_KILL_SEED=%q: %v", s, err)
		}
		seed = n
	}
	return d, kills, seed
}

// killMoments returns kills moments within d, one at random in each of
// kills+1 equal spans but the last (so the load runs on after the last
// restart), and not in a span's first fifth (so the server has started).
func killMoments(d time.Duration, kills int, seed int64) []time.Duration {
	r := rand.New(rand.NewSource(seed))
	span := d / time.Duration(kills+1)
	var at []time.Duration
	for i := range kills {
		at = append(at, time.Duration(i)*span+span/5+time.Duration(r.Int63n(int64(span*4/5))))
	}
	return at
}

// tstable serve under load (writers inserting, deleting, merging,
// upserting and sending entity group transactions beside readers of
// entities and partitions) is killed with SIGKILL at random moments and
// restarted on the same file, the load going on. A request that gets no
// answer (the server is down, or died while it was asked) may or may not
// have been done; every other must be answered as asked. Every write
// acknowledged must read back with its acknowledged value (or a value its
// writer sent after it, in a write that got no answer), no read may
// ever see a value never written, and check must find the file sound.
func TestServeKilledUnderLoad(t *testing.T) {
	if testing.Short() {
		t.Skip("kills a server under load for 10 s")
	}
	bin := buildBinary(t)
	db := filepath.Join(t.TempDir(), "killed.db")
	d, kills, seed := killPlan(t)
	moments := killMoments(d, kills, seed)
	t.Logf("%d kills in %s, seed %d (TSTABLE_KILL_SEED=%d repeats the moments): %v", kills, d, seed, seed, moments)

	srv, err := startServeProcess(bin, db)
	if err != nil {
		t.Fatal(err)
	}
	defer func() { srv.kill() }()
	k := &killLoad{
		Load:  loadtest.New(map[string]string{}),
		hc:    &http.Client{Timeout: procTimeout, Transport: &http.Transport{MaxIdleConnsPerHost: 16}},
		sent:  map[string]bool{},
		order: map[string][]string{},
		errs:  map[string]int{},
	}
	k.url.Store(&srv.url)
	if _, _, err := k.do("POST", "/Tables", []byte(`{"TableName":"Load"}`), 201); err != nil {
		t.Fatal(err)
	}
	killLoadWriters(k)
	killLoadReaders(k)

	start := time.Now()
	killed, ran := make(chan struct{}), make(chan struct{})
	go func() { // the killer
		defer close(killed)
		for n, at := range moments {
			select {
			case <-time.After(time.Until(start.Add(at))):
			case <-ran: // a client failed
				return
			}
			srv.kill()
			t.Logf("kill %d at %s", n+1, time.Since(start).Round(time.Millisecond))
			next, err := startServeProcess(bin, db)
			if err != nil {
				k.Fail("restart", err)
				return
			}
			srv = next
			k.url.Store(&srv.url)
		}
	}()
	k.Run(t, d)
	close(ran)
	<-killed
	if t.Failed() {
		t.Fatalf("the server said:\n%s", srv.said())
	}
	t.Logf("%d requests, %d acknowledged writes (%d entities), %d kills; no answer: %s",
		k.requests.Load(), k.writes.Load(), len(k.Acked()), len(moments), kindsOf(k.errs))

	// One more kill with nothing in flight, then every acknowledged write
	// reads back through a fresh server.
	srv.kill()
	if srv, err = startServeProcess(bin, db); err != nil {
		t.Fatal(err)
	}
	k.url.Store(&srv.url)
	got, err := k.readPartition("PartitionKey ne ''", true)
	if err != nil {
		t.Fatalf("reading the table back: %v", err)
	}
	lost := k.lost(got)
	t.Logf("%d acknowledged writes lost", len(lost))
	for _, l := range lost {
		t.Error(l)
	}
	if err := srv.stop(); err != nil {
		t.Errorf("tstable serve stopped with %v: %s", err, srv.said())
	}
	if out, err := exec.Command(bin, "--db", db, "check").CombinedOutput(); err != nil {
		t.Errorf("tstable check after the load: %v\n%s", err, out)
	}
}

// kindsOf lists counts by kind, most first.
func kindsOf(m map[string]int) string {
	if len(m) == 0 {
		return "none"
	}
	var kinds []string
	for k := range m {
		kinds = append(kinds, k)
	}
	sort.Slice(kinds, func(i, j int) bool { return m[kinds[i]] > m[kinds[j]] })
	var parts []string
	for _, k := range kinds {
		parts = append(parts, fmt.Sprintf("%s %d", k, m[k]))
	}
	return strings.Join(parts, ", ")
}
