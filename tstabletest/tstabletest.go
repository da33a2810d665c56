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
package tstabletest

import (
	"context"
	"path/filepath"
	"testing"
	"time"

	"github.com/tstable/tstable/server"
	"github.com/tstable/tstable/server/auth"
)

// Server is a running table service for one test.
type Server struct {
	r      *server.Running
	t      testing.TB
	closed bool
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
	path := filepath.Join(t.TempDir(), "tstable.db")
	key, err := auth.DecodeKey(server.DevelopmentKey)
	if err != nil {
		t.Fatal(err)
	}
	r, err := server.Start(server.Config{Addr: "127.0.0.1:0", DBPath: path,
		Authorizer: server.KeyAuthorizer(auth.New(server.DefaultAccount, key))})
	if err != nil {
		t.Fatalf("start the table service: %v", err)
	}
	s := &Server{r: r, t: t, DBPath: path}
	t.Cleanup(s.Close)
	return s
}

// ConnectionString is what an SDK connects with, e.g.
// aztables.NewServiceClientFromConnectionString(s.ConnectionString(), nil).
func (s *Server) ConnectionString() string { return s.r.ConnectionString() }

// URL is the table endpoint: http://127.0.0.1:PORT/devstoreaccount1.
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
