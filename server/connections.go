package server

import (
	"errors"
	"net"
	"net/http"
	"sync"
	"time"

	"github.com/tstable/tstable/odata"
)

// The bounds of serve's connections. The service gives one operation 30
// seconds, arrival included, and answers past it 500 OperationTimedOut; it
// closes connections left idle, and refuses what it cannot take with 503
// ServerBusy. serve does the same, so that a client trickling its body, a
// pool of idle keep-alive connections or a flood of clients cannot hold
// the server:
//   - a request's headers and body arrive whole within the arrival bound,
//     or the request is answered 500 OperationTimedOut and its connection
//     closed (the body's read fails; readSizedInto says which error);
//   - a connection idle for the idle bound between requests is closed;
//   - at most the bound's number of connections are open at once: a new
//     one beyond it closes the connection idle the longest, and where
//     none is idle its requests are answered 503 ServerBusy and the
//     connection closed;
//   - request headers larger than the bound (the request line and every
//     header) are answered 400 InvalidInput in the service's error
//     document; past hardHeaderBytes net/http refuses them itself (431).
type connBounds struct {
	arrival     time.Duration // a request's headers and body arrive within
	idle        time.Duration // a kept-alive connection waits for its next request
	conns       int           // connections open at once
	headerBytes int           // the request line and headers
}

// serviceBounds are serve's bounds: the service's 30 seconds for one
// operation; idle connections closed after two minutes; 1,024
// connections; 64 KiB of headers (HTTP.sys, in front of the service,
// takes 16 KiB by default and some of Azure's front ends more: serve
// refuses only what none would take).
var serviceBounds = connBounds{arrival: 30 * time.Second, idle: 2 * time.Minute, conns: 1024, headerBytes: 64 << 10}

// hardHeaderBytes is where net/http refuses headers itself (431, plain
// text), before serve sees the request.
const hardHeaderBytes = 8 << 20

// newHTTPServer is the http.Server that serves handler within bounds (the
// service's when zero), for the servers behind it (one an account).
func newHTTPServer(handler http.Handler, bounds connBounds, servers []*Server) *http.Server {
	if bounds == (connBounds{}) {
		bounds = serviceBounds
	}
	book := newConnBook(bounds)
	for _, s := range servers {
		s.conns = book
	}
	return &http.Server{
		Handler:           handler,
		ReadHeaderTimeout: bounds.arrival,
		ReadTimeout:       bounds.arrival,
		IdleTimeout:       bounds.idle,
		MaxHeaderBytes:    hardHeaderBytes,
		ConnState:         book.track,
	}
}

// connBook counts a server's open connections and knows which are idle.
type connBook struct {
	bounds connBounds
	mu     sync.Mutex
	conns  map[net.Conn]connState
}

// connState is a connection's state and since when it has been in it.
type connState struct {
	state http.ConnState
	since time.Time
}

func newConnBook(bounds connBounds) *connBook {
	return &connBook{bounds: bounds, conns: make(map[net.Conn]connState)}
}

// track is the http.Server's ConnState hook: it books each connection's
// state, and a new connection past the bound closes the one idle the
// longest.
func (b *connBook) track(c net.Conn, s http.ConnState) {
	var evict net.Conn
	b.mu.Lock()
	switch s {
	case http.StateClosed, http.StateHijacked:
		delete(b.conns, c)
	default:
		b.conns[c] = connState{state: s, since: time.Now()}
		if s == http.StateNew && len(b.conns) > b.bounds.conns {
			evict = b.longestIdle()
			if evict != nil {
				delete(b.conns, evict)
			}
		}
	}
	b.mu.Unlock()
	if evict != nil {
		evict.Close()
	}
}

// longestIdle is the connection idle the longest, or nil when none is
// idle. b.mu is held.
func (b *connBook) longestIdle() net.Conn {
	var oldest net.Conn
	var since time.Time
	for c, st := range b.conns {
		if st.state == http.StateIdle && (oldest == nil || st.since.Before(since)) {
			oldest, since = c, st.since
		}
	}
	return oldest
}

// full reports whether more connections are open than the bound.
func (b *connBook) full() bool {
	b.mu.Lock()
	defer b.mu.Unlock()
	return len(b.conns) > b.bounds.conns
}

// admit refuses a request the server will not take: headers larger than
// the bound, or a connection beyond the bound. A refused request's
// connection is closed after the answer.
func (s *Server) admit(w http.ResponseWriter, r *http.Request) error {
	bounds := serviceBounds
	if s.conns != nil {
		bounds = s.conns.bounds
	}
	if headerBytes(r) > bounds.headerBytes {
		w.Header().Set("Connection", "close")
		return errorf(odata.CodeInvalidInput, "the request headers are too large: %d bytes at most, the request line and every header counted", bounds.headerBytes)
	}
	if s.conns != nil && s.conns.full() {
		w.Header().Set("Connection", "close")
		return errorf(odata.CodeServerBusy, "%d connections are open, the most serve keeps; retry, or use fewer connections", bounds.conns)
	}
	return nil
}

// headerBytes is the size of r's request line and headers as sent
// (each header "Name: value\r\n").
func headerBytes(r *http.Request) int {
	n := len(r.Method) + len(r.RequestURI) + len(r.Proto) + 4
	for k, vs := range r.Header {
		for _, v := range vs {
			n += len(k) + len(v) + 4
		}
	}
	return n
}

// isTimeout reports whether err is a read that ran past its deadline.
func isTimeout(err error) bool {
	var ne net.Error
	return errors.As(err, &ne) && ne.Timeout()
}
