package remote

import (
	"context"
	"io"
	"net"
	"net/http"
	"os"
	"strings"
	"syscall"
	"testing"

	"github.com/tstable/tstable/backend"
	"github.com/tstable/tstable/odata"
)

func TestScrub(t *testing.T) {
	in := `DefaultEndpointsProtocol=https;AccountName=acct;AccountKey=c2VjcmV0;EndpointSuffix=core.windows.net GET https://acct.table.core.windows.net/T?sv=2020&sig=abc%2Bdef&se=1`
	out := Scrub(in)
	if strings.Contains(out, "c2VjcmV0") || strings.Contains(out, "abc%2Bdef") {
		t.Errorf("secret left in %q", out)
	}
	if !strings.Contains(out, "AccountName=acct") || !strings.Contains(out, "sv=2020") {
		t.Errorf("too much removed: %q", out)
	}
}

func TestEndpointAndAccount(t *testing.T) {
	cases := []struct {
		cfg               Config
		endpoint, account string
	}{
		{Config{ConnectionString: "DefaultEndpointsProtocol=https;AccountName=acct;AccountKey=k;EndpointSuffix=core.windows.net"}, "https://acct.table.core.windows.net", "acct"},
		{Config{ConnectionString: "UseDevelopmentStorage=true"}, "http://127.0.0.1:10002/devstoreaccount1", "devstoreaccount1"},
		{Config{ConnectionString: "TableEndpoint=https://acct.table.core.windows.net/;SharedAccessSignature=sv=1&sig=x"}, "https://acct.table.core.windows.net/", "acct"},
		{Config{AccountURL: "http://127.0.0.1:10002/devstoreaccount1"}, "http://127.0.0.1:10002/devstoreaccount1", "devstoreaccount1"},
	}
	for _, tc := range cases {
		e, a, err := endpointAndAccount(tc.cfg)
		if err != nil || e != tc.endpoint || a != tc.account {
			t.Errorf("%+v: %q %q %v", tc.cfg, e, a, err)
		}
	}
	if _, _, err := endpointAndAccount(Config{ConnectionString: "nonsense"}); err == nil {
		t.Error("a connection string without '=' was accepted")
	}
}

// refusingTransport fails every request as a closed port does, counting.
type refusingTransport struct{ calls int }

func (r *refusingTransport) Do(req *http.Request) (*http.Response, error) {
	r.calls++
	return nil, &net.OpError{Op: "dial", Net: "tcp", Err: os.NewSyscallError("connect", syscall.ECONNREFUSED)}
}

// An endpoint that refuses connections is said at once, not after the
// throttling retries.
func TestRefusedConnectionIsNotRetried(t *testing.T) {
	tr := &refusingTransport{}
	b, err := Open(Config{ConnectionString: "UseDevelopmentStorage=true", Transport: tr})
	if err != nil {
		t.Fatal(err)
	}
	_, err = b.ListTables(context.Background())
	if odata.CodeOf(err) != odata.CodeServiceUnreachable || tr.calls != 1 {
		t.Errorf("err %v after %d requests; want ServiceUnreachable after 1", err, tr.calls)
	}
	if !shouldRetry(&http.Response{StatusCode: 503}, nil) || shouldRetry(&http.Response{StatusCode: 404}, nil) || !shouldRetry(nil, io.ErrUnexpectedEOF) {
		t.Error("503 and a broken connection are retried, 404 is not")
	}
}

// azuriteETags answers as Azurite does for one entity: its ETag keeps the
// trailing zero of the time's seventh digit, and a merge is taken only with
// that exact text in If-Match (Azurite compares the text, not the time).
type azuriteETags struct{ ifMatch []string }

const azuriteETag = `W/"datetime'2026-11-28T13%3A45%3A50.0612580Z'"`

func (a *azuriteETags) Do(req *http.Request) (*http.Response, error) {
	answer := func(status int, body string) (*http.Response, error) {
		h := http.Header{"Content-Type": {"application/json;odata=minimalmetadata"}}
		if status == http.StatusNoContent {
			h.Set("ETag", azuriteETag)
		}
		return &http.Response{StatusCode: status, Header: h, Body: io.NopCloser(strings.NewReader(body)), Request: req}, nil
	}
	switch req.Method {
	case http.MethodGet:
		return answer(http.StatusOK, `{"odata.metadata":"x","odata.etag":"W/\"datetime'2026-11-28T13%3A45%3A50.0612580Z'\"","PartitionKey":"p","RowKey":"r","A":1,"Timestamp":"2026-11-28T13:45:50.0612580Z"}`)
	case "MERGE", http.MethodPatch:
		a.ifMatch = append(a.ifMatch, req.Header.Get("If-Match"))
		if req.Header.Get("If-Match") != azuriteETag {
			return answer(http.StatusPreconditionFailed, `{"odata.error":{"code":"UpdateConditionNotSatisfied","message":{"lang":"en-US","value":"The update condition specified in the request was not satisfied."}}}`)
		}
		return answer(http.StatusNoContent, "")
	}
	return answer(http.StatusNotImplemented, "")
}

// An entity read from a remote service carries the ETag that service gave,
// byte for byte, into its JSON and into the If-Match of the next write.
// Derived from the Timestamp, this one would lose its trailing zero, and
// Azurite would refuse the write as changed since it was read.
func TestTheServicesOwnETagIsKept(t *testing.T) {
	stub := &azuriteETags{}
	b, err := Open(Config{ConnectionString: "UseDevelopmentStorage=true", Transport: stub})
	if err != nil {
		t.Fatal(err)
	}
	ctx := context.Background()
	got, err := b.Get(ctx, "things", "p", "r")
	if err != nil {
		t.Fatal(err)
	}
	if got.ETag() != azuriteETag {
		t.Fatalf("ETag %s, want the service's %s", got.ETag(), azuriteETag)
	}
	if line := string(odata.AppendEntityJSON(nil, got)); !strings.Contains(line, `"odata.etag":"W/\"datetime'2026-11-28T13%3A45%3A50.0612580Z'\""`) {
		t.Errorf("JSON line %s: want the service's ETag in it", line)
	}
	sel := []string{"A"}
	if line := string(odata.AppendSelectedJSON(nil, odata.Project(got, sel), sel)); !strings.Contains(line, `2026-11-28T13%3A45%3A50.0612580Z`) {
		t.Errorf("JSON line with $select %s: want the service's ETag in it", line)
	}
	e := &odata.Entity{PartitionKey: "p", RowKey: "r"}
	e.Set("A", odata.Int32(2))
	if _, err := b.Write(ctx, "things", backend.Operation{Kind: backend.OpMerge, Entity: e, IfMatch: got.ETag()}); err != nil {
		t.Fatalf("merge with the ETag just read: %v (If-Match sent: %q)", err, stub.ifMatch)
	}
}
