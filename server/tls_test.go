package server_test

import (
	"context"
	"crypto/tls"
	"crypto/x509"
	"encoding/base64"
	"encoding/pem"
	"fmt"
	"io"
	"net/http"
	"os"
	"path/filepath"
	"runtime"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/Azure/azure-sdk-for-go/sdk/azcore/policy"
	"github.com/Azure/azure-sdk-for-go/sdk/data/aztables"
	"github.com/gofrs/flock"
	"github.com/tstable/tstable/server"
	"github.com/tstable/tstable/server/auth"
	"github.com/tstable/tstable/tstabletest"
)

// token is a bearer token of the test credential: valid, or with the
// credential's fields.
func token(t *testing.T, cred tstabletest.TokenCredential) string {
	t.Helper()
	tok, err := cred.GetToken(context.Background(), policy.TokenRequestOptions{Scopes: []string{"https://storage.azure.com/.default"}})
	if err != nil {
		t.Fatal(err)
	}
	return tok.Token
}

// get sends GET url with the headers through client.
func get(t *testing.T, client *http.Client, url string, headers ...string) (*http.Response, string) {
	t.Helper()
	req, _ := http.NewRequest("GET", url, nil)
	req.Header.Set("Accept", "application/json;odata=fullmetadata")
	for i := 0; i+1 < len(headers); i += 2 {
		req.Header.Set(headers[i], headers[i+1])
	}
	resp, err := client.Do(req)
	if err != nil {
		t.Fatalf("GET %s: %v", url, err)
	}
	defer resp.Body.Close()
	b, _ := io.ReadAll(resp.Body)
	return resp, string(b)
}

// Over HTTPS the links the server writes are https too; a bearer token is
// answered as the service answers its version: 200 when good, 403 for
// 2019-02-02, and from 2019-12-12 on a 401 bearer challenge naming the
// tenant, in the response's WWW-Authenticate header.
func TestHTTPSResponses(t *testing.T) {
	s := tstabletest.NewTLSServer(t)
	good := "Bearer " + token(t, s.Credential())
	expired := "Bearer " + token(t, tstabletest.TokenCredential{Lifetime: -time.Hour, TenantID: "contoso.onmicrosoft.com"})
	resp, body := get(t, s.Client(), s.URL()+"/Tables", "Authorization", good, "x-ms-version", "2019-02-02")
	if resp.StatusCode != 200 || !strings.Contains(body, `"odata.metadata":"https://127.0.0.1:`) {
		t.Errorf("list tables over HTTPS: %d %s", resp.StatusCode, body)
	}
	resp, body = get(t, s.Client(), s.URL()+"/Tables", "Authorization", expired, "x-ms-version", "2019-02-02")
	if resp.StatusCode != 403 || resp.Header.Get("x-ms-error-code") != "AuthenticationFailed" || !strings.Contains(body, "The token is expired") || resp.Header.Get("WWW-Authenticate") != "" {
		t.Errorf("expired, 2019-02-02: %d %v %s", resp.StatusCode, resp.Header, body)
	}
	resp, body = get(t, s.Client(), s.URL()+"/Tables", "Authorization", expired, "x-ms-version", "2020-12-06")
	want := "Bearer authorization_uri=https://login.microsoftonline.com/contoso.onmicrosoft.com/oauth2/authorize resource_id=https://storage.azure.com"
	if resp.StatusCode != 401 || resp.Header.Get("x-ms-error-code") != "InvalidAuthenticationInfo" || resp.Header.Get("WWW-Authenticate") != want ||
		!strings.Contains(body, `"code":"InvalidAuthenticationInfo"`) {
		t.Errorf("expired, 2020-12-06: %d %v %s", resp.StatusCode, resp.Header, body)
	}
	resp, body = get(t, s.Client(), s.URL()+"?restype=service&comp=properties", "Authorization", expired, "x-ms-version", "2020-12-06")
	if resp.StatusCode != 401 || resp.Header.Get("WWW-Authenticate") != want || !strings.Contains(body, "<m:code>InvalidAuthenticationInfo</m:code>") {
		t.Errorf("expired, service properties (XML): %d %v %s", resp.StatusCode, resp.Header, body)
	}
	// Plain HTTP to the HTTPS port is no table service answer.
	if resp, err := http.Get(strings.Replace(s.URL(), "https://", "http://", 1) + "/Tables"); err == nil && resp.StatusCode == 200 {
		t.Error("plain HTTP was served on the HTTPS port")
	}
}

// Bearer over plain HTTP stays refused, as the service refuses it, even
// by a server that takes tokens.
func TestBearerOverHTTPRefused(t *testing.T) {
	key, _ := auth.DecodeKey(server.DevelopmentKey)
	v := auth.New(server.DefaultAccount, key)
	v.SetOAuth(auth.OAuthBasic)
	r, err := server.Start(server.Config{Addr: "127.0.0.1:0", DBPath: filepath.Join(t.TempDir(), "t.db"), Authorizer: server.KeyAuthorizer(v)})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { r.Shutdown(context.Background()) })
	resp, body := get(t, http.DefaultClient, r.URL()+"/Tables", "Authorization", "Bearer "+token(t, tstabletest.TokenCredential{}), "x-ms-version", "2019-02-02")
	if resp.StatusCode != 403 || resp.Header.Get("x-ms-error-code") != "AuthenticationFailed" || !strings.Contains(body, "not allowed with HTTP") {
		t.Errorf("bearer over HTTP: %d %s", resp.StatusCode, body)
	}
}

// tstable serve --tls's certificate: made once in the folder given, for
// the loopback names, within the 825 days macOS trusts, its key readable
// by its owner only; reused as it is; made anew when it is unreadable or
// about to expire; and two servers starting at once end with one.
func TestLocalCertificate(t *testing.T) {
	dir := filepath.Join(t.TempDir(), "state", "tstable", "tls")
	file, tc, made, err := server.LocalCertificate(dir)
	if err != nil || !made || file != filepath.Join(dir, "cert.pem") || len(tc.Certificates) != 1 {
		t.Fatalf("first: %s %v %v", file, made, err)
	}
	cert := readCert(t, file)
	for _, name := range []string{"localhost", "127.0.0.1", "::1"} {
		if err := cert.VerifyHostname(name); err != nil {
			t.Errorf("not valid for %s: %v", name, err)
		}
	}
	if life := cert.NotAfter.Sub(cert.NotBefore); life > 825*24*time.Hour || life < 800*24*time.Hour {
		t.Errorf("valid for %v", life)
	}
	// (Windows has no mode bits: the state folder's permissions keep it the user's.)
	if fi, err := os.Stat(filepath.Join(dir, "key.pem")); err != nil || (runtime.GOOS != "windows" && fi.Mode().Perm() != 0o600) {
		t.Errorf("key file: %v %v", fi.Mode(), err)
	}
	pool := x509.NewCertPool()
	pool.AddCert(cert)
	if _, err := cert.Verify(x509.VerifyOptions{Roots: pool, DNSName: "127.0.0.1"}); err != nil {
		t.Errorf("the certificate does not verify as its own root: %v", err)
	}
	before, _ := os.ReadFile(file)
	if _, _, made, err := server.LocalCertificate(dir); err != nil || made {
		t.Errorf("second: made %v, %v", made, err)
	}
	if after, _ := os.ReadFile(file); string(after) != string(before) {
		t.Error("the certificate changed on reuse")
	}

	old, oldKey, _ := server.NewLocalCertificate(time.Now().Add(-820 * 24 * time.Hour))
	os.WriteFile(file, old, 0o644)
	os.WriteFile(filepath.Join(dir, "key.pem"), oldKey, 0o600)
	if _, _, made, err := server.LocalCertificate(dir); err != nil || !made || readCert(t, file).NotAfter.Before(time.Now().Add(800*24*time.Hour)) {
		t.Errorf("a certificate about to expire was not made anew: %v %v", made, err)
	}
	os.WriteFile(file, []byte("damaged"), 0o644)
	if _, _, made, err := server.LocalCertificate(dir); err != nil || !made {
		t.Errorf("a damaged certificate was not made anew: %v %v", made, err)
	}

	fresh := filepath.Join(t.TempDir(), "tls")
	var wg sync.WaitGroup
	files := make([]string, 8)
	for i := range files {
		wg.Add(1)
		go func(i int) {
			defer wg.Done()
			f, tc, _, err := server.LocalCertificate(fresh)
			if err != nil {
				t.Errorf("concurrent start %d: %v", i, err)
				return
			}
			files[i] = base64.StdEncoding.EncodeToString(tc.Certificates[0].Certificate[0]) + f
		}(i)
	}
	wg.Wait()
	on := readCert(t, filepath.Join(fresh, "cert.pem"))
	for i, f := range files {
		if f != "" && !strings.HasPrefix(f, base64.StdEncoding.EncodeToString(on.Raw)) {
			t.Errorf("start %d serves a certificate other than the one kept", i)
		}
	}
}

// A server that finds no certificate while another holds the folder's
// lock (making one) waits for it, and then loads the one made: it makes
// none of its own over it.
func TestLocalCertificateWaitsForTheOneMakingIt(t *testing.T) {
	dir := filepath.Join(t.TempDir(), "tls")
	held := flock.New(dir + ".lock")
	if err := held.Lock(); err != nil {
		t.Fatal(err)
	}
	type result struct {
		tc   *tls.Config
		made bool
		err  error
	}
	done := make(chan result, 1)
	go func() {
		_, tc, made, err := server.LocalCertificate(dir)
		done <- result{tc, made, err}
	}()
	select {
	case r := <-done:
		t.Fatalf("LocalCertificate returned (made %v, %v) while another held the lock", r.made, r.err)
	case <-time.After(200 * time.Millisecond):
	}
	// The holder makes the certificate, then lets go.
	certPEM, keyPEM, err := server.NewLocalCertificate(time.Now())
	if err != nil {
		t.Fatal(err)
	}
	if err := os.Mkdir(dir, 0o700); err != nil {
		t.Fatal(err)
	}
	os.WriteFile(filepath.Join(dir, "key.pem"), keyPEM, 0o600)
	os.WriteFile(filepath.Join(dir, "cert.pem"), certPEM, 0o644)
	kept := readCert(t, filepath.Join(dir, "cert.pem"))
	held.Unlock()
	r := <-done
	if r.err != nil || r.made {
		t.Fatalf("the waiter: made %v, %v; want the holder's certificate loaded", r.made, r.err)
	}
	if string(r.tc.Certificates[0].Certificate[0]) != string(kept.Raw) {
		t.Error("the waiter serves a certificate other than the one kept")
	}
}

func readCert(t *testing.T, file string) *x509.Certificate {
	t.Helper()
	b, err := os.ReadFile(file)
	if err != nil {
		t.Fatal(err)
	}
	block, _ := pem.Decode(b)
	if block == nil {
		t.Fatalf("%s holds no PEM", file)
	}
	c, err := x509.ParseCertificate(block.Bytes)
	if err != nil {
		t.Fatal(err)
	}
	return c
}

// Readers and writers at once over HTTPS with tokens: every write lands,
// every read sees a consistent count, no handshake or token is refused.
func TestHTTPSConcurrentReadersAndWriters(t *testing.T) {
	s := tstabletest.NewTLSServer(t)
	ctx := context.Background()
	svc, err := aztables.NewServiceClient(s.URL(), s.Credential(), s.ClientOptions())
	if err != nil {
		t.Fatal(err)
	}
	if _, err := svc.CreateTable(ctx, "Load", nil); err != nil {
		t.Fatal(err)
	}
	const writers, each = 6, 40
	var wg sync.WaitGroup
	errs := make(chan error, 2*writers)
	for w := 0; w < writers; w++ {
		wg.Add(2)
		go func(w int) {
			defer wg.Done()
			// Each writer builds its own client, as separate apps would.
			c, _ := aztables.NewServiceClient(s.URL(), s.Credential(), s.ClientOptions())
			table := c.NewClient("Load")
			for i := 0; i < each; i++ {
				e := fmt.Sprintf(`{"PartitionKey":"w%d","RowKey":"%03d","N":%d}`, w, i, i)
				if _, err := table.UpsertEntity(ctx, []byte(e), nil); err != nil {
					errs <- err
					return
				}
			}
		}(w)
		go func(w int) {
			defer wg.Done()
			table := svc.NewClient("Load")
			for i := 0; i < each/4; i++ {
				filter := fmt.Sprintf("PartitionKey eq 'w%d'", w)
				pager := table.NewListEntitiesPager(&aztables.ListEntitiesOptions{Filter: &filter})
				prev := -1
				for pager.More() {
					page, err := pager.NextPage(ctx)
					if err != nil {
						errs <- err
						return
					}
					if len(page.Entities) < prev {
						errs <- fmt.Errorf("a reader saw %d entities after %d", len(page.Entities), prev)
					}
					prev = len(page.Entities)
				}
			}
		}(w)
	}
	wg.Wait()
	close(errs)
	for err := range errs {
		t.Error(err)
	}
	n := 0
	pager := svc.NewClient("Load").NewListEntitiesPager(nil)
	for pager.More() {
		page, err := pager.NextPage(ctx)
		if err != nil {
			t.Fatal(err)
		}
		n += len(page.Entities)
	}
	if n != writers*each {
		t.Errorf("%d entities, want %d", n, writers*each)
	}
}
