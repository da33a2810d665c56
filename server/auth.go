package server

import "net/http"

// Op is what a request asks to do, as an Authorizer judges it. The values
// mirror the operations a shared access signature grants.
type Op int

// The operations of the table service, as an authorizer sees them.
const (
	OpQueryTables       Op = iota + 1 // list the tables
	OpCreateTable                     // create a table
	OpDeleteTable                     // delete a table
	OpRead                            // get or query entities, read a table's ACL
	OpAdd                             // insert (and the insert half of an upsert)
	OpUpdate                          // replace or merge (and the update half of an upsert)
	OpDelete                          // delete an entity
	OpServiceProperties               // read or set the service's properties, ACLs and stats
)

var opNames = map[Op]string{
	OpQueryTables: "query tables", OpCreateTable: "create table", OpDeleteTable: "delete table",
	OpRead: "read", OpAdd: "add", OpUpdate: "update", OpDelete: "delete", OpServiceProperties: "service properties",
}

// String names the operation for messages.
func (o Op) String() string { return opNames[o] }

// Grant is what an authorized request may do.
type Grant interface {
	// Allows reports whether the request may perform op on table (""
	// for service-level operations) and, for an entity, at the keys pk, rk
	// ("" when the operation does not name one entity).
	Allows(op Op, table, pk, rk string) bool
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

func (allowAll) Allows(Op, string, string, string) bool           { return true }
func (allowAll) KeyRange() (string, string, string, string, bool) { return "", "", "", "", false }
