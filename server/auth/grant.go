package auth

import (
	"net/http"
	"strings"

	"github.com/tstable/tstable/odata"
)

// sasKind tells which SAS, if any, a Grant comes from.
type sasKind int

const (
	sasNone    sasKind = iota // the account key (SharedKey, SharedKeyLite) or a bearer token: everything
	sasAccount                // an account SAS: by resource type and permission
	sasTable                  // a table SAS: one table's entities, by permission and key range
)

// Grant is what an authorized request may do. A Grant from the account key
// or a bearer token allows everything; one from a SAS allows what the SAS
// grants. It is made for one request (it knows its method and comp) and
// is safe for concurrent use.
type Grant struct {
	credential string // "SharedKey", "SharedKeyLite", "Bearer", "account SAS", "table SAS"
	method     string // the request's method
	comp       string // the request's comp parameter (acl, properties, stats)

	sas           sasKind
	permissions   string // sp
	resourceTypes string // srt (account SAS)
	table         string // tn (table SAS)

	startPK, startRK, endPK, endRK string // spk, srk, epk, erk (table SAS)
}

// Credential names what authenticated the request: "SharedKey",
// "SharedKeyLite", "Bearer", "account SAS" or "table SAS".
func (g *Grant) Credential() string {
	if g == nil {
		return ""
	}
	return g.credential
}

// Allows reports whether the request may perform op on table ("" for the
// table-level operations OpQueryTables and OpServiceProperties) at the
// keys pk, rk (both "" when the operation is not on one entity). For an
// entity written under a table SAS with a key range, pass its keys: they
// are checked against the range. OpRead with no keys is a query, allowed
// whatever the range; narrow it with KeyRange. An upsert needs both OpAdd
// and OpUpdate. Check says why an operation is refused.
func (g *Grant) Allows(op Op, table, pk, rk string) bool {
	return g.Check(op, table, pk, rk) == nil
}

// Check is Allows with the reason: nil when op is allowed, else the coded
// error the service answers with (403 AuthorizationPermissionMismatch,
// AuthorizationResourceTypeMismatch or AuthorizationFailure) and a message
// that says what the credential would need.
func (g *Grant) Check(op Op, table, pk, rk string) error {
	if g == nil {
		return errorf(odata.CodeAuthorizationFailure, "the request was not authorized")
	}
	if op < OpQueryTables || op > OpServiceProperties {
		return errorf(odata.CodeAuthorizationFailure, "operation %d is not one this server grants", int(op))
	}
	switch g.sas {
	case sasNone:
		return nil
	case sasAccount:
		return g.checkAccountSAS(op)
	default:
		return g.checkTableSAS(op, table, pk, rk)
	}
}

// accountSASNeeds is, per operation, the resource type (srt) an account SAS
// needs and the permissions (sp) of which it needs one, as the service
// documents them for the table service. OpServiceProperties is read (r)
// for GET and HEAD, write (w) otherwise.
var accountSASNeeds = [...]struct{ resource, anyOf string }{
	OpQueryTables:       {"c", "l"},
	OpCreateTable:       {"c", "acw"},
	OpDeleteTable:       {"c", "d"},
	OpRead:              {"o", "r"},
	OpAdd:               {"o", "a"},
	OpUpdate:            {"o", "u"},
	OpDelete:            {"o", "d"},
	OpServiceProperties: {"s", "r"},
}

var resourceNames = map[string]string{"s": "service (s)", "c": "container (c)", "o": "object (o)"}

func (g *Grant) checkAccountSAS(op Op) error {
	if g.comp == "acl" {
		return errorf(odata.CodeAuthorizationPermissionMismatch,
			"an account SAS cannot read or set a table's access policy (?comp=acl): use the account key")
	}
	need := accountSASNeeds[op]
	if op == OpServiceProperties && g.method != http.MethodGet && g.method != http.MethodHead {
		need.anyOf = "w"
	}
	if !strings.Contains(g.resourceTypes, need.resource) {
		return errorf(odata.CodeAuthorizationResourceTypeMismatch,
			"the account SAS's resource types srt=%s do not include %s, which %s needs: sign it with srt containing %s",
			g.resourceTypes, resourceNames[need.resource], op, need.resource)
	}
	if !strings.ContainsAny(g.permissions, need.anyOf) {
		return errorf(odata.CodeAuthorizationPermissionMismatch,
			"the account SAS's permissions sp=%s lack what %s needs (one of %q): sign it with that permission",
			g.permissions, op, need.anyOf)
	}
	return nil
}

// tableSASNeeds is the permission (sp) a table SAS needs per operation on
// its table's entities.
var tableSASNeeds = map[Op]string{OpRead: "r", OpAdd: "a", OpUpdate: "u", OpDelete: "d"}

func (g *Grant) checkTableSAS(op Op, table, pk, rk string) error {
	need, ok := tableSASNeeds[op]
	if !ok || g.comp == "acl" {
		what := op.String()
		if g.comp == "acl" {
			what = "reading or setting a table's access policy"
		}
		return errorf(odata.CodeAuthorizationFailure,
			"a table SAS grants access to the entities of table %s only, not %s: use an account SAS or the account key", g.table, what)
	}
	if !strings.EqualFold(table, g.table) {
		return errorf(odata.CodeAuthorizationFailure,
			"the table SAS is for table %q, not %.64q: sign a SAS for that table, or use an account SAS", g.table, table)
	}
	if !strings.Contains(g.permissions, need) {
		return errorf(odata.CodeAuthorizationPermissionMismatch,
			"the table SAS's permissions sp=%s lack %q, which %s needs: sign it with that permission", g.permissions, need, op)
	}
	if op == OpRead && pk == "" && rk == "" {
		return nil
	}
	if !g.InRange(pk, rk) {
		return errorf(odata.CodeAuthorizationFailure,
			"the entity (PartitionKey %.64q, RowKey %.64q) lies outside the table SAS's key range %s: sign a SAS whose range covers it",
			pk, rk, g.describeRange())
	}
	return nil
}

// InRange reports whether the entity (pk, rk) lies in the key range of a
// table SAS; it is true when the Grant has no range. Allows checks it for
// every entity operation but a read without keys (a query), so a point
// read of the entity whose keys are both empty needs InRange as well.
func (g *Grant) InRange(pk, rk string) bool {
	r, ok := g.ODataRange()
	return !ok || r.Contains(odata.Key{PartitionKey: pk, RowKey: rk})
}

// KeyRange returns the key range a table SAS limits the request to: its
// start partition and row keys (spk, srk) and end partition and row keys
// (epk, erk), each inclusive. An empty start or end partition key leaves
// that end open; an empty row key with its partition key set starts at
// the partition's first entity or ends at its last. ok is false when
// there is no limit. ODataRange gives the same range as an odata.KeyRange.
func (g *Grant) KeyRange() (startPK, startRK, endPK, endRK string, ok bool) {
	if g == nil || g.sas != sasTable {
		return "", "", "", "", false
	}
	ok = g.startPK != "" || g.endPK != ""
	return g.startPK, g.startRK, g.endPK, g.endRK, ok
}

// ODataRange is KeyRange as the odata package's KeyRange, which a query's
// own range can be intersected with; ok is false when there is no limit
// (and the range is the whole table).
func (g *Grant) ODataRange() (r odata.KeyRange, ok bool) {
	spk, srk, epk, erk, ok := g.KeyRange()
	if !ok {
		return odata.FullRange(), false
	}
	if spk != "" {
		r.Lower = &odata.Bound{PartitionKey: spk, RowKey: srk, HasRowKey: srk != "", Inclusive: true}
	}
	if epk != "" {
		r.Upper = &odata.Bound{PartitionKey: epk, RowKey: erk, HasRowKey: erk != "", Inclusive: true}
	}
	return r, true
}

// describeRange renders the table SAS's range for messages.
func (g *Grant) describeRange() string {
	end := func(pk, rk, open string) string {
		switch {
		case pk == "":
			return open
		case rk == "":
			return "partition " + quote(pk)
		}
		return "(" + quote(pk) + ", " + quote(rk) + ")"
	}
	return "from " + end(g.startPK, g.startRK, "the start of the table") + " to " + end(g.endPK, g.endRK, "the end of the table")
}

// quote quotes a key for a message, cut to its first 64 characters.
func quote(s string) string {
	if r := []rune(s); len(r) > 64 {
		s = string(r[:64]) + "…"
	}
	return "'" + s + "'"
}
