package auth

import (
	"net/http"
	"net/url"
	"strings"
	"testing"
	"time"
)

// FuzzAuthorize feeds arbitrary Authorization headers, query strings
// (SAS tokens among them), paths, dates and client addresses to Authorize
// and what it grants: nothing may panic, a refusal is always a coded 4xx,
// and a grant is always usable.
func FuzzAuthorize(f *testing.F) {
	now := time.Date(2024, 6, 1, 0, 0, 0, 0, time.UTC)
	date := now.Format(http.TimeFormat)
	f.Add("GET", "/devstoreaccount1/Tables", "", "SharedKeyLite devstoreaccount1:AKXIbHlEVjVwihp+m+i3ivOgvqG9FcrLBqVbqs4WlE8=", date, "127.0.0.1:1", "Orders", "a", "b")
	f.Add("GET", "/devstoreaccount1/Tables", "", "SharedKey devstoreaccount1:", date, "127.0.0.1:1", "", "", "")
	f.Add("GET", "/devstoreaccount1/Tables", "", "Bearer a.b.c", date, "[::1]:1", "", "", "")
	f.Add("GET", "/devstoreaccount1/Tables", "", "Bearer "+makeJWT(map[string]any{"exp": 1e300, "nbf": -1e300}), date, "[::1]:1", "", "", "")
	f.Add("GET", "/devstoreaccount1/Orders()", accountSAS(testKey, "2019-02-02", "t", "sco", "rl", "2024-05-01", "2024-07-01", "10.0.0.1-10.0.0.9", "https,http", ""), "", "", "10.0.0.2:5", "Orders", "", "")
	f.Add("GET", "/devstoreaccount1/Orders()", accountSAS(testKey, "2021-06-08", "t", "sco", "rl", "", "2024-07-01T00:00:00.1234567Z", "::1-::2", "https", "scope"), "", "", "[::1]:5", "Orders", "", "")
	f.Add("POST", "/devstoreaccount1/Orders", tableSAS(testKey, "Orders", "raud", "", "2024-07-01", "", "b", "2", "d", "5"), "", "", "1.2.3.4:5", "orders", "c", "x")
	f.Add("POST", "/devstoreaccount1/Orders", "sv=2019-02-02&tn=x&sig=%zz&sp=r&se=2024", "", "", "bad", "x", "", "")
	f.Add("GET", "/", "sig", "", "", "", "", "", "")
	f.Fuzz(func(t *testing.T, method, path, rawQuery, authz, xmsdate, remote, table, pk, rk string) {
		r := &http.Request{
			Method:     method,
			URL:        &url.URL{Path: path, RawQuery: rawQuery},
			RequestURI: path + "?" + rawQuery,
			Header:     http.Header{},
			RemoteAddr: remote,
		}
		if authz != "" {
			r.Header.Set("Authorization", authz)
		}
		if xmsdate != "" {
			r.Header.Set("x-ms-date", xmsdate)
		}
		g, err := New(WellKnownAccount, testKey).Authorize(r, now)
		if err != nil {
			if s := statusOfErr(err); codeOf(err) == "" || s < 400 || s > 499 {
				t.Fatalf("uncoded refusal %v (status %d)", err, s)
			}
			return
		}
		if g.Credential() == "" {
			t.Fatal("a grant without a credential")
		}
		for _, op := range allOps {
			if err := g.Check(op, table, pk, rk); err != nil && statusOfErr(err) != 403 {
				t.Fatalf("check refused with %v", err)
			}
		}
		g.KeyRange()
		g.ODataRange()
		g.InRange(pk, rk)
	})
}

// FuzzBearer feeds arbitrary bearer tokens (JWTs and not), service
// versions and hosts to a Verifier taking Entra ID tokens: nothing may
// panic; a refusal is a coded 401 or 403, a 401 carries a challenge that
// fits in one header line; a token taken parses, has not expired and
// names a storage audience and an Entra ID issuer.
func FuzzBearer(f *testing.F) {
	now := time.Date(2024, 6, 1, 0, 0, 0, 0, time.UTC)
	f.Add(makeJWT(entraClaims(now, nil)), "2019-02-02", "127.0.0.1:10002")
	f.Add(makeJWT(entraClaims(now, map[string]any{"exp": 1e300, "nbf": -1e300})), "2020-12-06", "[::1]:1")
	f.Add(makeJWT(entraClaims(now, map[string]any{"aud": []any{"x", 1}})), "2020-12-06", "localhost")
	f.Add(makeJWT(entraClaims(now, map[string]any{"exp": "x", "tid": "a\r\nb"})), "2020-12-06", "")
	f.Add("a.b.c", "2017-11-09", "h")
	f.Add("eyJhbGciOiJub25lIn0.e30.", "1999-01-01", "h")
	v := New(WellKnownAccount, testKey)
	v.SetOAuth(OAuthBasic)
	f.Fuzz(func(t *testing.T, token, version, host string) {
		r := bearerRequest("Bearer "+token, version, true)
		r.Host = host
		g, err := v.Authorize(r, now)
		if err != nil {
			if s := statusOfErr(err); codeOf(err) == "" || (s != 401 && s != 403) {
				t.Fatalf("refusal %v with status %d", err, s)
			}
			if ce, ok := err.(*ChallengeError); ok && strings.ContainsAny(ce.Challenge, "\r\n\"") {
				t.Fatalf("challenge %q", ce.Challenge)
			}
			return
		}
		claims, perr := parseJWT(strings.TrimSpace(token))
		if perr != nil || g.Credential() != "Bearer" || claims.Expires == nil || now.After(claims.Expires.t.Add(tokenClockSkew)) ||
			!v.isStorageAudience(claims.Audience, host) || tenantOfIssuer(claims.Issuer) == "" {
			t.Fatalf("took %q: %+v, %v", token, claims, perr)
		}
	})
}
