package auth

import (
	"encoding/json"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
)

func TestPreflight(t *testing.T) {
	r := httptest.NewRequest("OPTIONS", "/devstoreaccount1/Orders(PartitionKey='a',RowKey='b')", nil)
	r.Header.Set("Origin", "http://localhost:5173")
	r.Header.Set("Access-Control-Request-Method", "MERGE")
	r.Header.Set("Access-Control-Request-Headers", "authorization, x-ms-date, x-ms-version, content-type, if-match")
	w := httptest.NewRecorder()
	if !Preflight(w, r) {
		t.Fatal("Preflight did not answer an OPTIONS request")
	}
	h := w.Result().Header
	for k, want := range map[string]string{
		"Access-Control-Allow-Origin":      "http://localhost:5173",
		"Access-Control-Allow-Methods":     "MERGE",
		"Access-Control-Allow-Headers":     "authorization, x-ms-date, x-ms-version, content-type, if-match",
		"Access-Control-Allow-Credentials": "true",
		"Access-Control-Max-Age":           "3600",
	} {
		if got := h.Get(k); got != want {
			t.Errorf("%s: %q, want %q", k, got, want)
		}
	}
	if w.Code != 200 || w.Body.Len() != 0 || !strings.Contains(strings.Join(h.Values("Vary"), ","), "Origin") {
		t.Errorf("status %d, body %q, Vary %q", w.Code, w.Body, h.Values("Vary"))
	}
}

func TestPreflightMalformed(t *testing.T) {
	for name, set := range map[string]func(*http.Request){
		"no Origin":                        func(r *http.Request) { r.Header.Set("Access-Control-Request-Method", "GET") },
		"no Access-Control-Request-Method": func(r *http.Request) { r.Header.Set("Origin", "http://localhost:3000") },
	} {
		r := httptest.NewRequest("OPTIONS", "/devstoreaccount1/Tables", nil)
		set(r)
		w := httptest.NewRecorder()
		if !Preflight(w, r) {
			t.Fatalf("%s: not answered", name)
		}
		var body struct {
			Err struct {
				Code    string
				Message struct{ Value string }
			} `json:"odata.error"`
		}
		json.Unmarshal(w.Body.Bytes(), &body)
		if w.Code != 400 || w.Header().Get("x-ms-error-code") != "InvalidCorsHeaderValue" ||
			body.Err.Code != "InvalidCorsHeaderValue" || !strings.Contains(body.Err.Message.Value, strings.TrimPrefix(name, "no ")) {
			t.Errorf("%s: %d %q %s", name, w.Code, w.Header().Get("x-ms-error-code"), w.Body)
		}
		if w.Header().Get("Access-Control-Allow-Origin") != "" {
			t.Errorf("%s: allowed an origin", name)
		}
	}
}

func TestPreflightLeavesOtherMethods(t *testing.T) {
	for _, m := range []string{"GET", "POST", "PUT", "DELETE", "MERGE", "PATCH", "HEAD"} {
		r := httptest.NewRequest(m, "/devstoreaccount1/Tables", nil)
		r.Header.Set("Origin", "http://localhost:3000")
		r.Header.Set("Access-Control-Request-Method", "GET")
		w := httptest.NewRecorder()
		if Preflight(w, r) || len(w.Header()) != 0 || w.Body.Len() != 0 {
			t.Errorf("%s: Preflight answered", m)
		}
	}
}

func TestAddCORSHeaders(t *testing.T) {
	r := httptest.NewRequest("GET", "/devstoreaccount1/Tables", nil)
	w := httptest.NewRecorder()
	AddCORSHeaders(w, r)
	if len(w.Header()) != 0 {
		t.Fatalf("without Origin: %v", w.Header())
	}
	r.Header.Set("Origin", "https://app.example")
	AddCORSHeaders(w, r)
	h := w.Header()
	if h.Get("Access-Control-Allow-Origin") != "https://app.example" || h.Get("Access-Control-Allow-Credentials") != "true" {
		t.Errorf("headers %v", h)
	}
	exposed := strings.ToLower(h.Get("Access-Control-Expose-Headers"))
	for _, want := range []string{"etag", "x-ms-continuation-nextpartitionkey", "x-ms-continuation-nextrowkey", "x-ms-continuation-nexttablename", "x-ms-error-code", "x-ms-request-id"} {
		if !strings.Contains(exposed, want) {
			t.Errorf("%s not exposed: %s", want, exposed)
		}
	}
}

// Through a server that calls Preflight before Authorize, a preflight
// needs no credentials, and a refused request still carries the CORS
// headers a browser app needs to read its error.
func TestCORSThroughServer(t *testing.T) {
	f := newFakeService(t)
	srv := f.start(false)
	req, _ := http.NewRequest("OPTIONS", srv.URL+"/devstoreaccount1/Tables", nil)
	req.Header.Set("Origin", "http://localhost:8080")
	req.Header.Set("Access-Control-Request-Method", "POST")
	resp, err := srv.Client().Do(req)
	if err != nil {
		t.Fatal(err)
	}
	resp.Body.Close()
	if resp.StatusCode != 200 || resp.Header.Get("Access-Control-Allow-Origin") != "http://localhost:8080" {
		t.Fatalf("preflight: %d %v", resp.StatusCode, resp.Header)
	}
	req, _ = http.NewRequest("GET", srv.URL+"/devstoreaccount1/Tables", nil)
	req.Header.Set("Origin", "http://localhost:8080")
	resp, err = srv.Client().Do(req)
	if err != nil {
		t.Fatal(err)
	}
	resp.Body.Close()
	if resp.StatusCode != 403 || resp.Header.Get("Access-Control-Allow-Origin") != "http://localhost:8080" ||
		!strings.Contains(resp.Header.Get("Access-Control-Expose-Headers"), "x-ms-error-code") {
		t.Fatalf("refused request: %d %v", resp.StatusCode, resp.Header)
	}
}
