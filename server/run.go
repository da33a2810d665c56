package server

import (
	"context"
	"crypto/tls"
	"encoding/base64"
	"errors"
	"net"
	"net/http"
	"strings"

	"github.com/tstable/tstable/backend"
	"github.com/tstable/tstable/odata"
	"github.com/tstable/tstable/store"
)

// DevelopmentKey is the emulators' well-known account key (published with
// Azurite), the default key of tstable serve: connection strings written
// for the emulator work unchanged.
const DevelopmentKey = "Eby8vdM02xNOcqFlqUwJPLlmEtlCDXJ1OUzFT50uSRZ6IFsuFq2UVErCz4I6tq/K1SZFPTOtr/KBHBeksoGMGw=="

// Config is what Start needs: where to listen, which database to open, and
// who may call.
type Config struct {
	// Addr is the host:port to listen on ("127.0.0.1:10002"; port 0 picks
	// a free one).
	Addr string
	// DBPath is the database file, opened for writing for as long as the
	// server runs.
	DBPath string
	// Account and Key are the account's name and base64 key (the
	// emulator's when empty).
	Account string
	Key     string
	// TLS, when set, serves HTTPS (https://host:port/ACCOUNT) with its
	// certificate; nil serves plain HTTP.
	TLS *tls.Config
	// CertFile is the PEM file of the certificate clients should trust
	// (the one TLS serves), named in the address file so that the command
	// line reaching the database through the server trusts it.
	CertFile string
	// Authorizer checks each request; nil allows every request.
	Authorizer Authorizer
	// Log receives the explanation of each query; nil logs nothing.
	Log *ExplainLog
	// CORSAnyOrigin answers CORS for any origin (Options.CORSAnyOrigin).
	CORSAnyOrigin bool

	// bounds are the connections' bounds (the service's when zero; tests
	// set shorter ones).
	bounds connBounds
	// AnyVersion takes any x-ms-version (Options.AnyVersion).
	AnyVersion bool
	// Accounts are further accounts served from the same file, each with
	// its own tables (see Account); the first account, Account, keeps
	// the plain table names and the address file.
	Accounts []Account
}

// Running is a started server: its address, and how to stop it.
type Running struct {
	srv     *http.Server
	db      *store.DB
	l       net.Listener
	cfg     Config
	url     string
	done    chan error
	handler *Server
}

// Start opens the database, listens and serves in the background. The
// address file (PATH.serve) names the server until Shutdown.
func Start(cfg Config) (*Running, error) {
	if cfg.Account == "" {
		cfg.Account = DefaultAccount
	}
	if cfg.Key == "" {
		cfg.Key = DevelopmentKey
	}
	if _, err := base64.StdEncoding.DecodeString(cfg.Key); err != nil {
		return nil, errorf(odata.CodeInvalidInput, "the account key is not base64: pass the key as the portal shows it")
	}
	db, err := store.Open(cfg.DBPath, nil)
	if err != nil {
		if url, _, ok := ReadAddress(cfg.DBPath); ok && odata.IsCode(err, odata.CodeDatabaseLocked) {
			return nil, odata.Errorf(odata.CodeDatabaseLocked, "database %s is already served at %s; use that server, or stop it first", cfg.DBPath, url)
		}
		return nil, err
	}
	l, err := net.Listen("tcp", cfg.Addr)
	if err != nil {
		db.Close()
		return nil, odata.Errorf(odata.CodeInvalidInput, "cannot listen on %s: %v (is another server using the port? pick one with --addr)", cfg.Addr, err)
	}
	scheme := "http"
	if cfg.TLS != nil {
		tc := cfg.TLS.Clone()
		tc.NextProtos = []string{"http/1.1"} // as the service speaks
		l, scheme = tls.NewListener(l, tc), "https"
	}
	h, servers, handler := newHandler(db, cfg)
	r := &Running{
		srv:     newHTTPServer(h.WithConsole(allowsAll(cfg.Authorizer), handler), cfg.bounds, servers),
		db:      db,
		l:       l,
		cfg:     cfg,
		url:     scheme + "://" + l.Addr().String() + "/" + cfg.Account,
		done:    make(chan error, 1),
		handler: h,
	}
	if err := writeAddress(cfg.DBPath, addressFile{URL: r.url, Account: cfg.Account, Key: cfg.Key, Cert: cfg.CertFile}); err != nil {
		l.Close()
		db.Close()
		return nil, backend.FileError(err, "cannot write the address file %s", AddressPath(cfg.DBPath))
	}
	go func() {
		err := r.srv.Serve(l)
		if errors.Is(err, http.ErrServerClosed) {
			err = nil
		}
		r.done <- err
	}()
	return r, nil
}

// newHandler is the first account's Server and what answers requests: that
// Server alone, or with cfg.Accounts, a Server for each account over its
// namespace of db.
func newHandler(db backend.Backend, cfg Config) (*Server, []*Server, http.Handler) {
	opts := func(account string, a Authorizer) Options {
		return Options{Account: account, Authorizer: a, Log: cfg.Log, CORSAnyOrigin: cfg.CORSAnyOrigin, AnyVersion: cfg.AnyVersion}
	}
	if len(cfg.Accounts) == 0 {
		h := New(db, opts(cfg.Account, cfg.Authorizer))
		return h, []*Server{h}, h
	}
	hide := make([]string, len(cfg.Accounts))
	for i, a := range cfg.Accounts {
		hide[i] = NamespacePrefix(a.Name)
	}
	first := New(namespace{Backend: db, hide: hide}, opts(cfg.Account, cfg.Authorizer))
	m := accountMux{first: first, accounts: map[string]*Server{cfg.Account: first}}
	servers := []*Server{first}
	for i, a := range cfg.Accounts {
		others := append(append([]string{}, hide[:i]...), hide[i+1:]...)
		s := New(namespace{Backend: db, prefix: hide[i], hide: others}, opts(a.Name, a.Authorizer))
		m.accounts[a.Name] = s
		servers = append(servers, s)
	}
	return first, servers, m
}

// URL is the table endpoint: http://host:port/ACCOUNT, or https:// when
// the server serves TLS.
func (r *Running) URL() string { return r.url }

// HeaderNote says, when the file was opened at the commit before its
// newest because the newest commit's header is damaged, so (see
// store.DB.HeaderNote); "" otherwise.
func (r *Running) HeaderNote() string { return r.db.HeaderNote() }

// Addr is the address the server listens on.
func (r *Running) Addr() net.Addr { return r.l.Addr() }

// Handler is the server answering the requests.
func (r *Running) Handler() *Server { return r.handler }

// ConnectionString is what an SDK connects with (its protocol the URL's).
func (r *Running) ConnectionString() string { return connectionString(r.url, r.cfg.Account, r.cfg.Key) }

// connectionString names the endpoint url with the account's key.
func connectionString(url, account, key string) string {
	proto, _, _ := strings.Cut(url, "://")
	return "DefaultEndpointsProtocol=" + proto + ";AccountName=" + account + ";AccountKey=" + key +
		";TableEndpoint=" + url + ";"
}

// Accounts are the names of the accounts served, the first account's
// first.
func (r *Running) Accounts() []string {
	names := []string{r.cfg.Account}
	for _, a := range r.cfg.Accounts {
		names = append(names, a.Name)
	}
	return names
}

// ConnectionStrings are the connection strings of every account served,
// the first account's first.
func (r *Running) ConnectionStrings() []string {
	cs := []string{r.ConnectionString()}
	base := strings.TrimSuffix(r.url, "/"+r.cfg.Account)
	for _, a := range r.cfg.Accounts {
		cs = append(cs, connectionString(base+"/"+a.Name, a.Name, a.Key))
	}
	return cs
}

// Done delivers the error that stopped the server (nil after Shutdown).
func (r *Running) Done() <-chan error { return r.done }

// Shutdown stops accepting requests, lets those in flight finish (until
// ctx ends), closes the database and removes the address file.
func (r *Running) Shutdown(ctx context.Context) error {
	err := r.srv.Shutdown(ctx)
	removeAddress(r.cfg.DBPath)
	if cerr := r.db.Close(); err == nil {
		err = cerr
	}
	return err
}
