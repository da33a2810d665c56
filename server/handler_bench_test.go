package server_test

import (
	"bytes"
	"context"
	"io"
	"net/http"
	"net/http/httptest"
	"path/filepath"
	"sync"
	"testing"

	"github.com/Azure/azure-sdk-for-go/sdk/data/aztables"
	"github.com/tstable/tstable/server"
	"github.com/tstable/tstable/server/auth"
	"github.com/tstable/tstable/store"
)

// The server's own cost of make bench-serve's requests, without the
// client and the network: the Go SDK's requests (batches of 100 inserts,
// point gets), signed with the emulator's key, recorded once and replayed
// into the handler. go test -bench ServeHandler -benchmem ./server/

// recorder answers every request 202 (a batch response of one 204) or 200 and
// keeps it, so that the SDK's requests can be replayed.
type recorder struct {
	mu   sync.Mutex
	reqs []*http.Request
	body [][]byte
}

func (r *recorder) RoundTrip(req *http.Request) (*http.Response, error) {
	var b []byte
	if req.Body != nil {
		b, _ = io.ReadAll(req.Body)
	}
	r.mu.Lock()
	r.reqs, r.body = append(r.reqs, req), append(r.body, b)
	r.mu.Unlock()
	resp := &http.Response{StatusCode: 200, Header: http.Header{}, Body: io.NopCloser(bytes.NewReader([]byte("{}"))), Request: req}
	if bytes.Contains([]byte(req.URL.Path), []byte("$batch")) {
		resp.StatusCode = 202
		resp.Header.Set("Content-Type", "multipart/mixed; boundary=batchresponse_x")
		resp.Body = io.NopCloser(bytes.NewReader([]byte("--batchresponse_x\r\nContent-Type: multipart/mixed; boundary=changesetresponse_y\r\n\r\n" +
			"--changesetresponse_y\r\nContent-Type: application/http\r\n\r\nHTTP/1.1 204 No Content\r\n\r\n\r\n" +
			"--changesetresponse_y--\r\n--batchresponse_x--\r\n")))
	}
	return resp, nil
}

// replay is one recorded request, ready to serve again.
func (r *recorder) replay(i int) *http.Request {
	req := r.reqs[i].Clone(context.Background())
	req.Body = io.NopCloser(bytes.NewReader(r.body[i]))
	req.RequestURI, req.Host = req.URL.RequestURI(), req.URL.Host
	return req
}

// recorded makes n requests with the SDK, as the bench makes them, and
// records them.
func recorded(b *testing.B, n int, do func(c *aztables.Client, i int) (int64, error)) *recorder {
	rec := &recorder{}
	opts := &aztables.ClientOptions{}
	opts.Transport = &http.Client{Transport: rec}
	cs := "DefaultEndpointsProtocol=http;AccountName=devstoreaccount1;AccountKey=" + server.DevelopmentKey + ";TableEndpoint=http://127.0.0.1:10002/devstoreaccount1;"
	svc, err := aztables.NewServiceClientFromConnectionString(cs, opts)
	if err != nil {
		b.Fatal(err)
	}
	c := svc.NewClient("Bench")
	for i := 0; i < n; i++ {
		if _, err := do(c, i); err != nil {
			b.Fatal(err)
		}
	}
	return rec
}

// handler is a server over a new file with the bench's table, as serve
// runs it (Shared Key required).
func handler(b *testing.B) *server.Server {
	db, err := store.Open(filepath.Join(b.TempDir(), "h.db"), nil)
	if err != nil {
		b.Fatal(err)
	}
	b.Cleanup(func() { db.Close() })
	if err := db.CreateTable(context.Background(), "Bench"); err != nil {
		b.Fatal(err)
	}
	key, _ := auth.DecodeKey(server.DevelopmentKey)
	return server.New(db, server.Options{Authorizer: server.KeyAuthorizer(auth.New(server.DefaultAccount, key))})
}

func serveOne(b *testing.B, h *server.Server, req *http.Request, want int) {
	w := httptest.NewRecorder()
	h.ServeHTTP(w, req)
	if w.Code != want {
		b.Fatalf("%s %s: %d %s", req.Method, req.URL, w.Code, w.Body)
	}
}

// BenchmarkServeHandlerBatch is one batch of 100 inserts a loop, each
// committed (and synced) on its own.
func BenchmarkServeHandlerBatch(b *testing.B) {
	benchInputs()
	rec := recorded(b, benchEntities/100, insertBatch)
	h := handler(b)
	b.ReportAllocs()
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		if i > 0 && i%len(rec.reqs) == 0 {
			b.StopTimer()
			h = handler(b)
			b.StartTimer()
		}
		serveOne(b, h, rec.replay(i%len(rec.reqs)), http.StatusAccepted)
	}
}

// BenchmarkServeHandlerGet is one point get of the bench a loop.
func BenchmarkServeHandlerGet(b *testing.B) {
	benchInputs()
	h := handler(b)
	batches := recorded(b, benchEntities/100, insertBatch)
	for i := range batches.reqs {
		serveOne(b, h, batches.replay(i), http.StatusAccepted)
	}
	rec := recorded(b, benchGets, workloads[1].req)
	b.ReportAllocs()
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		serveOne(b, h, rec.replay(i%len(rec.reqs)), http.StatusOK)
	}
}
