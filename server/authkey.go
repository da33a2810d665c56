package server

import (
	"net/http"
	"time"

	"github.com/tstable/tstable/odata"
	"github.com/tstable/tstable/server/auth"
)

// KeyAuthorizer authenticates requests as the service does, with the
// account's key: Shared Key and Shared Key Lite signatures, account and
// table SAS, and (over HTTPS) bearer tokens; see package auth.
func KeyAuthorizer(v *auth.Verifier) Authorizer { return keyAuthorizer{v} }

type keyAuthorizer struct{ v *auth.Verifier }

// Authorize implements Authorizer.
func (a keyAuthorizer) Authorize(r *http.Request) (Grant, error) {
	g, err := a.v.Authorize(r, time.Now())
	if err != nil {
		return nil, err
	}
	return keyGrant{g}, nil
}

// keyGrant is an auth.Grant as the server asks it.
type keyGrant struct{ g *auth.Grant }

func (k keyGrant) Allows(op auth.Op, table, pk, rk string) bool {
	return k.Check(op, table, pk, rk) == nil
}

// Check says why an operation is refused, in the service's words.
func (k keyGrant) Check(op auth.Op, table, pk, rk string) error { return k.g.Check(op, table, pk, rk) }

func (k keyGrant) KeyRange() (string, string, string, string, bool) { return k.g.KeyRange() }

// checker is a Grant that can say why it refuses.
type checker interface {
	Check(op auth.Op, table, pk, rk string) error
}

// inRange reports whether the entity (pk, rk) lies inside the grant's key
// range (true when it has none), keys in order o, for the point read a
// table SAS allows only inside its range.
func inRange(g Grant, pk, rk string, o odata.Order) bool {
	spk, srk, epk, erk, ok := g.KeyRange()
	if !ok {
		return true
	}
	k := odata.Key{PartitionKey: pk, RowKey: rk}
	return keyRangeOf(spk, srk, epk, erk).ContainsIn(k, o)
}

// keyRangeOf is a SAS key range as an odata.KeyRange: each end inclusive;
// an empty PartitionKey leaves its end open, an empty RowKey covers its
// partition from its first or to its last entity.
func keyRangeOf(spk, srk, epk, erk string) odata.KeyRange {
	var r odata.KeyRange
	if spk != "" {
		r.Lower = &odata.Bound{PartitionKey: spk, RowKey: srk, HasRowKey: srk != "", Inclusive: true}
	}
	if epk != "" {
		r.Upper = &odata.Bound{PartitionKey: epk, RowKey: erk, HasRowKey: erk != "", Inclusive: true}
	}
	return r
}
