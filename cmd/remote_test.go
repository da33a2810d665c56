package cmd

import (
	"bytes"
	"context"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync/atomic"
	"testing"

	"github.com/tstable/tstable/iostreams"
)

const stubKey = "c2VjcmV0LWtleS10aGF0LW11c3Qtbm90LWxlYWs="

// stubConnection is a connection string for a stub service at url.
func stubConnection(url string) string {
	return "DefaultEndpointsProtocol=http;AccountName=devstoreaccount1;AccountKey=" + stubKey + ";TableEndpoint=" + url + "/devstoreaccount1;"
}

func serviceError(w http.ResponseWriter, status int, code, msg string) {
	w.Header().Set("Content-Type", "application/json;odata=minimalmetadata")
	w.Header().Set("x-ms-error-code", code)
	w.WriteHeader(status)
	w.Write([]byte(`{"odata.error":{"code":"` + code + `","message":{"lang":"en-US","value":"` + msg + `"}}}`))
}

// A throttled request (503, then 200) is retried with backoff and succeeds.
func TestRemoteRetriesThrottling(t *testing.T) {
	var calls atomic.Int32
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if calls.Add(1) == 1 {
			serviceError(w, 503, "ServerBusy", "The server is busy.")
			return
		}
		w.WriteHeader(http.StatusNoContent)
	}))
	defer srv.Close()
	out, errOut, status := runArgs(context.Background(), "--connection-string", stubConnection(srv.URL), "table", "create", "Busy")
	if status != 0 || calls.Load() != 2 {
		t.Fatalf("exit %d after %d requests (want 0 after 2)\n%s%s", status, calls.Load(), out, errOut)
	}
}

// A wrong key: a clear error, exit 1, and the key printed nowhere.
func TestRemoteWrongKey(t *testing.T) {
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		serviceError(w, 403, "AuthenticationFailed", "Server failed to authenticate the request. Make sure the value of Authorization header is formed correctly including the signature.")
	}))
	defer srv.Close()
	for _, args := range [][]string{{"table", "list"}, {"status"}, {"query", "T"}} {
		full := append([]string{"--connection-string", stubConnection(srv.URL)}, args...)
		out, errOut, status := runArgs(context.Background(), full...)
		if status != 1 || !strings.Contains(errOut, "error: AuthenticationFailed: the service refused the credentials") {
			t.Errorf("%v: exit %d, stderr %q", args, status, errOut)
		}
		if strings.Contains(out+errOut, stubKey) || strings.Contains(out+errOut, "c2VjcmV0") {
			t.Errorf("%v: the key was printed:\n%s%s", args, out, errOut)
		}
	}
}

// --db and --connection-string together are a usage error.
func TestRemoteAndLocalTogether(t *testing.T) {
	_, errOut, status := runArgs(context.Background(), "--db", "x.db", "--connection-string", "UseDevelopmentStorage=true", "table", "list")
	if status != 2 || !strings.Contains(errOut, "give one of them") {
		t.Errorf("exit %d, stderr %q", status, errOut)
	}
}

// runArgs runs a command line without the --db the golden helper adds.
func runArgs(ctx context.Context, args ...string) (string, string, int) {
	ios, _, out, errOut := iostreams.Test()
	status := Execute(ctx, NewRoot(ios), args, ios)
	return out.String(), errOut.String(), status
}

func testStreams() (*iostreams.IOStreams, *bytes.Buffer, *bytes.Buffer, *bytes.Buffer) {
	return iostreams.Test()
}
