package server

import (
	"net/http"

	"github.com/tstable/tstable/server/auth"
)

// Grant is what an authorized request may do.
type Grant interface {
	// Allows reports whether the request may perform op on table (""
	// for service-level operations) and, for an entity, at the keys pk, rk
	// ("" when the operation does not name one entity). The operations are
	// package auth's, which a shared access signature grants.
	Allows(op auth.Op, table, pk, rk string) bool
	// KeyRange returns the range of keys a table SAS limits the request
	// to; ok is false when there is no such limit. An empty end is open.
	KeyRange() (startPK, startRK, endPK, endRK string, ok bool)
}

// Authorizer decides who a request comes from and what it may do. An error
// is answered as it is (a coded error such as 403 AuthenticationFailed)
// and the request goes no further.
type Authorizer interface {
	Authorize(r *http.Request) (Grant, error)
}

// AllowAll is the Authorizer of tstable serve --no-auth: every request may
// do everything.
type AllowAll struct{}

// Authorize implements Authorizer.
func (AllowAll) Authorize(*http.Request) (Grant, error) { return allowAll{}, nil }

type allowAll struct{}

func (allowAll) Allows(auth.Op, string, string, string) bool      { return true }
func (allowAll) KeyRange() (string, string, string, string, bool) { return "", "", "", "", false }
