package server

import (
	"context"
	"fmt"
	"github.com/tstable/tstable/backend"
	"net"
	"net/http"
	"net/http/httptest"
	"path/filepath"
	"testing"
	"time"

	"github.com/Azure/azure-sdk-for-go/sdk/data/aztables"
	"github.com/tstable/tstable/odata"
	"github.com/tstable/tstable/server/auth"
	"github.com/tstable/tstable/store"
)

// The server's cost of one request as tstable serve answers it, beside
// the store's: what wraps every request on its way in (the console, its
// heat counter and query log, the bounds on connections: the ConnState
// hook called as the connection turns active and idle again) and the
// request itself, signed with an account SAS in the URL as bench-serve's
// wrk signs it. go test -bench Served -benchmem ./server/

// servedConn is a connection as the ConnState hook sees it.
type servedConn struct{ net.Conn }

// served is a handler over a new file with 10 partitions of 100
// entities, wrapped as serve wraps it, and the account SAS to sign with.
func served(b *testing.B) (http.Handler, *connBook, string) {
	db, err := store.Open(filepath.Join(b.TempDir(), "s.db"), nil)
	if err != nil {
		b.Fatal(err)
	}
	b.Cleanup(func() { db.Close() })
	ctx := context.Background()
	if err := db.CreateTable(ctx, "Bench"); err != nil {
		b.Fatal(err)
	}
	for p := 0; p < 10; p++ {
		ops := make([]backend.Operation, 100)
		for i := range ops {
			e := &odata.Entity{PartitionKey: fmt.Sprintf("p%03d", p), RowKey: fmt.Sprintf("%07d", p*100+i)}
			e.Set("Name", odata.String("name of the entity"))
			e.Set("Value", odata.Int32(int32(i)))
			ops[i] = backend.Operation{Kind: backend.OpInsert, Entity: e}
		}
		if _, err := db.Batch(ctx, "Bench", ops); err != nil {
			b.Fatal(err)
		}
	}
	key, _ := auth.DecodeKey(DevelopmentKey)
	s := New(db, Options{Authorizer: KeyAuthorizer(auth.New(DefaultAccount, key))})
	h := s.WithConsole(false, s)
	book := newConnBook(serviceBounds)
	s.conns = book
	cred, err := aztables.NewSharedKeyCredential(DefaultAccount, DevelopmentKey)
	if err != nil {
		b.Fatal(err)
	}
	sas, err := aztables.AccountSASSignatureValues{
		Protocol:      aztables.SASProtocolHTTPSandHTTP,
		Permissions:   aztables.AccountSASPermissions{Read: true, Write: true, List: true, Add: true, Update: true}.String(),
		Services:      "t",
		ResourceTypes: aztables.AccountSASResourceTypes{Service: true, Container: true, Object: true}.String(),
		StartTime:     time.Now().Add(-time.Minute),
		ExpiryTime:    time.Now().Add(2 * time.Hour),
	}.Sign(cred)
	if err != nil {
		b.Fatal(err)
	}
	return h, book, sas.Encode()
}

// serveServed runs one request through h as a kept-alive connection c
// carries it.
func serveServed(b *testing.B, h http.Handler, book *connBook, c net.Conn, req *http.Request, want int) {
	book.track(c, http.StateActive)
	w := httptest.NewRecorder()
	h.ServeHTTP(w, req)
	book.track(c, http.StateIdle)
	if w.Code != want {
		b.Fatalf("%s %s: %d %s", req.Method, req.URL, w.Code, w.Body)
	}
}

func servedRequest(method, target string) *http.Request {
	req := httptest.NewRequest(method, target, nil)
	req.Header.Set("Accept", "application/json;odata=minimalmetadata")
	req.Header.Set("x-ms-version", "2019-02-02")
	req.Header.Set("DataServiceVersion", "3.0")
	return req
}

// BenchmarkServedGet is one point get a loop, as wrk sends them.
func BenchmarkServedGet(b *testing.B) {
	h, book, sas := served(b)
	c := &servedConn{}
	book.track(c, http.StateNew)
	b.ReportAllocs()
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		n := i % 1000
		target := fmt.Sprintf("/%s/Bench(PartitionKey='p%03d',RowKey='%07d')?%s", DefaultAccount, n/100, n, sas)
		serveServed(b, h, book, c, servedRequest(http.MethodGet, target), http.StatusOK)
	}
}

// BenchmarkServedPartitionPage is the mixed load's query: the first page
// of 100 entities of a partition.
func BenchmarkServedPartitionPage(b *testing.B) {
	h, book, sas := served(b)
	c := &servedConn{}
	book.track(c, http.StateNew)
	b.ReportAllocs()
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		target := fmt.Sprintf("/%s/Bench()?$top=100&$filter=PartitionKey%%20eq%%20%%27p%03d%%27&%s", DefaultAccount, i%10, sas)
		serveServed(b, h, book, c, servedRequest(http.MethodGet, target), http.StatusOK)
	}
}
