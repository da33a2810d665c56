package auth

import (
	"net/http"
	"sync"
	"time"
)

// Verified SAS query strings. An application signs one SAS and sends it
// with every request, so the server would compute the same string-to-sign
// and HMAC again for each. A query string whose SAS verified once (its
// signature, fields and letters: all that the query alone decides) is
// kept with the grant it gave; a request with the same query string then
// checks only what changes from one request to the next: the time window
// against the clock, the protocol and the source address. A SAS that
// names a stored access policy (si) is not kept: the policy can change.
// The account key of a Verifier never changes, so a kept answer never
// goes stale.

// sasCacheMax bounds the query strings kept; when full, the cache starts
// again empty.
const sasCacheMax = 1024

// sasCache is the query strings verified, safe for concurrent use.
type sasCache struct {
	mu sync.RWMutex
	m  map[string]*sasEntry
}

// sasEntry is what a verified query string grants, and the fields checked
// again at each request.
type sasEntry struct {
	grant            Grant // its method is the request's, set at each use
	st, se, spr, sip string
}

// get is the entry of the query string raw, or nil.
func (c *sasCache) get(raw string) *sasEntry {
	c.mu.RLock()
	defer c.mu.RUnlock()
	return c.m[raw]
}

// put keeps e as the entry of raw.
func (c *sasCache) put(raw string, e *sasEntry) {
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.m == nil || len(c.m) >= sasCacheMax {
		c.m = make(map[string]*sasEntry)
	}
	c.m[raw] = e
}

// authorize is the grant of e for r at now: its window, protocol and
// source address checked as verifySAS checks them.
func (e *sasEntry) authorize(r *http.Request, now time.Time) (*Grant, error) {
	if err := checkSASWindow(e.st, e.se, now); err != nil {
		return nil, err
	}
	if err := checkProtocol(e.spr, r); err != nil {
		return nil, err
	}
	if err := checkSourceIP(e.sip, r); err != nil {
		return nil, err
	}
	g := e.grant
	g.method = r.Method
	return &g, nil
}
