package auth

import (
	"context"
	"strings"

	"github.com/tstable/tstable/odata"
)

// Policy is a stored access policy of a table (Set Table ACL): the start,
// expiry and permissions a table SAS naming it (si=Id) takes from it. An
// empty field is not set by the policy.
type Policy struct {
	Start, Expiry, Permission string
}

// Policies finds the stored access policy id of a table; ok is false when
// the table has none of that identifier.
type Policies func(table, id string) (p Policy, ok bool)

type policiesKey struct{}

// WithPolicies returns ctx carrying where a table SAS with si= finds its
// stored access policy; Authorize reads it from the request's context. A
// request without it refuses every SAS that names a policy.
func WithPolicies(ctx context.Context, p Policies) context.Context {
	return context.WithValue(ctx, policiesKey{}, p)
}

// sasFields are the start, expiry and permissions a SAS grants, from its
// own fields or from its stored access policy.
type sasFields struct{ start, expiry, permission string }

// applyPolicy completes a table SAS's fields from the stored access policy
// it names (si), as the service does: each of start, expiry and
// permissions is given by the SAS or by the policy, never by both.
func applyPolicy(ctx context.Context, table, si string, f sasFields) (sasFields, error) {
	find, _ := ctx.Value(policiesKey{}).(Policies)
	var p Policy
	ok := false
	if find != nil {
		p, ok = find(table, si)
	}
	if !ok {
		return f, errorf(odata.CodeAuthenticationFailed,
			"the SAS names the stored access policy si=%.64q, which table %.64q does not have: set it with Set Table ACL (?comp=acl), or sign the SAS with its own permissions and expiry", si, table)
	}
	for _, x := range []struct {
		name       string
		sas        *string
		fromPolicy string
	}{{"start (st)", &f.start, p.Start}, {"expiry (se)", &f.expiry, p.Expiry}, {"permissions (sp)", &f.permission, p.Permission}} {
		switch {
		case *x.sas != "" && x.fromPolicy != "":
			return f, errorf(odata.CodeAuthenticationFailed,
				"the SAS gives its %s, and so does its stored access policy %.64q: a SAS that names a policy leaves to it what the policy sets", x.name, si)
		case *x.sas == "":
			*x.sas = strings.TrimSpace(x.fromPolicy)
		}
	}
	return f, nil
}
