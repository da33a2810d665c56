package server

import (
	"encoding/xml"
	"net/http"
	"strings"

	"github.com/tstable/tstable/backend"
	"github.com/tstable/tstable/odata"
	"github.com/tstable/tstable/server/auth"
)

// Get/Set Table ACL: a table's stored access policies, which a table SAS
// names with si=Id.

// maxPolicies is how many stored access policies a table holds.
const maxPolicies = 5

// signedIdentifiers is the SignedIdentifiers document.
type signedIdentifiers struct {
	XMLName     xml.Name           `xml:"SignedIdentifiers"`
	Identifiers []signedIdentifier `xml:"SignedIdentifier"`
}

// signedIdentifier is one stored access policy; a policy that sets nothing
// is written without its AccessPolicy element, as the service writes it.
type signedIdentifier struct {
	ID     string        `xml:"Id"`
	Policy *accessPolicy `xml:"AccessPolicy,omitempty"`
}

// accessPolicy is an AccessPolicy element. Start and Expiry are written as
// the service writes them, with all seven fractional digits.
type accessPolicy struct {
	Start      string `xml:"Start,omitempty"`
	Expiry     string `xml:"Expiry,omitempty"`
	Permission string `xml:"Permission,omitempty"`
}

// tableACL answers GET and PUT /T?comp=acl.
func (q *request) tableACL(table string) error {
	op := auth.OpRead
	if q.r.Method == http.MethodPut {
		op = auth.OpServiceProperties
	}
	if err := q.allow(op, table, "", ""); err != nil {
		return err
	}
	if err := q.tableExists(table); err != nil {
		return err
	}
	key := strings.ToLower(table)
	switch q.r.Method {
	case http.MethodGet, http.MethodHead:
		q.s.mu.Lock()
		doc := signedIdentifiers{Identifiers: q.s.acls[key]}
		q.s.mu.Unlock()
		b, err := xml.Marshal(doc)
		if err != nil {
			return err
		}
		q.writeXML(http.StatusOK, b)
		return nil
	case http.MethodPut:
		var doc signedIdentifiers
		if err := q.readXML(&doc); err != nil {
			return err
		}
		ids, err := checkPolicies(doc.Identifiers)
		if err != nil {
			return err
		}
		q.s.mu.Lock()
		q.s.acls[key] = ids
		q.s.mu.Unlock()
		q.w.WriteHeader(http.StatusNoContent)
		return nil
	}
	return q.badVerb("a table's ACL", "GET, PUT")
}

// tableExists answers ResourceNotFound, as the service answers an ACL
// request, when the table does not exist.
func (q *request) tableExists(table string) error {
	_, err := q.s.b.Query(q.r.Context(), table, backend.QueryRequest{PageSize: 1}, func(*odata.Entity) error { return nil })
	if odata.IsCode(err, odata.CodeTableNotFound) {
		return errorf(odata.CodeResourceNotFound, "table %q does not exist", table)
	}
	return err
}

// checkPolicies checks a Set Table ACL document as the service does (at
// most five policies, each Id 1 to 64 characters, times ISO 8601, known
// permission letters) and returns the policies as they are kept: times
// with seven fractional digits, a policy that sets nothing left out.
func checkPolicies(ids []signedIdentifier) ([]signedIdentifier, error) {
	if len(ids) > maxPolicies {
		return nil, errorf(odata.CodeInvalidXMLDocument, "a table holds at most %d stored access policies; this document has %d", maxPolicies, len(ids))
	}
	out := make([]signedIdentifier, 0, len(ids))
	for _, id := range ids {
		if id.ID == "" || len(id.ID) > 64 {
			return nil, errorf(odata.CodeInvalidXMLDocument, "a signed identifier's Id must be 1 to 64 characters; %q is not", id.ID)
		}
		p, err := keptPolicy(id.ID, id.Policy)
		if err != nil {
			return nil, err
		}
		out = append(out, signedIdentifier{ID: id.ID, Policy: p})
	}
	return out, nil
}

// keptPolicy is an AccessPolicy as it is kept: nil when it sets nothing.
func keptPolicy(id string, p *accessPolicy) (*accessPolicy, error) {
	if p == nil {
		return nil, nil
	}
	kept := &accessPolicy{Permission: strings.TrimSpace(p.Permission)}
	for _, t := range []struct {
		name string
		in   string
		out  *string
	}{{"Start", p.Start, &kept.Start}, {"Expiry", p.Expiry, &kept.Expiry}} {
		if strings.TrimSpace(t.in) == "" {
			continue
		}
		at, err := auth.ParseTime(strings.TrimSpace(t.in))
		if err != nil {
			return nil, errorf(odata.CodeInvalidXMLDocument, "policy %q: %s %q is not an ISO 8601 time such as 2030-01-02T15:04:05Z", id, t.name, t.in)
		}
		*t.out = odata.FormatDateTimeFull(at)
	}
	for _, c := range kept.Permission {
		if !strings.ContainsRune("raud", c) {
			return nil, errorf(odata.CodeInvalidXMLDocument, "policy %q: permission %q has %q; a table's policy grants r, a, u and d", id, kept.Permission, c)
		}
	}
	if *kept == (accessPolicy{}) {
		return nil, nil
	}
	return kept, nil
}

// policy finds a table's stored access policy, for a SAS that names it.
func (s *Server) policy(table, id string) (auth.Policy, bool) {
	s.mu.Lock()
	defer s.mu.Unlock()
	for _, si := range s.acls[strings.ToLower(table)] {
		if si.ID == id {
			if si.Policy == nil {
				return auth.Policy{}, true
			}
			return auth.Policy{Start: si.Policy.Start, Expiry: si.Policy.Expiry, Permission: si.Policy.Permission}, true
		}
	}
	return auth.Policy{}, false
}
