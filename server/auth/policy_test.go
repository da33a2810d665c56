package auth

import (
	"context"
	"net/http/httptest"
	"strings"
	"testing"
	"time"
)

// A table SAS naming a stored access policy (si) takes from it what it
// does not give itself; the policy is looked up per request, so a changed
// or removed policy changes what the SAS may do at once.
func TestTableSASWithStoredPolicy(t *testing.T) {
	now := time.Date(2024, 6, 1, 0, 0, 0, 0, time.UTC)
	policies := map[string]Policy{
		"full":    {Start: "2024-05-01T00:00:00.0000000Z", Expiry: "2024-07-01T00:00:00.0000000Z", Permission: "r"},
		"expired": {Expiry: "2024-05-01T00:00:00Z", Permission: "r"},
		"noperm":  {Expiry: "2024-07-01T00:00:00Z"},
	}
	find := func(table, id string) (Policy, bool) {
		p, ok := policies[id]
		return p, ok && strings.EqualFold(table, "Orders")
	}
	const se = "2024-07-01T00:00:00Z"
	for _, c := range []struct {
		name, query, code string
		perms             string
	}{
		{"policy gives all", tableSAS(testKey, "Orders", "", "", "", "full", "", "", "", ""), "", "r"},
		{"SAS gives permissions", tableSAS(testKey, "Orders", "ra", "", "", "noperm", "", "", "", ""), "", "ra"},
		{"expired policy", tableSAS(testKey, "Orders", "", "", "", "expired", "", "", "", ""), "AuthenticationFailed", ""},
		{"both give expiry", tableSAS(testKey, "Orders", "", "", se, "full", "", "", "", ""), "AuthenticationFailed", ""},
		{"neither gives permissions", tableSAS(testKey, "Orders", "", "", "", "noperm", "", "", "", ""), "AuthenticationFailed", ""},
		{"unknown policy", tableSAS(testKey, "Orders", "", "", "", "nope", "", "", "", ""), "AuthenticationFailed", ""},
		{"policy of another table", tableSAS(testKey, "Other", "", "", "", "full", "", "", "", ""), "AuthenticationFailed", ""},
	} {
		r := httptest.NewRequest("GET", "/devstoreaccount1/Orders()?"+c.query, nil)
		r = r.WithContext(WithPolicies(context.Background(), find))
		g, err := New(WellKnownAccount, testKey).Authorize(r, now)
		switch {
		case c.code == "" && err != nil:
			t.Errorf("%s: %v", c.name, err)
		case c.code == "" && g.permissions != c.perms:
			t.Errorf("%s: permissions %q, want %q", c.name, g.permissions, c.perms)
		case c.code != "" && codeOf(err) != c.code:
			t.Errorf("%s: %v, want %s", c.name, err, c.code)
		}
	}
	// Without the lookup, a SAS naming a policy cannot be honoured.
	_, err := authorizeQuery(t, "GET", "/devstoreaccount1/Orders()?"+tableSAS(testKey, "Orders", "", "", "", "full", "", "", "", ""), now, false, "")
	if codeOf(err) != "AuthenticationFailed" {
		t.Errorf("no policies: %v", err)
	}
}

// A SAS parameter given twice (sig twice, say) is refused, as the service
// refuses it.
func TestSASParameterTwice(t *testing.T) {
	now := time.Date(2024, 6, 1, 0, 0, 0, 0, time.UTC)
	good := tableSAS(testKey, "Orders", "r", "", "2024-07-01T00:00:00Z", "", "", "", "", "")
	if _, err := authorizeQuery(t, "GET", "/devstoreaccount1/Orders()?"+good, now, false, ""); err != nil {
		t.Fatalf("good SAS: %v", err)
	}
	sig := good[strings.Index(good, "sig="):]
	sig = sig[:strings.IndexByte(sig+"&", '&')]
	for _, q := range []string{good + "&" + sig, good + "&sp=r", good + "&tn=Orders"} {
		_, err := authorizeQuery(t, "GET", "/devstoreaccount1/Orders()?"+q, now, false, "")
		if codeOf(err) != "AuthenticationFailed" || !strings.Contains(err.Error(), "times") {
			t.Errorf("%s: %v", q, err)
		}
	}
}
