package server_test

import (
	"bufio"
	"encoding/json"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/tstable/tstable/server"
	"github.com/tstable/tstable/storetest"
)

// The Azure SDK for JavaScript against the real command, tstable serve:
// tables, every entity operation with every Edm type, filters built with
// its odata helper, paging, transactions that commit and that fail, a
// stale ETag, service properties and ACLs (testdata/sdk-e2e.cjs). Needs
// node and npm; runs with TSTABLE_JS_TEST=1 (make test-serve-js).
func TestJavaScriptSDKAgainstServe(t *testing.T) {
	if os.Getenv("TSTABLE_JS_TEST") == "" {
		t.Skip("set TSTABLE_JS_TEST=1 (make test-serve-js) to run the Azure SDK for JavaScript against tstable serve")
	}
	mods := storetest.NodeModules(t)
	dir := t.TempDir()
	db := filepath.Join(dir, "js.db")
	logFile := filepath.Join(dir, "queries.jsonl")
	serve, url, stderrPath := startServe(t, db, "--log", logFile)
	cs := "DefaultEndpointsProtocol=http;AccountName=devstoreaccount1;AccountKey=" + server.DevelopmentKey + ";TableEndpoint=" + url + ";"
	runSDKScript(t, mods, "TSTABLE_CONNECTION_STRING="+cs)

	// SIGTERM: requests finish, the file closes, the address goes.
	serve.Process.Signal(syscall.SIGTERM)
	if err := serve.Wait(); err != nil {
		t.Errorf("tstable serve after SIGTERM: %v", err)
	}
	if _, err := os.Stat(server.AddressPath(db)); !os.IsNotExist(err) {
		t.Errorf("the address file is still there after SIGTERM: %v", err)
	}
	f, err := os.Open(logFile)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	n := 0
	for sc := bufio.NewScanner(f); sc.Scan(); n++ {
		var e server.LogEntry
		if err := json.Unmarshal(sc.Bytes(), &e); err != nil || e.Table == "" || e.Class == "" || e.Scanned < e.Returned {
			t.Fatalf("query log line %q: %v", sc.Text(), err)
		}
	}
	if n < 5 {
		t.Errorf("the query log holds %d lines", n)
	}
	b, _ := os.ReadFile(stderrPath)
	if !strings.Contains(string(b), "query Everything \"PartitionKey eq 'page0'\" · partition scan · scanned 7 · returned 7") {
		t.Errorf("the explain lines on stderr:\n%s", b)
	}
}

// The same end to end as an app written for Microsoft Entra ID runs it:
// tstable serve --tls --oauth basic, the printed certificate trusted with
// NODE_EXTRA_CA_CERTS, clients built from the https account URL and a
// TokenCredential; tokens the service refuses are refused with its
// answers.
func TestJavaScriptSDKWithTokenOverHTTPS(t *testing.T) {
	if os.Getenv("TSTABLE_JS_TEST") == "" {
		t.Skip("set TSTABLE_JS_TEST=1 (make test-serve-js) to run the Azure SDK for JavaScript against tstable serve")
	}
	mods := storetest.NodeModules(t)
	t.Setenv("XDG_STATE_HOME", t.TempDir())
	db := filepath.Join(t.TempDir(), "js.db")
	_, url, stderrPath := startServe(t, db, "--tls", "--oauth", "basic")
	served, ok := server.ServedAt(db)
	b, _ := os.ReadFile(stderrPath)
	if !ok || !strings.HasPrefix(url, "https://") || !strings.Contains(string(b), "certificate: "+served.CertFile+"\n") {
		t.Fatalf("tstable serve --tls --oauth basic at %s printed:\n%s", url, b)
	}
	runSDKScript(t, mods, "TSTABLE_CONNECTION_STRING="+served.ConnectionString, "TSTABLE_TOKEN=1", "NODE_EXTRA_CA_CERTS="+served.CertFile)
}

// runSDKScript runs testdata/sdk-e2e.cjs with the SDK in mods and env
// added, and fails the test unless every check of it passes.
func runSDKScript(t *testing.T, mods string, env ...string) {
	t.Helper()
	node := exec.Command("node", "testdata/sdk-e2e.cjs")
	node.Env = append(append(os.Environ(), "NODE_PATH="+mods), env...)
	out, err := node.CombinedOutput()
	t.Logf("node testdata/sdk-e2e.cjs:\n%s", out)
	if err != nil || !strings.Contains(string(out), " 0 failed") {
		t.Fatalf("the JavaScript SDK test failed: %v", err)
	}
}

// startServe builds the tstable command and runs tstable serve on a free
// loopback port over db, with more flags when given; it returns the
// process, the table endpoint, and the file its standard error goes to.
// The process is killed when the test ends, if it has not stopped.
func startServe(t testing.TB, db string, flags ...string) (*exec.Cmd, string, string) {
	t.Helper()
	dir := t.TempDir()
	bin := filepath.Join(dir, "tstable")
	gobin, err := exec.LookPath("go")
	if err != nil {
		t.Fatalf("building tstable needs go on PATH: %v", err)
	}
	if out, err := exec.Command(gobin, "build", "-o", bin, "../cmd/tstable").CombinedOutput(); err != nil {
		t.Fatalf("build tstable: %v\n%s", err, out)
	}
	args := append([]string{"serve", "--db", db, "--addr", "127.0.0.1:0"}, flags...)
	serve := exec.Command(bin, args...)
	stderr, err := os.Create(filepath.Join(dir, "serve.log"))
	if err != nil {
		t.Fatal(err)
	}
	serve.Stderr = stderr
	if err := serve.Start(); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { serve.Process.Kill(); serve.Wait() })
	for deadline := time.Now().Add(20 * time.Second); ; time.Sleep(50 * time.Millisecond) {
		if url, _, ok := server.ReadAddress(db); ok {
			return serve, url, stderr.Name()
		}
		if time.Now().After(deadline) {
			b, _ := os.ReadFile(stderr.Name())
			t.Fatalf("tstable serve did not write its address:\n%s", b)
		}
	}
}
