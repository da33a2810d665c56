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
