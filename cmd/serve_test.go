package cmd

import (
	"context"
	"encoding/json"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
	"time"

	"github.com/tstable/tstable/odata"
	"github.com/tstable/tstable/server"
)

// servedDB is the seeded People database, held by tstable serve on a
// free loopback port until the test ends.
func servedDB(t *testing.T) (string, *server.Running) {
	t.Helper()
	db := filepath.Join(t.TempDir(), "t.db")
	seed(t, db)
	srv, err := server.Start(server.Config{Addr: "127.0.0.1:0", DBPath: db})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { srv.Shutdown(context.Background()) })
	return db, srv
}

// While tstable serve holds a database, the command line on the same --db
// goes through the server: no DatabaseLocked, the same answers, and the
// server's scanned count in explanations.
func TestCommandsGoThroughTheServerHoldingTheFile(t *testing.T) {
	db, srv := servedDB(t)

	out, errOut, st := run(context.Background(), db, "", "query", "People", "--filter", "PartitionKey eq 'Sales'", "--explain", "-o", "json")
	if st != 0 {
		t.Fatalf("query on a served file: exit %d\n%s", st, errOut)
	}
	var got struct {
		Value   []map[string]any
		Explain struct {
			Class   string
			Scanned int64
		}
	}
	if err := json.Unmarshal([]byte(out), &got); err != nil || len(got.Value) == 0 || got.Explain.Class != "partition-scan" || got.Explain.Scanned != int64(len(got.Value)) {
		t.Errorf("query through the server: %v\n%s", err, out)
	}
	mustRun(t, db, "", "upsert", "People", `{"PartitionKey":"Sales","RowKey":"00099","Age":5}`)
	if out := mustRun(t, db, "", "get", "People", "Sales", "00099", "-o", "json"); !strings.Contains(out, `"Age":5`) {
		t.Errorf("get after upsert through the server: %s", out)
	}
	if out := mustRun(t, db, "", "status", "-o", "json"); !strings.Contains(out, `"backend":"served"`) || !strings.Contains(out, srv.URL()) {
		t.Errorf("status of a served file: %s", out)
	}
	if _, errOut, st := run(context.Background(), db, "", "serve", "--addr", "127.0.0.1:0"); st != ExitFailed || !strings.Contains(errOut, "already served at "+srv.URL()) {
		t.Errorf("a second serve: exit %d, %s", st, errOut)
	}
}

// serveInBackground runs tstable serve with args over db until the
// returned stop is called; stop returns what it wrote to stderr and its
// exit status.
func serveInBackground(t *testing.T, db string, args ...string) (stop func() (string, int)) {
	t.Helper()
	ctx, cancel := context.WithCancel(context.Background())
	type result struct {
		errOut string
		status int
	}
	done := make(chan result, 1)
	go func() {
		_, errOut, status := run(ctx, db, "", append([]string{"serve", "--addr", "127.0.0.1:0"}, args...)...)
		done <- result{errOut, status}
	}()
	for deadline := time.Now().Add(10 * time.Second); ; time.Sleep(20 * time.Millisecond) {
		if _, _, ok := server.ReadAddress(db); ok {
			break
		}
		select {
		case r := <-done:
			cancel()
			t.Fatalf("tstable serve %s stopped: exit %d\n%s", strings.Join(args, " "), r.status, r.errOut)
		default:
		}
		if time.Now().After(deadline) {
			cancel()
			t.Fatal("tstable serve did not write its address")
		}
	}
	stopped := false
	var last result
	stop = func() (string, int) {
		if !stopped {
			stopped = true
			cancel()
			last = <-done
		}
		return last.errOut, last.status
	}
	t.Cleanup(func() { stop() })
	return stop
}

// tstable serve --tls: an https URL and connection string, the
// certificate's path on a "certificate: " line with how to trust it,
// kept with tstable's state (not beside the database) and reused by the
// next start; the command line on the same file goes through the server
// over HTTPS, trusting that certificate.
func TestServeTLS(t *testing.T) {
	state := t.TempDir()
	t.Setenv("XDG_STATE_HOME", state)
	db := filepath.Join(t.TempDir(), "t.db")
	seed(t, db)
	stop := serveInBackground(t, db, "--tls")
	url, _, _ := server.ReadAddress(db)
	if !strings.HasPrefix(url, "https://127.0.0.1:") {
		t.Fatalf("served at %s", url)
	}
	out := mustRun(t, db, "", "query", "People", "--filter", "PartitionKey eq 'Sales'", "-o", "json")
	if !strings.Contains(out, `"PartitionKey":"Sales"`) {
		t.Errorf("query through the server over HTTPS: %s", out)
	}
	mustRun(t, db, "", "upsert", "People", `{"PartitionKey":"Sales","RowKey":"00099","Age":5}`)
	if out := mustRun(t, db, "", "status", "-o", "json"); !strings.Contains(out, `"backend":"served"`) || !strings.Contains(out, url) {
		t.Errorf("status: %s", out)
	}
	errOut, status := stop()
	certFile := filepath.Join(state, "tstable", "tls", "cert.pem")
	for _, want := range []string{
		"serving " + db + " at https://127.0.0.1:",
		"connection string: DefaultEndpointsProtocol=https;AccountName=devstoreaccount1;",
		";TableEndpoint=https://127.0.0.1:",
		"\ncertificate: " + certFile + "\n",
		"made now: self-signed for localhost, 127.0.0.1 and ::1",
		"NODE_EXTRA_CA_CERTS=" + certFile,
		"SSL_CERT_FILE=" + certFile, "REQUESTS_CA_BUNDLE=" + certFile,
	} {
		if !strings.Contains(errOut, want) {
			t.Errorf("serve --tls printed no %q:\n%s", want, errOut)
		}
	}
	if status != 0 {
		t.Errorf("serve --tls exit %d", status)
	}
	first, err := os.ReadFile(certFile)
	if err != nil {
		t.Fatal(err)
	}
	if matches, _ := filepath.Glob(filepath.Join(filepath.Dir(db), "*.pem")); len(matches) != 0 {
		t.Errorf("certificates beside the database: %v", matches)
	}

	stop = serveInBackground(t, db, "--tls")
	errOut, _ = stop()
	again, _ := os.ReadFile(certFile)
	if string(again) != string(first) || strings.Contains(errOut, "made now") || !strings.Contains(errOut, "certificate: "+certFile) {
		t.Errorf("the second start did not reuse the certificate:\n%s", errOut)
	}
}

// The flags of HTTPS and tokens that do not go together are usage errors
// that say what to do.
func TestServeTLSFlagErrors(t *testing.T) {
	t.Setenv("XDG_STATE_HOME", t.TempDir())
	db := filepath.Join(t.TempDir(), "t.db")
	dir := t.TempDir()
	certPEM, keyPEM, err := server.NewLocalCertificate(time.Now())
	if err != nil {
		t.Fatal(err)
	}
	cert, key := filepath.Join(dir, "cert.pem"), filepath.Join(dir, "key.pem")
	os.WriteFile(cert, certPEM, 0o644)
	os.WriteFile(key, keyPEM, 0o600)
	otherCert, _, _ := server.NewLocalCertificate(time.Now())
	other := filepath.Join(dir, "other.pem")
	os.WriteFile(other, otherCert, 0o644)
	for _, c := range []struct {
		args []string
		want string
	}{
		{[]string{"--oauth", "basic"}, "--oauth basic needs HTTPS"},
		{[]string{"--tls", "--oauth", "full"}, "is not an OAuth level"},
		{[]string{"--tls", "--oauth", "basic", "--no-auth"}, "leave out --oauth"},
		{[]string{"--cert", cert}, "--cert FILE and --key FILE go together"},
		{[]string{"--tls", "--cert", cert, "--key", key}, "give one or the other"},
		{[]string{"--cert", other, "--key", key}, "cannot use the certificate"},
		{[]string{"--cert", cert, "--key", key, "--addr", "192.0.2.1:0"}, "is not valid for 192.0.2.1"},
		{[]string{"--account-key", "not base64!"}, "--account-key: the account key is not base64"},
	} {
		_, errOut, status := run(context.Background(), db, "", append([]string{"serve", "--addr", "127.0.0.1:0"}, c.args...)...)
		if status != ExitUsage || !strings.Contains(errOut, c.want) {
			t.Errorf("serve %s: exit %d\n%s", strings.Join(c.args, " "), status, errOut)
		}
	}
}

// --cert and --key serve the user's certificate: its path is the one
// printed and the one the command line trusts.
func TestServeOwnCertificate(t *testing.T) {
	db := filepath.Join(t.TempDir(), "t.db")
	seed(t, db)
	dir := t.TempDir()
	certPEM, keyPEM, err := server.NewLocalCertificate(time.Now())
	if err != nil {
		t.Fatal(err)
	}
	cert, key := filepath.Join(dir, "cert.pem"), filepath.Join(dir, "key.pem")
	os.WriteFile(cert, certPEM, 0o644)
	os.WriteFile(key, keyPEM, 0o600)
	stop := serveInBackground(t, db, "--cert", cert, "--key", key)
	if out := mustRun(t, db, "", "get", "People", "Sales", "00010", "-o", "json"); !strings.Contains(out, `"RowKey":"00010"`) {
		t.Errorf("get through the server: %s", out)
	}
	errOut, _ := stop()
	if !strings.Contains(errOut, "\ncertificate: "+cert+"\n") || strings.Contains(errOut, "made now") {
		t.Errorf("serve --cert printed:\n%s", errOut)
	}
}

// A continuation token goes on where its page ended whether the file is
// served or not: one from a query through tstable serve resumes on the
// file after the server stops, and the reverse. A token of a remote
// service is refused on a local file (and the reverse), never read as a
// key: that would start again at the first page.
func TestContinuationAcrossServeAndLocal(t *testing.T) {
	db, srv := servedDB(t)
	page := func(token string) (rows, next string) {
		t.Helper()
		args := []string{"query", "People", "--page-size", "2", "--select", "Age"}
		if token != "" {
			args = append(args, "--continuation", token)
		}
		out, errOut, st := run(context.Background(), db, "", args...)
		if st != 0 {
			t.Fatalf("%s: exit %d\n%s", strings.Join(args, " "), st, errOut)
		}
		next = ""
		if m := regexp.MustCompile(`continuation: (\S+)`).FindStringSubmatch(errOut); m != nil {
			next = m[1]
		}
		return canonical(t, out), next
	}
	servedPage1, servedToken := page("")
	servedPage2, servedToken2 := page(servedToken)
	if servedToken == "" || servedToken2 == "" || servedPage1 == servedPage2 {
		t.Fatalf("pages through the server: %q %q", servedToken, servedToken2)
	}
	srv.Shutdown(context.Background())

	if localPage2, _ := page(servedToken); localPage2 != servedPage2 {
		t.Errorf("the served token on the local file gave\n%s\nwant the second page\n%s", localPage2, servedPage2)
	}
	localPage3, _ := page(servedToken2)
	_, localToken := page("")

	again, err := server.Start(server.Config{Addr: "127.0.0.1:0", DBPath: db})
	if err != nil {
		t.Fatal(err)
	}
	defer again.Shutdown(context.Background())
	if served2, _ := page(localToken); served2 != servedPage2 {
		t.Errorf("the local token through the server gave\n%s\nwant the second page\n%s", served2, servedPage2)
	}
	if served3, _ := page(servedToken2); served3 != localPage3 {
		t.Errorf("a served token, served again, gave\n%s\nwant\n%s", served3, localPage3)
	}
	again.Shutdown(context.Background())

	service := odata.EncodeContinuation(odata.Key{PartitionKey: "1!8!U2FsZXM-", RowKey: "1!12!MDAwMDEw"}, "People\x00", odata.ServiceContinuation)
	_, errOut, st := run(context.Background(), db, "", "query", "People", "--continuation", service)
	if st != ExitFailed || !strings.Contains(errOut, "error: InvalidContinuationToken: --continuation: the token is from a query of a remote service") {
		t.Errorf("a service's token on a local file: exit %d, %s", st, errOut)
	}
	_, errOut, st = runArgs(context.Background(), "--connection-string", "UseDevelopmentStorage=true", "query", "People", "--continuation", servedToken)
	if st != ExitFailed || !strings.Contains(errOut, "error: InvalidContinuationToken: --continuation: the token is from a query of a local database file") {
		t.Errorf("a local token on a remote account: exit %d, %s", st, errOut)
	}
}

// A command refused through the server says what the same command says on
// the file itself: the server's messages carry tstable's words after the
// service's sentence, and the command line shows tstable's.
func TestRefusalsThroughTheServerKeepTheirWords(t *testing.T) {
	served, _ := servedDB(t)
	local := filepath.Join(t.TempDir(), "local.db")
	seed(t, local)
	for _, args := range [][]string{
		{"insert", "People", `{"PartitionKey":"a/b","RowKey":"1"}`},
		{"insert", "People", `{"PartitionKey":"Sales","RowKey":"1","A-B":1}`},
		{"query", "People", "--filter", "Age eq"},
		{"table", "delete", "Nowhere"},
		{"delete", "People", "Sales", "nobody"},
		{"replace", "People", `{"PartitionKey":"Sales","RowKey":"nobody","A":1}`},
		{"merge", "People", `{"PartitionKey":"Sales","RowKey":"nobody","A":1}`},
	} {
		_, want, wantSt := run(context.Background(), local, "", args...)
		_, got, st := run(context.Background(), served, "", args...)
		if wantSt == 0 || st != wantSt || got != want {
			t.Errorf("%s:\nthrough the server: exit %d\n%s\non the file: exit %d\n%s", strings.Join(args, " "), st, got, wantSt, want)
		}
	}
}
