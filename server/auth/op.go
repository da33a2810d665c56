package auth

// Op is what a request asks to do, as a Grant judges it. The operations
// mirror what a shared access signature can grant.
type Op int

// The operations of the table service, as the server asks a Grant (and
// package server's Grant interface) about them.
// An upsert (insert-or-replace, insert-or-merge) is both OpAdd and OpUpdate:
// ask for both.
const (
	OpQueryTables       Op = iota + 1 // list the tables
	OpCreateTable                     // create a table
	OpDeleteTable                     // delete a table
	OpRead                            // get or query entities; get a table's ACL
	OpAdd                             // insert an entity
	OpUpdate                          // replace or merge an entity
	OpDelete                          // delete an entity
	OpServiceProperties               // get or set the service's properties, get its stats; set a table's ACL
)

var opNames = [...]string{
	OpQueryTables:       "query tables",
	OpCreateTable:       "create table",
	OpDeleteTable:       "delete table",
	OpRead:              "read entities",
	OpAdd:               "add entities",
	OpUpdate:            "update entities",
	OpDelete:            "delete entities",
	OpServiceProperties: "service properties",
}

// String names the operation for messages.
func (o Op) String() string {
	if o > 0 && int(o) < len(opNames) {
		return opNames[o]
	}
	return "unknown operation"
}
