package auth

import (
	"crypto/hmac"
	"crypto/sha256"
	"encoding/base64"
	"encoding/json"
	"errors"
	"io"
	"net/http"
	"net/http/httptest"
	"net/url"
	"regexp"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/Azure/azure-sdk-for-go/sdk/azcore"
	"github.com/Azure/azure-sdk-for-go/sdk/azcore/policy"
	"github.com/Azure/azure-sdk-for-go/sdk/data/aztables"
	"github.com/tstable/tstable/odata"
)

// testKey is the emulator's key, decoded.
var testKey = mustKey(WellKnownKey)

// otherKey is a well-formed key that is not the account's.
const otherKey = "QUFBQUFBQUFBQUFBQUFBQUFBQUFBQUFBQUFBQUFBQUFBQUFBQUFBQUFBQUFBQUFBQUFBQUFBQUFBQUFBQUFBQUFBQUFBQUE="

func mustKey(s string) []byte {
	k, err := DecodeKey(s)
	if err != nil {
		panic(err)
	}
	return k
}

// codeOf is the service error code an Authorize or Check error carries.
func codeOf(err error) string { return string(odata.CodeOf(err)) }

// statusOfErr is the HTTP status an Authorize or Check error answers with.
func statusOfErr(err error) int {
	var own interface{ HTTPStatus() int }
	if errors.As(err, &own) {
		return own.HTTPStatus()
	}
	var e *odata.Error
	if errors.As(err, &e) {
		return e.Status()
	}
	return 0
}

// outcome is what the fake service decided about one request.
type outcome struct {
	method, path, query string
	scheme              string // the Authorization header's scheme, "" when none
	credential          string // the Grant's, "" when refused
	code                string // the refusal's code, "" when allowed
	status              int
	message             string
}

// fakeService is a table service that only authenticates: it runs
// Preflight, Authorize and the Grant's checks the way tstable serve does,
// records what it decided, and answers with a minimal plausible response.
type fakeService struct {
	t   *testing.T
	v   *Verifier
	now func() time.Time

	mu       sync.Mutex
	outcomes []outcome
	grants   []*Grant
}

func newFakeService(t *testing.T) *fakeService {
	return &fakeService{t: t, v: New(WellKnownAccount, testKey), now: time.Now}
}

// start serves f over TLS (tls true) or plain HTTP; the server stops with the test.
func (f *fakeService) start(tls bool) *httptest.Server {
	var srv *httptest.Server
	if tls {
		srv = httptest.NewTLSServer(f)
	} else {
		srv = httptest.NewServer(f)
	}
	f.t.Cleanup(srv.Close)
	return srv
}

func (f *fakeService) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	if Preflight(w, r) {
		return
	}
	AddCORSHeaders(w, r)
	body, _ := io.ReadAll(r.Body)
	o := outcome{method: r.Method, path: r.URL.EscapedPath(), query: r.URL.RawQuery}
	o.scheme, _, _ = strings.Cut(r.Header.Get("Authorization"), " ")
	g, err := f.v.Authorize(r, f.now())
	req := classify(r, body)
	if err == nil {
		for _, c := range req.checks {
			if err = g.Check(c.op, c.table, c.pk, c.rk); err != nil {
				break
			}
		}
	}
	if err != nil {
		o.code, o.status, o.message = codeOf(err), statusOfErr(err), err.Error()
	} else {
		o.credential, o.status = g.Credential(), req.status
	}
	f.mu.Lock()
	f.outcomes = append(f.outcomes, o)
	f.grants = append(f.grants, g)
	f.mu.Unlock()
	if err != nil {
		var challenge *ChallengeError
		if errors.As(err, &challenge) {
			w.Header().Set("WWW-Authenticate", challenge.Challenge)
		}
		w.Header().Set("x-ms-error-code", o.code)
		w.Header().Set("Content-Type", "application/json;odata=minimalmetadata")
		w.WriteHeader(o.status)
		json.NewEncoder(w).Encode(map[string]any{"odata.error": map[string]any{
			"code": o.code, "message": map[string]string{"lang": "en-US", "value": o.message}}})
		return
	}
	if req.contentType != "" {
		w.Header().Set("Content-Type", req.contentType)
	}
	w.Header().Set("ETag", `W/"datetime'2024-01-01T00%3A00%3A00.0000000Z'"`)
	w.WriteHeader(req.status)
	io.WriteString(w, req.body)
}

// last is the outcome of the last request served.
func (f *fakeService) last() outcome {
	f.t.Helper()
	f.mu.Lock()
	defer f.mu.Unlock()
	if len(f.outcomes) == 0 {
		f.t.Fatal("the service saw no request")
	}
	return f.outcomes[len(f.outcomes)-1]
}

// lastGrant is the Grant of the last request served (nil when refused).
func (f *fakeService) lastGrant() *Grant {
	f.mu.Lock()
	defer f.mu.Unlock()
	return f.grants[len(f.grants)-1]
}

// check is one question the server asks a Grant.
type check struct {
	op            Op
	table, pk, rk string
}

// classified is what a request asks and how the fake service answers it.
type classified struct {
	checks      []check
	status      int
	contentType string
	body        string
}

var (
	entityPath = regexp.MustCompile(`^([^/(]+)\(PartitionKey='((?:[^']|'')*)',RowKey='((?:[^']|'')*)'\)$`)
	tablesPath = regexp.MustCompile(`^Tables\('([^']*)'\)$`)
)

// classify works out, as tstable serve would, which operations a request
// performs, and a response the SDK accepts.
func classify(r *http.Request, body []byte) classified {
	const jsonType = "application/json;odata=minimalmetadata;streaming=true;charset=utf-8"
	rest := strings.TrimPrefix(r.URL.Path, "/"+WellKnownAccount)
	rest = strings.TrimPrefix(rest, "/")
	unquote := func(s string) string { return strings.ReplaceAll(s, "''", "'") }
	switch {
	case r.URL.Query().Get("comp") == "acl" || rest == "":
		if r.Method == http.MethodGet {
			return classified{[]check{{OpServiceProperties, "", "", ""}}, 200, "application/xml",
				`<?xml version="1.0" encoding="utf-8"?><StorageServiceProperties></StorageServiceProperties>`}
		}
		return classified{[]check{{OpServiceProperties, "", "", ""}}, 202, "", ""}
	case rest == "Tables" && r.Method == http.MethodGet:
		return classified{[]check{{OpQueryTables, "", "", ""}}, 200, jsonType, `{"value":[]}`}
	case rest == "Tables":
		var t struct{ TableName string }
		json.Unmarshal(body, &t)
		return classified{[]check{{OpCreateTable, t.TableName, "", ""}}, 204, "", ""}
	case tablesPath.MatchString(rest):
		return classified{[]check{{OpDeleteTable, tablesPath.FindStringSubmatch(rest)[1], "", ""}}, 204, "", ""}
	case rest == "$batch":
		// The operations are inside the multipart body; the tests look only
		// at whether the request itself was authenticated.
		return classified{nil, 202, "multipart/mixed; boundary=batchresponse_1", batchResponse}
	case entityPath.MatchString(rest):
		m := entityPath.FindStringSubmatch(rest)
		table, pk, rk := m[1], unquote(m[2]), unquote(m[3])
		switch r.Method {
		case http.MethodGet:
			return classified{[]check{{OpRead, table, pk, rk}}, 200, jsonType,
				`{"PartitionKey":` + jsonString(pk) + `,"RowKey":` + jsonString(rk) + `}`}
		case http.MethodDelete:
			return classified{[]check{{OpDelete, table, pk, rk}}, 204, "", ""}
		}
		if r.Header.Get("If-Match") != "" {
			return classified{[]check{{OpUpdate, table, pk, rk}}, 204, "", ""}
		}
		return classified{[]check{{OpAdd, table, pk, rk}, {OpUpdate, table, pk, rk}}, 204, "", ""}
	}
	table := strings.TrimSuffix(rest, "()")
	if r.Method == http.MethodGet {
		return classified{[]check{{OpRead, table, "", ""}}, 200, jsonType, `{"value":[]}`}
	}
	var e struct{ PartitionKey, RowKey string }
	json.Unmarshal(body, &e)
	return classified{[]check{{OpAdd, table, e.PartitionKey, e.RowKey}}, 204, "", ""}
}

// batchResponse is a batch's answer: one changeset of one 204.
const batchResponse = "--batchresponse_1\r\n" +
	"Content-Type: multipart/mixed; boundary=changesetresponse_1\r\n\r\n" +
	"--changesetresponse_1\r\n" +
	"Content-Type: application/http\r\nContent-Transfer-Encoding: binary\r\n\r\n" +
	"HTTP/1.1 204 No Content\r\nDataServiceVersion: 1.0;\r\n\r\n\r\n" +
	"--changesetresponse_1--\r\n\r\n" +
	"--batchresponse_1--\r\n"

func jsonString(s string) string {
	b, _ := json.Marshal(s)
	return string(b)
}

// clientOptions points the SDK at srv, with no retries.
func clientOptions(srv *httptest.Server, perRetry ...policy.Policy) *aztables.ClientOptions {
	return &aztables.ClientOptions{ClientOptions: azcore.ClientOptions{
		Transport:        srv.Client(),
		Retry:            policy.RetryOptions{MaxRetries: -1},
		PerRetryPolicies: perRetry,
	}}
}

// accountURL is the path-style endpoint of the emulator account on srv.
func accountURL(srv *httptest.Server) string { return srv.URL + "/" + WellKnownAccount }

// sharedKeyClient is an SDK service client signing with account and key.
func sharedKeyClient(t *testing.T, srv *httptest.Server, account, key string, perRetry ...policy.Policy) *aztables.ServiceClient {
	t.Helper()
	cred, err := aztables.NewSharedKeyCredential(account, key)
	if err != nil {
		t.Fatal(err)
	}
	c, err := aztables.NewServiceClientWithSharedKey(accountURL(srv)+"/", cred, clientOptions(srv, perRetry...))
	if err != nil {
		t.Fatal(err)
	}
	return c
}

// responseCode is the service error code of an SDK error, "" for nil.
func responseCode(t *testing.T, err error) string {
	t.Helper()
	if err == nil {
		return ""
	}
	var re *azcore.ResponseError
	if !errors.As(err, &re) {
		t.Fatalf("not a service response: %v", err)
	}
	return re.ErrorCode
}

// wantRefused checks that err is the SDK's report of a refusal with code,
// and that the service recorded the same.
func wantRefused(t *testing.T, f *fakeService, err error, code string) {
	t.Helper()
	if got := responseCode(t, err); got != code {
		t.Fatalf("SDK error code %q, want %q (err %v)", got, code, err)
	}
	o := f.last()
	if o.code != code || o.status != 403 {
		t.Fatalf("service recorded %d %q, want 403 %q", o.status, o.code, code)
	}
	noKeyIn(t, o.message)
}

// wantAllowed checks that err is nil and the service let the last request
// through with the named credential.
func wantAllowed(t *testing.T, f *fakeService, err error, credential string) {
	t.Helper()
	if err != nil {
		t.Fatalf("refused: %v", err)
	}
	if o := f.last(); o.code != "" || o.credential != credential {
		t.Fatalf("service recorded %+v, want allowed by %s", o, credential)
	}
}

// noKeyIn fails when msg holds the account key in any form.
func noKeyIn(t *testing.T, msg string) {
	t.Helper()
	for _, k := range []string{WellKnownKey, string(testKey), base64.RawStdEncoding.EncodeToString(testKey), url.QueryEscape(WellKnownKey)} {
		if strings.Contains(msg, k) {
			t.Fatalf("message holds the key: %s", msg)
		}
	}
}

// hmacB64 is the base64 HMAC-SHA256 of s under key, computed here
// independently of the package.
func hmacB64(key []byte, s string) string {
	h := hmac.New(sha256.New, key)
	h.Write([]byte(s))
	return base64.StdEncoding.EncodeToString(h.Sum(nil))
}
