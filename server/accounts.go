package server

import (
	"net/http"
	"net/url"
	"strings"
)

// Account is a further account a server serves beside Config's own, as
// Azurite serves those AZURITE_ACCOUNTS names: its name, its keys and who
// may call it. Its tables are its own, kept in the same file under
// NamespacePrefix(Name).
type Account struct {
	// Name is the account's name, the first segment of its paths.
	Name string
	// Key is its first base64 key, the one its connection string carries.
	Key string
	// Authorizer checks each request to the account; nil allows every
	// request.
	Authorizer Authorizer
}

// EitherKey authorizes a request that one of as authorizes: an account
// with two keys takes a request signed with either. The first's refusal is
// the answer when all refuse.
func EitherKey(as ...Authorizer) Authorizer { return eitherKey(as) }

type eitherKey []Authorizer

// Authorize implements Authorizer.
func (e eitherKey) Authorize(r *http.Request) (Grant, error) {
	var first error
	for _, a := range e {
		g, err := a.Authorize(r)
		if err == nil {
			return g, nil
		}
		if first == nil {
			first = err
		}
	}
	return nil, first
}

// accountMux sends each request to the Server of the account its path
// starts with (ACCOUNT or ACCOUNT-secondary); a path naming no account
// served goes to the first, which refuses it as it refuses any path
// outside its account.
type accountMux struct {
	first    *Server
	accounts map[string]*Server
}

// ServeHTTP implements http.Handler.
func (m accountMux) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	seg, _, _ := strings.Cut(strings.TrimPrefix(r.URL.EscapedPath(), "/"), "/")
	name, err := url.PathUnescape(seg)
	if err == nil {
		if s, ok := m.accounts[strings.TrimSuffix(name, "-secondary")]; ok {
			s.ServeHTTP(w, r)
			return
		}
	}
	m.first.ServeHTTP(w, r)
}
