package server_test

import (
	"context"
	"encoding/json"
	"io"
	"io/fs"
	"net/http"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"github.com/tstable/tstable/server"
	"github.com/tstable/tstable/server/auth"
)

// The console's page is at the server's root, for a browser, under a
// Content-Security-Policy of default-src 'self'; the service's own root
// operations and the account's paths stay the Table API's.
func TestConsolePageBesideTheTableAPI(t *testing.T) {
	c, r := newClient(t)
	root := r.ConsoleURL()
	if root != strings.TrimSuffix(c.url, "devstoreaccount1") {
		t.Fatalf("ConsoleURL %q for the account URL %q", root, c.url)
	}
	resp, body := get(t, http.DefaultClient, root+"?table=Orders&filter=x", "Accept", "text/html")
	if resp.StatusCode != 200 || !strings.HasPrefix(resp.Header.Get("Content-Type"), "text/html") ||
		!strings.Contains(resp.Header.Get("Content-Security-Policy"), "default-src 'self'") || !strings.Contains(body, "/-/console/app.js") {
		t.Fatalf("the page: %d %v\n%s", resp.StatusCode, resp.Header, body)
	}
	for _, f := range []string{"app.js", "app.css"} {
		resp, _ := get(t, http.DefaultClient, root+"-/console/"+f)
		if resp.StatusCode != 200 {
			t.Errorf("%s: %d", f, resp.StatusCode)
		}
	}
	// The Table API's paths are untouched.
	c.createTable("Orders")
	c.mustDo(200, "GET", "/Tables", nil)
	props := c.do("GET", "//?restype=service&comp=properties", nil)
	if strings.Contains(props.body, "<!doctype html>") {
		t.Errorf("the service root's properties answered the console:\n%s", props.body)
	}
	signed, _ := get(t, http.DefaultClient, root, "Authorization", "SharedKeyLite devstoreaccount1:x")
	if strings.HasPrefix(signed.Header.Get("Content-Type"), "text/html") {
		t.Errorf("a signed request to the root got the page")
	}
	missing, _ := get(t, http.DefaultClient, root+"-/console/nothing")
	if missing.StatusCode != 404 {
		t.Errorf("an unknown console path: %d", missing.StatusCode)
	}
}

// Everything the page loads is embedded: no file names another host.
func TestConsoleLoadsNothingFromOutside(t *testing.T) {
	outside := regexp.MustCompile(`(?i)(?:https?:)?//[a-z0-9.-]+\.[a-z]{2,}`)
	err := fs.WalkDir(server.ConsoleFS(), ".", func(path string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() {
			return err
		}
		b, _ := fs.ReadFile(server.ConsoleFS(), path)
		for _, m := range outside.FindAllString(string(b), -1) {
			t.Errorf("%s refers to %s", path, m)
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
}

// The log shows the queries applications make, newest first; the heat
// counts the partitions they read and wrote; explain draws the key space.
func TestConsoleLogHeatAndExplain(t *testing.T) {
	c, _ := newClient(t)
	c.createTable("Orders")
	for _, e := range []string{`{"PartitionKey":"a","RowKey":"1"}`, `{"PartitionKey":"a","RowKey":"2"}`, `{"PartitionKey":"b","RowKey":"1","Status":"open"}`} {
		c.insert("Orders", e)
	}
	c.mustDo(200, "GET", "/Orders()?$filter=PartitionKey%20eq%20'a'", nil)
	c.mustDo(200, "GET", "/Orders()?$filter=Status%20eq%20'open'", nil)
	var log struct {
		Total   int
		Queries []struct{ Table, Filter, Class string }
	}
	getJSON(t, c.url+"/-/console/api/log", &log)
	if log.Total != 2 || len(log.Queries) != 2 || log.Queries[0].Filter != "Status eq 'open'" || log.Queries[0].Class != "table-scan" || log.Queries[1].Class != "partition-scan" {
		t.Errorf("log: %+v", log)
	}
	var heat struct {
		Partitions []struct {
			PartitionKey  string
			Reads, Writes int64
		}
		SVG    string
		Advice *struct{ Queries []struct{ Filter string } }
	}
	getJSON(t, c.url+"/-/console/api/heat?table=Orders", &heat)
	if len(heat.Partitions) != 2 || heat.Partitions[0].PartitionKey != "a" || heat.Partitions[0].Reads != 2 || heat.Partitions[0].Writes != 2 ||
		!strings.Contains(heat.SVG, "ks-flagged") || strings.Contains(heat.SVG, "ks-returned") || heat.Advice == nil {
		t.Errorf("heat: %+v", heat)
	}
	var x struct{ Class, SVG string }
	getJSON(t, c.url+"/-/console/api/explain?table=Orders&filter=PartitionKey%20eq%20'b'", &x)
	if x.Class != "partition-scan" || !strings.Contains(x.SVG, "ks-returned") {
		t.Errorf("explain: %+v", x)
	}
	getJSON(t, c.url+"/-/console/api/log", &log)
	if log.Total != 2 {
		t.Errorf("the console's own reads went into the log: %+v", log)
	}
}

// With authentication on, the console's data needs the account key: an
// unsigned request is refused, a signed one answered.
func TestConsoleNeedsTheKey(t *testing.T) {
	key, _ := auth.DecodeKey(server.DevelopmentKey)
	r, err := server.Start(server.Config{Addr: "127.0.0.1:0", DBPath: filepath.Join(t.TempDir(), "t.db"), Authorizer: server.KeyAuthorizer(auth.New(server.DefaultAccount, key))})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { r.Shutdown(context.Background()) })
	root := r.ConsoleURL()
	var info struct {
		Account string
		Auth    bool
	}
	getJSON(t, root+"-/console/info", &info)
	if !info.Auth || info.Account != "devstoreaccount1" {
		t.Errorf("info: %+v", info)
	}
	for _, p := range []string{"tables", "log", "heat?table=T", "explain?table=T"} {
		resp, body := get(t, http.DefaultClient, r.URL()+"/-/console/api/"+p)
		if resp.StatusCode != 403 {
			t.Errorf("unsigned %s: %d %s", p, resp.StatusCode, body)
		}
	}
	req, _ := http.NewRequest("GET", r.URL()+"/-/console/api/tables", nil)
	signLite(req, server.DefaultAccount, key)
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	if resp.StatusCode != 200 {
		b, _ := io.ReadAll(resp.Body)
		t.Errorf("signed: %d %s", resp.StatusCode, b)
	}
}

func getJSON(t *testing.T, url string, v any) {
	t.Helper()
	resp, body := get(t, http.DefaultClient, url)
	if resp.StatusCode != 200 {
		t.Fatalf("GET %s: %d %s", url, resp.StatusCode, body)
	}
	if err := json.Unmarshal([]byte(body), v); err != nil {
		t.Fatalf("GET %s: %v\n%s", url, err, body)
	}
}
