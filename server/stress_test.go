package server_test

import (
	"context"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"net/url"
	"strings"
	"testing"
	"time"

	"github.com/tstable/tstable/backend"
	"github.com/tstable/tstable/loadtest"
	"github.com/tstable/tstable/odata"
	"github.com/tstable/tstable/remote"
	"github.com/tstable/tstable/server"
	"github.com/tstable/tstable/server/auth"
	"github.com/tstable/tstable/store"
	"github.com/tstable/tstable/tstabletest"
)

// stressTimeout bounds each request of a stress test: a request that
// waits longer has met a deadlock, and fails the test instead of hanging it.
const stressTimeout = 30 * time.Second

// stressFor is how long a stress test keeps its clients busy: shorter
// under the race detector, which slows every request, and with -short.
func stressFor() time.Duration {
	if testing.Short() || raceEnabled {
		return 2 * time.Second
	}
	return 8 * time.Second
}

// expect sends a request and checks its answer's status: any other (a
// 5xx above all) is the request's failure, with the body that says why.
func (c *client) expect(status int, method, path string, body []byte, headers ...string) (response, error) {
	r, err := c.send(method, path, body, headers...)
	if err != nil {
		return r, err
	}
	if r.status != status {
		return r, fmt.Errorf("%d %s (%s), want %d", r.status, r.errorCode(), r.errorMessage(), status)
	}
	return r, nil
}

// entityPath is the path of one entity of table.
func entityPath(table, pk, rk string) string {
	return fmt.Sprintf("/%s(PartitionKey='%s',RowKey='%s')", table, pk, rk)
}

// Several clients read and write one served file at once, as an
// application and its tests do, through real signed HTTP requests on a
// real listener: point gets, pages followed by their continuation,
// filtered table scans and exports (the remote backend's paged reading,
// as tstable export does through a server) beside inserts, deletes,
// merges, upserts, entity group transactions, tables created and deleted,
// and an import (the remote backend's Load, as tstable import does
// through a server). No request may fail or hang, every acknowledged
// write must be read back as it was written, and the file must check
// clean once the server has stopped. (Reads beside a write once answered
// 500 DatabaseDamaged, "page N is in use but also on the list of free
// pages", and the server refused every request after that.)
func TestServeUnderConcurrentLoad(t *testing.T) {
	srv := tstabletest.NewServer(t)
	key, err := auth.DecodeKey(server.DevelopmentKey)
	if err != nil {
		t.Fatal(err)
	}
	hc := &http.Client{Timeout: stressTimeout}
	c := &client{t: t, url: srv.URL(), key: key, http: hc}
	rb, err := remote.Open(remote.Config{ConnectionString: srv.ConnectionString(), MaxRetries: -1, Transport: hc})
	if err != nil {
		t.Fatal(err)
	}
	ctx := context.Background()
	c.mustDo(201, "POST", "/Tables", []byte(`{"TableName":"Load"}`))
	const seeded = 2000
	var seed []string
	for i := range seeded {
		seed = append(seed, fmt.Sprintf("PUT /Load(PartitionKey='p',RowKey='%05d')\n\n{\"N\":%d,\"V\":\"seed\"}", i, i))
		if len(seed) == 100 {
			ct, body := batchBody(c.url, seed)
			if r := c.mustDo(202, "POST", "/$batch", body, "Content-Type", ct); strings.Contains(r.body, "odata.error") {
				t.Fatalf("seeding: %s", r.body)
			}
			seed = seed[:0]
		}
	}

	acked := map[string]string{}
	for i := range seeded {
		acked[fmt.Sprintf("p/%05d", i)] = "seed"
	}
	s := loadtest.New(acked)
	stressWriters(s, c, rb)
	stressReaders(s, c, rb, seeded)
	t.Logf("%d requests and loads", s.Run(t, stressFor()))

	// Every acknowledged write reads back as written.
	got := map[string]string{}
	if _, err := rb.Query(ctx, "Load", backend.QueryRequest{}, func(e *odata.Entity) error {
		v, _ := e.Get("V")
		got[e.PartitionKey+"/"+e.RowKey] = v.Str
		return nil
	}); err != nil {
		t.Fatalf("reading the table back: %v", err)
	}
	s.ReadBack(t, got)
	srv.Close()
	rep, err := store.Check(ctx, srv.DBPath, nil)
	if err != nil || !rep.OK() {
		t.Errorf("check after the load: %v %+v", err, rep)
	}
}

// stressWriters starts the writing clients.
func stressWriters(s *loadtest.Load, c *client, rb *remote.Backend) {
	s.Loop("inserter", func(i int) error { // insert, then delete or merge
		rk := fmt.Sprintf("i%06d", i)
		path := entityPath("Load", "q", rk)
		if _, err := c.expect(204, "POST", "/Load", []byte(fmt.Sprintf(`{"PartitionKey":"q","RowKey":"%s","V":"ins"}`, rk)), "Prefer", "return-no-content"); err != nil {
			return fmt.Errorf("insert %s: %w", rk, err)
		}
		s.Ack("q", rk, "ins")
		switch i % 3 {
		case 1:
			if _, err := c.expect(204, "DELETE", path, nil, "If-Match", "*"); err != nil {
				return fmt.Errorf("delete %s: %w", rk, err)
			}
			s.Ack("q", rk, "")
		case 2:
			if _, err := c.expect(204, "MERGE", path, []byte(`{"V":"merged"}`), "If-Match", "*"); err != nil {
				return fmt.Errorf("merge %s: %w", rk, err)
			}
			s.Ack("q", rk, "merged")
		}
		return nil
	})
	s.Loop("upserter", func(i int) error { // Insert Or Replace and Insert Or Merge over the seeded rows
		rk := fmt.Sprintf("%05d", (i*7)%2000)
		v, method := fmt.Sprintf("u%d", i), "PUT"
		if i%2 == 1 {
			method = "MERGE"
		}
		if _, err := c.expect(204, method, entityPath("Load", "p", rk), []byte(fmt.Sprintf(`{"N":%d,"V":"%s"}`, (i*7)%2000, v))); err != nil {
			return fmt.Errorf("%s %s: %w", method, rk, err)
		}
		s.Ack("p", rk, v)
		return nil
	})
	s.Loop("batcher", func(i int) error { // entity group transactions
		pk := fmt.Sprintf("b%05d", i)
		var ops []string
		for j := range 20 {
			ops = append(ops, fmt.Sprintf("PUT /Load(PartitionKey='%s',RowKey='%03d')\n\n{\"V\":\"batch\"}", pk, j))
		}
		ct, body := batchBody(c.url, ops)
		r, err := c.expect(202, "POST", "/$batch", body, "Content-Type", ct)
		if err == nil && strings.Contains(r.body, "odata.error") {
			err = fmt.Errorf("refused: %s", r.body)
		}
		if err != nil {
			return fmt.Errorf("batch %s: %w", pk, err)
		}
		for j := range 20 {
			s.Ack(pk, fmt.Sprintf("%03d", j), "batch")
		}
		return nil
	})
	s.Loop("importer", func(i int) error { // tstable import through the server
		pk, n := fmt.Sprintf("l%05d", i), 0
		src := func() (*odata.Entity, error) {
			if n == 300 {
				return nil, io.EOF
			}
			n++
			return &odata.Entity{PartitionKey: pk, RowKey: fmt.Sprintf("%04d", n), Properties: []odata.Property{{Name: "V", Value: odata.String("imp")}}}, nil
		}
		res, err := rb.Load(context.Background(), "Load", backend.OpInsertOrMerge, src, backend.LoadOptions{})
		if err == nil && res.Written != 300 {
			err = fmt.Errorf("wrote %d of 300", res.Written)
		}
		if err != nil {
			return fmt.Errorf("import %s: %w", pk, err)
		}
		for j := 1; j <= 300; j++ {
			s.Ack(pk, fmt.Sprintf("%04d", j), "imp")
		}
		return nil
	})
	s.Loop("tables", func(i int) error { // a table created, written, read and deleted
		name := fmt.Sprintf("Scratch%d", i)
		steps := []struct {
			method, path, body string
			status             int
		}{
			{"POST", "/Tables", `{"TableName":"` + name + `"}`, 201},
			{"POST", "/" + name, `{"PartitionKey":"a","RowKey":"b"}`, 201},
			{"GET", "/" + name + "()", "", 200},
			{"GET", "/Tables", "", 200},
			{"DELETE", "/Tables('" + name + "')", "", 204},
		}
		for _, st := range steps {
			var body []byte
			if st.body != "" {
				body = []byte(st.body)
			}
			if _, err := c.expect(st.status, st.method, st.path, body); err != nil {
				return fmt.Errorf("%s %s: %w", st.method, st.path, err)
			}
		}
		return nil
	})
}

// stressReaders starts the reading clients.
func stressReaders(s *loadtest.Load, c *client, rb *remote.Backend, seeded int) {
	s.Loop("getter", func(i int) error {
		rk := fmt.Sprintf("%05d", (i*13)%seeded)
		_, err := c.expect(200, "GET", entityPath("Load", "p", rk), nil)
		return err
	})
	s.Loop("pager", func(int) error { // the whole table, a page at a time, in key order
		path, last, rows := "/Load()?$top=250", "", 0
		for {
			r, err := c.expect(200, "GET", path, nil)
			if err != nil {
				return fmt.Errorf("page after %q: %w", last, err)
			}
			var page struct{ Value []odata.Key }
			if err := json.Unmarshal([]byte(r.body), &page); err != nil {
				return fmt.Errorf("page after %q: %v", last, err)
			}
			for _, k := range page.Value {
				if k := k.PartitionKey + "\x00" + k.RowKey; k <= last {
					return fmt.Errorf("page after %q: key %q out of order", last, k)
				} else {
					last = k
				}
			}
			rows += len(page.Value)
			npk := r.header.Get("x-ms-continuation-NextPartitionKey")
			if npk == "" {
				if rows < seeded {
					return fmt.Errorf("the pages held %d entities, fewer than the %d seeded", rows, seeded)
				}
				return nil
			}
			path = "/Load()?$top=250&NextPartitionKey=" + url.QueryEscape(npk) + "&NextRowKey=" + url.QueryEscape(r.header.Get("x-ms-continuation-NextRowKey"))
		}
	})
	s.Loop("scanner", func(i int) error { // a filtered table scan, every page
		lo := (i * 37) % seeded
		f, err := odata.ParseFilter(fmt.Sprintf("N ge %d and N lt %d", lo, lo+10))
		if err != nil {
			return err
		}
		n := 0
		if _, err := rb.Query(context.Background(), "Load", backend.QueryRequest{Query: odata.Query{Filter: f}}, func(*odata.Entity) error { n++; return nil }); err != nil {
			return fmt.Errorf("scan from %d: %w", lo, err)
		}
		if want := min(10, seeded-lo); n < want {
			return fmt.Errorf("scan from %d found %d entities, want at least %d", lo, n, want)
		}
		return nil
	})
	s.Loop("exporter", func(int) error { // tstable export through the server
		n := 0
		if _, err := rb.Query(context.Background(), "Load", backend.QueryRequest{}, func(*odata.Entity) error { n++; return nil }); err != nil {
			return fmt.Errorf("export: %w", err)
		}
		if n < seeded {
			return fmt.Errorf("export read %d entities, fewer than the %d seeded", n, seeded)
		}
		return nil
	})
}
