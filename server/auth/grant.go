package auth

import "github.com/tstable/tstable/odata"

// Grant is what an authorized request may do. A Grant from the account key
// allows everything. It is made for one request (it knows its method and
// comp) and is safe for concurrent use.
type Grant struct {
	credential string // "SharedKey", "SharedKeyLite"
	method     string // the request's method
	comp       string // the request's comp parameter (acl, properties, stats)
}

// Credential names what authenticated the request: "SharedKey" or
// "SharedKeyLite".
func (g *Grant) Credential() string {
	if g == nil {
		return ""
	}
	return g.credential
}

// Allows reports whether the request may perform op on table ("" for the
// table-level operations OpQueryTables and OpServiceProperties) at the
// keys pk, rk (both "" when the operation is not on one entity). An upsert
// needs both OpAdd and OpUpdate. Check says why an operation is refused.
func (g *Grant) Allows(op Op, table, pk, rk string) bool {
	return g.Check(op, table, pk, rk) == nil
}

// Check is Allows with the reason: nil when op is allowed, else the coded
// error the service answers with.
func (g *Grant) Check(op Op, table, pk, rk string) error {
	if g == nil {
		return errorf(odata.CodeAuthorizationFailure, "the request was not authorized")
	}
	if op < OpQueryTables || op > OpServiceProperties {
		return errorf(odata.CodeAuthorizationFailure, "operation %d is not one this server grants", int(op))
	}
	return nil
}

// KeyRange returns the key range the request is limited to; ok is false
// when there is no limit, as there is none with the account key.
func (g *Grant) KeyRange() (startPK, startRK, endPK, endRK string, ok bool) {
	return "", "", "", "", false
}
