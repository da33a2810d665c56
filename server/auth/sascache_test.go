package auth

import (
	cryptotls "crypto/tls"
	"fmt"
	"net/http/httptest"
	"reflect"
	"testing"
	"time"
)

// A SAS query string verified once is kept, and each later request with
// it gets what a Verifier that never saw it gives: the same grant (with
// the request's own method), and the same refusal when the clock has
// passed its expiry or not reached its start, the protocol is not the
// one it names, or the source address is outside its range.
func TestAKeptSASAnswersAsAFreshOne(t *testing.T) {
	const st, se = "2024-05-01T00:00:00Z", "2024-07-01T00:00:00Z"
	queries := []string{
		"/devstoreaccount1/Tables?" + accountSAS(testKey, "2019-02-02", "t", "sco", "rl", st, se, "", "", ""),
		"/devstoreaccount1/Tables?" + accountSAS(testKey, "2019-02-02", "t", "c", "l", "", se, "10.0.0.1-10.0.0.9", "https", ""),
		"/devstoreaccount1/Orders(PartitionKey='b',RowKey='1')?" + tableSAS(testKey, "Orders", "r", st, se, "", "b", "", "b", ""),
		"/devstoreaccount1/Orders()?" + tableSAS(testKey, "Orders", "raud", "", se, "", "", "", "", "") + "&$filter=PartitionKey%20eq%20'b'",
	}
	type request struct {
		method, remote string
		tls            bool
		now            time.Time
	}
	var requests []request
	for _, now := range []time.Time{
		time.Date(2024, 6, 1, 0, 0, 0, 0, time.UTC),  // within every window
		time.Date(2024, 4, 1, 0, 0, 0, 0, time.UTC),  // before the starts
		time.Date(2024, 7, 2, 0, 0, 0, 0, time.UTC),  // past the expiries
		time.Date(2024, 6, 30, 0, 0, 0, 0, time.UTC), // within again
	} {
		for _, remote := range []string{"10.0.0.5:1234", "10.0.1.5:1234"} {
			for _, tls := range []bool{true, false} {
				for _, method := range []string{"GET", "POST"} {
					requests = append(requests, request{method, remote, tls, now})
				}
			}
		}
	}
	kept := New(WellKnownAccount, testKey)
	for _, q := range queries {
		for i, rq := range requests {
			r := httptest.NewRequest(rq.method, q, nil)
			r.RemoteAddr = rq.remote
			r.TLS = nil
			if rq.tls {
				r.TLS = &cryptotls.ConnectionState{}
			}
			fresh, ferr := New(WellKnownAccount, testKey).Authorize(r, rq.now)
			got, err := kept.Authorize(r, rq.now)
			if fmt.Sprint(err) != fmt.Sprint(ferr) || !reflect.DeepEqual(got, fresh) {
				t.Errorf("%s, request %d %+v: kept %+v %v; fresh %+v %v", q, i, rq, got, err, fresh, ferr)
			}
		}
	}
	if n := len(kept.sases.m); n != len(queries) {
		t.Errorf("%d query strings kept, want the %d verified", n, len(queries))
	}
}

// A SAS that names a stored access policy is verified afresh each time,
// since the policy can change; a SAS that does not verify is never kept.
func TestSASKeptOnlyWhenVerifiedWithoutAPolicy(t *testing.T) {
	v := New(WellKnownAccount, testKey)
	now := time.Date(2024, 6, 1, 0, 0, 0, 0, time.UTC)
	for _, q := range []string{
		"/devstoreaccount1/Orders()?" + tableSAS(testKey, "Orders", "", "", "", "policy1", "", "", "", ""),
		"/devstoreaccount1/Tables?" + accountSAS(mustKey(otherKey), "2019-02-02", "t", "sco", "rl", "", "2024-07-01", "", "", ""),
	} {
		r := httptest.NewRequest("GET", q, nil)
		if _, err := v.Authorize(r, now); err == nil {
			t.Errorf("%s: allowed", q)
		}
	}
	if len(v.sases.m) != 0 {
		t.Errorf("kept %d query strings", len(v.sases.m))
	}
}
