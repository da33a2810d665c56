package server_test

import (
	"context"
	"net/http/httptest"
	"path/filepath"
	"strings"
	"sync"
	"testing"

	"github.com/tstable/tstable/server"
	"github.com/tstable/tstable/store"
)

// CORS as the service applies it: the account's rules decide, in order
// (the cases of Azurite's CORS tests, which follow the service's docs).
func TestCORSByTheAccountsRules(t *testing.T) {
	c, _ := newClient(t)
	setRules := func(rules string) {
		c.t.Helper()
		c.mustDo(202, "PUT", "//devstoreaccount1/?restype=service&comp=properties", []byte(`<StorageServiceProperties><Cors>`+rules+`</Cors></StorageServiceProperties>`))
	}
	rule := func(origins, methods, headers string) string {
		return `<CorsRule><AllowedOrigins>` + origins + `</AllowedOrigins><AllowedMethods>` + methods + `</AllowedMethods><AllowedHeaders>` + headers +
			`</AllowedHeaders><ExposedHeaders>x-ms-request-id</ExposedHeaders><MaxAgeInSeconds>8888</MaxAgeInSeconds></CorsRule>`
	}
	preflight := func(origin, method, headers string) int {
		c.t.Helper()
		h := []string{"Origin", origin, "Access-Control-Request-Method", method}
		if headers != "" {
			h = append(h, "Access-Control-Request-Headers", headers)
		}
		return c.do("OPTIONS", "/Tables", nil, h...).status
	}
	// No rules: a preflight is refused, an answer carries nothing.
	setRules("")
	if got := preflight("test", "GET", ""); got != 403 {
		t.Errorf("no rules: preflight %d", got)
	}
	if r := c.mustDo(200, "GET", "/Tables", nil, "Origin", "test"); r.header.Get("Access-Control-Allow-Origin") != "" || r.header.Get("Vary") != "" {
		t.Errorf("no rules: %v", r.header)
	}
	if r := c.do("OPTIONS", "/Tables", nil, "Origin", "test"); r.status != 400 || !strings.HasPrefix(r.errorMessage(), "A required CORS header is not present.") {
		t.Errorf("preflight without a method: %d %s", r.status, r.body)
	}
	// For an XML operation, the refusal is the service's XML error, its
	// message the service's.
	r := c.do("OPTIONS", "//devstoreaccount1/?restype=service&comp=properties", nil, "Origin", "test", "Access-Control-Request-Method", "GET")
	if r.status != 403 || !strings.Contains(r.body, "<m:code>CorsPreflightFailure</m:code>") || !strings.Contains(r.body, "CORS not enabled or no matching rule found for this request.") {
		t.Errorf("preflight of an XML operation: %d %s", r.status, r.body)
	}
	setRules(rule("test", "GET", "header") + rule("test", "PUT", "*") + rule("test", "POST", "head*"))
	for _, tc := range []struct {
		origin, method, headers string
		want                    int
	}{
		{"test", "GET", "header", 200}, {"test", "GET", "head", 403}, {"other", "GET", "", 403},
		{"test", "DELETE", "", 403}, {"test", "PUT", "head", 200}, {"test", "POST", "heads", 200}, {"test", "POST", "hea", 403},
	} {
		if got := preflight(tc.origin, tc.method, tc.headers); got != tc.want {
			t.Errorf("preflight %s %s %s: %d, want %d", tc.origin, tc.method, tc.headers, got, tc.want)
		}
	}
	// An answer to a matching origin carries it; to another, Vary only.
	if r := c.mustDo(200, "GET", "/Tables", nil, "Origin", "test"); r.header.Get("Access-Control-Allow-Origin") != "test" ||
		r.header.Get("Vary") != "Origin" || r.header.Get("Access-Control-Expose-Headers") != "x-ms-request-id" {
		t.Errorf("matching origin: %v", r.header)
	}
	if r := c.mustDo(200, "GET", "/Tables", nil, "Origin", "other"); r.header.Get("Access-Control-Allow-Origin") != "" || r.header.Get("Vary") != "Origin" {
		t.Errorf("other origin: %v", r.header)
	}
	// A rule for every origin answers * without Vary; rules apply in order.
	setRules(rule("exact", "GET", "*") + rule("*", "GET", "*"))
	if r := c.mustDo(200, "GET", "/Tables", nil, "Origin", "any"); r.header.Get("Access-Control-Allow-Origin") != "*" || r.header.Get("Vary") != "" {
		t.Errorf("any origin: %v", r.header)
	}
	if r := c.mustDo(200, "GET", "/Tables", nil, "Origin", "exact"); r.header.Get("Access-Control-Allow-Origin") != "exact" {
		t.Errorf("first rule: %v", r.header)
	}
	// A refused request's answer carries them too.
	if r := c.do("GET", "/Nowhere()", nil, "Origin", "exact"); r.status != 404 || r.header.Get("Access-Control-Allow-Origin") != "exact" {
		t.Errorf("refusal: %d %v", r.status, r.header)
	}
}

// serve --cors-any-origin answers every origin, whatever the rules.
func TestCORSAnyOrigin(t *testing.T) {
	db, err := store.Open(filepath.Join(t.TempDir(), "t.db"), nil)
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	srv := server.New(db, server.Options{CORSAnyOrigin: true})
	w := httptest.NewRecorder()
	r := httptest.NewRequest("OPTIONS", "/devstoreaccount1/Tables", nil)
	r.Header.Set("Origin", "http://localhost:5173")
	r.Header.Set("Access-Control-Request-Method", "POST")
	srv.ServeHTTP(w, r.WithContext(context.Background()))
	if w.Code != 200 || w.Header().Get("Access-Control-Allow-Origin") != "http://localhost:5173" {
		t.Errorf("preflight: %d %v", w.Code, w.Header())
	}
}

// CORS rules, service properties and ACLs change while requests read them:
// each request sees one whole set of rules (run with -race).
func TestSettingsChangeUnderLoad(t *testing.T) {
	c, _ := newClient(t)
	c.createTable("Load")
	rules := []string{
		`<StorageServiceProperties><Cors><CorsRule><AllowedOrigins>a</AllowedOrigins><AllowedMethods>GET</AllowedMethods><AllowedHeaders>*</AllowedHeaders><ExposedHeaders>*</ExposedHeaders><MaxAgeInSeconds>1</MaxAgeInSeconds></CorsRule></Cors></StorageServiceProperties>`,
		`<StorageServiceProperties><Cors></Cors></StorageServiceProperties>`,
	}
	acls := []string{
		`<SignedIdentifiers><SignedIdentifier><Id>x</Id><AccessPolicy><Permission>r</Permission></AccessPolicy></SignedIdentifier></SignedIdentifiers>`,
		`<SignedIdentifiers></SignedIdentifiers>`,
	}
	var wg sync.WaitGroup
	for w := 0; w < 4; w++ {
		wg.Add(1)
		go func(w int) {
			defer wg.Done()
			for i := 0; i < 50; i++ {
				var r response
				switch (w + i) % 4 {
				case 0:
					r = c.do("PUT", "//devstoreaccount1/?restype=service&comp=properties", []byte(rules[i%2]))
				case 1:
					r = c.do("PUT", "/Load?comp=acl", []byte(acls[i%2]))
				case 2:
					r = c.do("OPTIONS", "/Tables", nil, "Origin", "a", "Access-Control-Request-Method", "GET")
				default:
					r = c.do("GET", "/Load?comp=acl", nil, "Origin", "a")
				}
				if r.status >= 500 || (r.status == 403 && r.errorCode() != "CorsPreflightFailure") {
					t.Errorf("%d %s", r.status, r.body)
					return
				}
			}
		}(w)
	}
	wg.Wait()
}
