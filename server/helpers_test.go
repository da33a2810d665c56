package server_test

import (
	"bytes"
	"context"
	"crypto/hmac"
	"crypto/sha256"
	"encoding/base64"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/tstable/tstable/server"
)

// client sends raw requests to a test server, as any HTTP client would.
type client struct {
	t   *testing.T
	url string // http://127.0.0.1:PORT/devstoreaccount1
	// key, when set, signs each request with Shared Key Lite, as the
	// SDKs sign with the key of their connection string.
	key []byte
	// http sends the requests; nil means http.DefaultClient.
	http *http.Client
}

// newClient starts a server that allows every request (as serve
// --no-auth does), so that raw requests need no signature.
func newClient(t *testing.T) (*client, *server.Running) {
	r, err := server.Start(server.Config{Addr: "127.0.0.1:0", DBPath: filepath.Join(t.TempDir(), "t.db")})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { r.Shutdown(context.Background()) })
	return &client{t: t, url: r.URL()}, r
}

// response is what the client saw.
type response struct {
	status int
	header http.Header
	body   string
}

// errorCode is the odata.error code of a JSON error body.
func (r response) errorCode() string {
	var doc struct {
		Err struct {
			Code    string `json:"code"`
			Message struct {
				Value string `json:"value"`
			} `json:"message"`
		} `json:"odata.error"`
	}
	json.Unmarshal([]byte(r.body), &doc)
	return doc.Err.Code
}

func (r response) errorMessage() string {
	var doc struct {
		Err struct {
			Message struct {
				Value string `json:"value"`
			} `json:"message"`
		} `json:"odata.error"`
	}
	json.Unmarshal([]byte(r.body), &doc)
	return doc.Err.Message.Value
}

func (c *client) do(method, path string, body []byte, headers ...string) response {
	c.t.Helper()
	r, err := c.send(method, path, body, headers...)
	if err != nil {
		c.t.Fatal(err)
	}
	return r
}

// send is do for any goroutine: it returns the failure to send instead of
// ending the test.
func (c *client) send(method, path string, body []byte, headers ...string) (response, error) {
	u := c.url + path
	if rest, ok := strings.CutPrefix(path, "//"); ok { // from the host's root
		u = strings.TrimSuffix(c.url, "/devstoreaccount1") + "/" + rest
	}
	req, err := http.NewRequest(method, u, bytes.NewReader(body))
	if err != nil {
		return response{}, err
	}
	req.Header.Set("Accept", "application/json;odata=minimalmetadata")
	if body != nil {
		req.Header.Set("Content-Type", "application/json")
	}
	for i := 0; i+1 < len(headers); i += 2 {
		req.Header.Set(headers[i], headers[i+1])
	}
	if c.key != nil {
		signLite(req, server.DefaultAccount, c.key)
	}
	hc := c.http
	if hc == nil {
		hc = http.DefaultClient
	}
	resp, err := hc.Do(req)
	if err != nil {
		return response{}, fmt.Errorf("%s %s: %w", method, path, err)
	}
	defer resp.Body.Close()
	b, err := io.ReadAll(resp.Body)
	if err != nil {
		return response{}, fmt.Errorf("%s %s: reading the answer: %w", method, path, err)
	}
	return response{status: resp.StatusCode, header: resp.Header, body: string(b)}, nil
}

// signLite signs r with Shared Key Lite by the Table service's documented
// formula, as the SDKs sign: the x-ms-date header, then the canonicalized
// resource, "/" + account + the path as sent (+ "?comp=" when there is
// one), under HMAC-SHA256 with the account's key.
func signLite(r *http.Request, account string, key []byte) {
	date := time.Now().UTC().Format(http.TimeFormat)
	r.Header.Set("x-ms-date", date)
	cr := "/" + account + r.URL.EscapedPath()
	if comp, ok := r.URL.Query()["comp"]; ok {
		cr += "?comp=" + comp[0]
	}
	mac := hmac.New(sha256.New, key)
	mac.Write([]byte(date + "\n" + cr))
	r.Header.Set("Authorization", "SharedKeyLite "+account+":"+base64.StdEncoding.EncodeToString(mac.Sum(nil)))
}

func (c *client) mustDo(want int, method, path string, body []byte, headers ...string) response {
	c.t.Helper()
	r := c.do(method, path, body, headers...)
	if r.status != want {
		c.t.Fatalf("%s %s: %d %s, want %d", method, path, r.status, r.body, want)
	}
	return r
}

func (c *client) createTable(name string) {
	c.t.Helper()
	c.mustDo(201, "POST", "/Tables", []byte(`{"TableName":"`+name+`"}`))
}

func (c *client) insert(table, entity string) response {
	c.t.Helper()
	return c.mustDo(201, "POST", "/"+table, []byte(entity))
}

// snapshot is every entity of a table, in order, as the service lists
// them (all pages), to compare before and after a refused request.
func (c *client) snapshot(table string) string {
	c.t.Helper()
	var all []string
	path := "/" + table + "()"
	for {
		r := c.mustDo(200, "GET", path, nil)
		var doc struct {
			Value []json.RawMessage `json:"value"`
		}
		if err := json.Unmarshal([]byte(r.body), &doc); err != nil {
			c.t.Fatalf("query body %q: %v", r.body, err)
		}
		for _, v := range doc.Value {
			all = append(all, string(v))
		}
		pk := r.header.Get("x-ms-continuation-NextPartitionKey")
		if pk == "" {
			return strings.Join(all, "\n")
		}
		path = fmt.Sprintf("/%s()?NextPartitionKey=%s&NextRowKey=%s", table, pk, r.header.Get("x-ms-continuation-NextRowKey"))
	}
}

// batchBody builds a $batch body of one changeset holding the given
// operations (each "METHOD PATH\nheaders...\n\nbody").
func batchBody(base string, ops []string) (contentType string, body []byte) {
	var b bytes.Buffer
	b.WriteString("--batch_b\r\nContent-Type: multipart/mixed; boundary=changeset_c\r\n\r\n")
	for _, op := range ops {
		head, payload, _ := strings.Cut(op, "\n\n")
		lines := strings.Split(head, "\n")
		method, path, _ := strings.Cut(lines[0], " ")
		b.WriteString("--changeset_c\r\nContent-Type: application/http\r\nContent-Transfer-Encoding: binary\r\n\r\n")
		fmt.Fprintf(&b, "%s %s%s HTTP/1.1\r\n", method, base, path)
		for _, h := range lines[1:] {
			b.WriteString(h + "\r\n")
		}
		b.WriteString("Content-Type: application/json\r\nAccept: application/json;odata=minimalmetadata\r\n\r\n")
		b.WriteString(payload + "\r\n")
	}
	b.WriteString("--changeset_c--\r\n--batch_b--\r\n")
	return "multipart/mixed; boundary=batch_b", b.Bytes()
}
