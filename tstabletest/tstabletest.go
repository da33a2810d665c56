// Package tstabletest starts a tstable table service inside a Go test, as
// net/http/httptest starts an HTTP server: on a free loopback port, over a
// database in the test's temporary folder, stopped when the test ends.
//
//	func TestOrders(t *testing.T) {
//		s := tstabletest.NewServer(t)
//		defer s.Close()
//		client, _ := aztables.NewServiceClientFromConnectionString(s.ConnectionString(), nil)
//		...
//	}
//
// NewTLSServer serves HTTPS, as httptest.NewTLSServer does, and takes
// Microsoft Entra ID tokens, so that an application written for a
// TokenCredential builds its client in its tests as in production:
//
//	s := tstabletest.NewTLSServer(t)
//	client, _ := aztables.NewServiceClient(s.URL(), s.Credential(), s.ClientOptions())
package tstabletest

import (
	"context"
	"crypto/tls"
	"crypto/x509"
	"net/http"
	"path/filepath"
	"testing"
	"time"

	"github.com/Azure/azure-sdk-for-go/sdk/azcore"
	"github.com/Azure/azure-sdk-for-go/sdk/data/aztables"
	"github.com/tstable/tstable/server"
	"github.com/tstable/tstable/server/auth"
)

// Server is a running table service for one test.
type Server struct {
	r      *server.Running
	t      testing.TB
	closed bool
	cert   *x509.Certificate // the certificate served over HTTPS, nil over HTTP
	client *http.Client      // trusts cert
	// DBPath is the database file the server holds.
	DBPath string
}

// NewServer starts a server over a new database in t's temporary folder,
// serving the emulator's account (devstoreaccount1, with its published
// key). Requests are authenticated as the service authenticates them:
// signed with the key of the connection string (as the SDKs sign), or
// with a SAS made from it. It is closed when the test ends, if not before.
func NewServer(t testing.TB) *Server {
	t.Helper()
	return start(t, nil, auth.OAuthOff)
}

// NewTLSServer starts a server as NewServer does, but over HTTPS with a
// self-signed certificate made for the test (for 127.0.0.1, ::1 and
// localhost), and taking Microsoft Entra ID bearer tokens as tstable
// serve --oauth basic does: a well-formed, unexpired token for
// https://storage.azure.com from an Entra ID issuer, whose signature is
// not checked. Shared Key and SAS work too. ClientOptions (or Client)
// trusts the certificate; Credential mints tokens the server takes.
func NewTLSServer(t testing.TB) *Server {
	t.Helper()
	certPEM, keyPEM, err := server.NewLocalCertificate(time.Now())
	if err != nil {
		t.Fatalf("make the test certificate: %v", err)
	}
	pair, err := tls.X509KeyPair(certPEM, keyPEM)
	if err != nil {
		t.Fatalf("load the test certificate: %v", err)
	}
	return start(t, &tls.Config{Certificates: []tls.Certificate{pair}, MinVersion: tls.VersionTLS12}, auth.OAuthBasic)
}

// start starts a server over a new database, over HTTPS when tc is set.
func start(t testing.TB, tc *tls.Config, oauth auth.OAuth) *Server {
	t.Helper()
	path := filepath.Join(t.TempDir(), "tstable.db")
	key, err := auth.DecodeKey(server.DevelopmentKey)
	if err != nil {
		t.Fatal(err)
	}
	v := auth.New(server.DefaultAccount, key)
	v.SetOAuth(oauth)
	r, err := server.Start(server.Config{Addr: "127.0.0.1:0", DBPath: path, TLS: tc, Authorizer: server.KeyAuthorizer(v)})
	if err != nil {
		t.Fatalf("start the table service: %v", err)
	}
	s := &Server{r: r, t: t, DBPath: path, client: &http.Client{}}
	if tc != nil {
		if s.cert, err = x509.ParseCertificate(tc.Certificates[0].Certificate[0]); err != nil {
			t.Fatal(err)
		}
		roots := x509.NewCertPool()
		roots.AddCert(s.cert)
		s.client = &http.Client{Transport: &http.Transport{TLSClientConfig: &tls.Config{RootCAs: roots, MinVersion: tls.VersionTLS12}}}
	}
	t.Cleanup(s.Close)
	return s
}

// Certificate is the certificate the server serves; nil over HTTP.
func (s *Server) Certificate() *x509.Certificate { return s.cert }

// Client is an HTTP client for the server: over HTTPS it trusts the
// server's certificate (and no other), as httptest.Server.Client does.
func (s *Server) Client() *http.Client { return s.client }

// ClientOptions are the options of an aztables client of the server:
// over HTTPS, its HTTP client trusts the server's certificate.
func (s *Server) ClientOptions() *aztables.ClientOptions {
	return &aztables.ClientOptions{ClientOptions: azcore.ClientOptions{Transport: s.client}}
}

// Credential mints Microsoft Entra ID tokens for storage that a server of
// NewTLSServer takes (see TokenCredential).
func (s *Server) Credential() TokenCredential { return TokenCredential{} }

// ConnectionString is what an SDK connects with, e.g.
// aztables.NewServiceClientFromConnectionString(s.ConnectionString(), nil).
func (s *Server) ConnectionString() string { return s.r.ConnectionString() }

// URL is the table endpoint: http://127.0.0.1:PORT/devstoreaccount1, or
// https:// for NewTLSServer. It is the account URL of a TokenCredential
// client.
func (s *Server) URL() string { return s.r.URL() }

// Close stops the server, letting requests in flight finish, and closes
// the database. It may be called more than once.
func (s *Server) Close() {
	if s.closed {
		return
	}
	s.closed = true
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	if err := s.r.Shutdown(ctx); err != nil {
		s.t.Errorf("stop the table service: %v", err)
	}
}
