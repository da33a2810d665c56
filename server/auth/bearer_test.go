package auth

import (
	"context"
	cryptotls "crypto/tls"
	"encoding/base64"
	"encoding/json"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
	"time"

	"github.com/Azure/azure-sdk-for-go/sdk/azcore"
	"github.com/Azure/azure-sdk-for-go/sdk/azcore/policy"
	"github.com/Azure/azure-sdk-for-go/sdk/data/aztables"
)

// makeJWT builds an unsigned-looking but well-formed compact JWT.
func makeJWT(claims map[string]any) string {
	enc := func(v any) string {
		b, _ := json.Marshal(v)
		return base64.RawURLEncoding.EncodeToString(b)
	}
	return enc(map[string]any{"alg": "RS256", "typ": "JWT"}) + "." + enc(claims) + "." + base64.RawURLEncoding.EncodeToString([]byte("signature"))
}

// testTenant is the tenant of the tokens the tests mint.
const testTenant = "72f988bf-86f1-41af-91ab-2d7cd011db47"

// entraClaims are the claims of an Entra ID v1 access token for storage,
// valid from an hour before now to an hour after, with more or other
// claims from over (a nil value removes the claim).
func entraClaims(now time.Time, over map[string]any) map[string]any {
	c := map[string]any{
		"aud": "https://storage.azure.com", "iss": "https://sts.windows.net/" + testTenant + "/", "tid": testTenant,
		"iat": now.Add(-time.Hour).Unix(), "nbf": now.Add(-time.Hour).Unix(), "exp": now.Add(time.Hour).Unix(),
	}
	for k, v := range over {
		if v == nil {
			delete(c, k)
		} else {
			c[k] = v
		}
	}
	return c
}

// fixedToken is an azcore.TokenCredential that hands out one token.
type fixedToken string

func (f fixedToken) GetToken(context.Context, policy.TokenRequestOptions) (azcore.AccessToken, error) {
	return azcore.AccessToken{Token: string(f), ExpiresOn: time.Now().Add(time.Hour)}, nil
}

// The Go SDK with a token credential, as an app written for Entra ID
// builds its client: a storage token works for tables, entities and the
// service; an expired one, one for another audience or from another
// issuer is refused with the service's 403 AuthenticationFailed (the SDK
// sends version 2019-02-02).
func TestSDKBearer(t *testing.T) {
	ctx := context.Background()
	f := newFakeService(t)
	f.v.SetOAuth(OAuthBasic)
	srv := f.start(true)
	now := time.Now()
	client := func(claims map[string]any) *aztables.ServiceClient {
		c, err := aztables.NewServiceClient(accountURL(srv)+"/", fixedToken(makeJWT(claims)), clientOptions(srv))
		if err != nil {
			t.Fatal(err)
		}
		return c
	}
	c := client(entraClaims(now, nil))
	_, err := c.CreateTable(ctx, "Orders", nil)
	wantAllowed(t, f, err, "Bearer")
	_, err = c.NewClient("Orders").AddEntity(ctx, []byte(`{"PartitionKey":"a","RowKey":"b"}`), nil)
	wantAllowed(t, f, err, "Bearer")
	_, err = c.GetProperties(ctx, nil)
	wantAllowed(t, f, err, "Bearer")

	for _, bad := range []struct {
		name   string
		claims map[string]any
		detail string
	}{
		{"expired", entraClaims(now, map[string]any{"exp": now.Add(-time.Hour).Unix()}), "Lifetime validation failed. The token is expired"},
		{"not yet valid", entraClaims(now, map[string]any{"nbf": now.Add(time.Hour).Unix()}), "Lifetime validation failed. The token is not yet valid"},
		{"another audience", entraClaims(now, map[string]any{"aud": "https://vault.azure.net"}), "Audience validation failed. Audience did not match"},
		{"another account", entraClaims(now, map[string]any{"aud": "https://someoneelse.table.core.windows.net"}), "Audience validation failed"},
		{"another issuer", entraClaims(now, map[string]any{"iss": "https://accounts.google.com"}), "Issuer validation failed. Issuer did not match"},
	} {
		_, err = client(bad.claims).CreateTable(ctx, "Orders", nil)
		wantRefused(t, f, err, "AuthenticationFailed")
		if o := f.last(); o.status != 403 || !strings.Contains(o.message, bad.detail) {
			t.Errorf("%s: %d %q", bad.name, o.status, o.message)
		}
	}
}

// bearerRequest is a request to list tables with the given Authorization
// header and x-ms-version, over TLS or not.
func bearerRequest(authz, version string, tls bool) *http.Request {
	r := httptest.NewRequest("GET", "/devstoreaccount1/Tables", nil)
	r.Host = "127.0.0.1:10002"
	r.TLS = nil
	if tls {
		r.TLS = &cryptotls.ConnectionState{}
	}
	r.Header.Set("Authorization", authz)
	if version != "" {
		r.Header.Set("x-ms-version", version)
	}
	return r
}

// What --oauth basic takes and refuses, claim by claim, at the edges of
// the service's five minutes of clock skew.
func TestBearerClaims(t *testing.T) {
	now := time.Date(2024, 6, 1, 12, 0, 0, 0, time.UTC)
	v := New(WellKnownAccount, testKey)
	v.SetOAuth(OAuthBasic)
	b64 := base64.RawURLEncoding.EncodeToString
	skew := 5 * time.Minute
	for _, c := range []struct {
		name   string
		token  string
		detail string // "" when the token is taken
	}{
		{"v1 token", makeJWT(entraClaims(now, nil)), ""},
		{"v2 token", makeJWT(entraClaims(now, map[string]any{"iss": "https://login.microsoftonline.com/" + testTenant + "/v2.0"})), ""},
		{"China cloud issuer", makeJWT(entraClaims(now, map[string]any{"iss": "https://sts.chinacloudapi.cn/" + testTenant + "/"})), ""},
		{"audience with slash", makeJWT(entraClaims(now, map[string]any{"aud": "https://storage.azure.com/"})), ""},
		{"audience the storage app id", makeJWT(entraClaims(now, map[string]any{"aud": "e406a681-f3d4-42a8-90b6-c2b029497af1"})), ""},
		{"audience the account's endpoint", makeJWT(entraClaims(now, map[string]any{"aud": "https://devstoreaccount1.table.core.windows.net/"})), ""},
		{"audience this server's account URL", makeJWT(entraClaims(now, map[string]any{"aud": "https://127.0.0.1:10002/devstoreaccount1"})), ""},
		{"audiences as an array", makeJWT(entraClaims(now, map[string]any{"aud": []string{"https://graph.microsoft.com", "https://storage.azure.com"}})), ""},
		{"fractional times", makeJWT(entraClaims(now, map[string]any{"exp": float64(now.Unix()) + 0.5})), ""},
		{"no nbf", makeJWT(entraClaims(now, map[string]any{"nbf": nil})), ""},
		{"expired within the skew", makeJWT(entraClaims(now, map[string]any{"exp": now.Add(-skew + time.Second).Unix()})), ""},
		{"expired past the skew", makeJWT(entraClaims(now, map[string]any{"exp": now.Add(-skew - time.Second).Unix()})), "The token is expired"},
		{"not yet valid within the skew", makeJWT(entraClaims(now, map[string]any{"nbf": now.Add(skew - time.Second).Unix()})), ""},
		{"not yet valid past the skew", makeJWT(entraClaims(now, map[string]any{"nbf": now.Add(skew + time.Second).Unix()})), "The token is not yet valid"},
		{"no exp", makeJWT(entraClaims(now, map[string]any{"exp": nil})), "missing an Expiration Time"},
		{"exp not a number", makeJWT(entraClaims(now, map[string]any{"exp": "soon"})), "not a number of seconds"},
		{"exp out of range", makeJWT(entraClaims(now, map[string]any{"exp": -1e300})), "The token is expired"},
		{"no audience", makeJWT(entraClaims(now, map[string]any{"aud": nil})), "Audience validation failed"},
		{"audience a number", makeJWT(entraClaims(now, map[string]any{"aud": 7})), "neither a string nor an array"},
		{"another account's endpoint", makeJWT(entraClaims(now, map[string]any{"aud": "https://other.table.core.windows.net"})), "Audience validation failed"},
		{"the blob endpoint", makeJWT(entraClaims(now, map[string]any{"aud": "https://devstoreaccount1.blob.core.windows.net"})), "Audience validation failed"},
		{"another host's account URL", makeJWT(entraClaims(now, map[string]any{"aud": "https://example.com/devstoreaccount1"})), "Audience validation failed"},
		{"no issuer", makeJWT(entraClaims(now, map[string]any{"iss": nil})), "Issuer validation failed"},
		{"issuer without tenant", makeJWT(entraClaims(now, map[string]any{"iss": "https://sts.windows.net/"})), "Issuer validation failed"},
		{"v2 issuer without v2.0", makeJWT(entraClaims(now, map[string]any{"iss": "https://login.microsoftonline.com/" + testTenant + "/"})), "Issuer validation failed"},
		{"issuer over http", makeJWT(entraClaims(now, map[string]any{"iss": "http://sts.windows.net/" + testTenant + "/"})), "Issuer validation failed"},
		{"look-alike issuer host", makeJWT(entraClaims(now, map[string]any{"iss": "https://sts.windows.net.example.com/" + testTenant + "/"})), "Issuer validation failed"},
		{"empty", "", "not a well-formed JWT"},
		{"two parts", b64([]byte(`{"alg":"none"}`)) + "." + b64([]byte(`{}`)), "2 dot-separated parts"},
		{"no alg", b64([]byte(`{"typ":"JWT"}`)) + "." + b64([]byte(`{}`)) + ".c2ln", "names no algorithm"},
		{"header not JSON", b64([]byte(`alg`)) + "." + b64([]byte(`{}`)) + ".c2ln", "header is not a JSON object"},
		{"payload an array", b64([]byte(`{"alg":"RS256"}`)) + "." + b64([]byte(`[]`)) + ".c2ln", "payload is not a JSON object"},
		{"payload not base64url", b64([]byte(`{"alg":"RS256"}`)) + ".*.c2ln", "payload is not base64url"},
		{"signature not base64url", b64([]byte(`{"alg":"RS256"}`)) + "." + b64([]byte(`{}`)) + ".!!", "signature is not base64url"},
		{"too long", strings.Repeat("a", 17<<10), "longer than"},
	} {
		g, err := v.Authorize(bearerRequest("Bearer "+c.token, "2019-02-02", true), now)
		switch {
		case c.detail == "" && err != nil:
			t.Errorf("%s: refused: %v", c.name, err)
		case c.detail == "" && !g.Allows(OpDeleteTable, "Orders", "", ""):
			t.Errorf("%s: a bearer grant does not allow everything", c.name)
		case c.detail != "" && (err == nil || codeOf(err) != "AuthenticationFailed" || statusOfErr(err) != 403 || !strings.Contains(err.Error(), c.detail)):
			t.Errorf("%s: got %v, want 403 AuthenticationFailed saying %q", c.name, err, c.detail)
		}
	}
}

// Bearer tokens are refused without --oauth basic, over plain HTTP, and
// with a service version that predates them; the scheme's case does not
// matter.
func TestBearerRefusedOutright(t *testing.T) {
	now := time.Now()
	token := makeJWT(entraClaims(now, nil))
	on := New(WellKnownAccount, testKey)
	on.SetOAuth(OAuthBasic)
	off := New(WellKnownAccount, testKey)
	for _, c := range []struct {
		name     string
		v        *Verifier
		r        *http.Request
		refusal  string
		accepted bool
	}{
		{"lowercase scheme", on, bearerRequest("bearer "+token, "2019-02-02", true), "", true},
		{"without --oauth", off, bearerRequest("Bearer "+token, "2019-02-02", true), "--oauth basic", false},
		{"over HTTP", on, bearerRequest("Bearer "+token, "2019-02-02", false), "not allowed with HTTP", false},
		{"no version", on, bearerRequest("Bearer "+token, "", true), "not supported in this version", false},
		{"an old version", on, bearerRequest("Bearer "+token, "2017-07-29", true), "not supported in this version", false},
		{"the first version", on, bearerRequest("Bearer "+token, "2017-11-09", true), "", true},
	} {
		_, err := c.v.Authorize(c.r, now)
		if c.accepted != (err == nil) || (err != nil && (codeOf(err) != "AuthenticationFailed" || statusOfErr(err) != 403 || !strings.Contains(err.Error(), c.refusal))) {
			t.Errorf("%s: %v", c.name, err)
		}
	}
	if _, err := ParseOAuth("full"); err == nil {
		t.Error("--oauth full was taken")
	}
}

// From version 2019-12-12 on, the service answers a refused token 401
// InvalidAuthenticationInfo with a bearer challenge naming the tenant to
// ask (the token's) and the resource; the Azure SDKs read it to get a new
// token.
func TestBearerChallenge(t *testing.T) {
	now := time.Now()
	v := New(WellKnownAccount, testKey)
	v.SetOAuth(OAuthBasic)
	expired := map[string]any{"exp": now.Add(-time.Hour).Unix()}
	for _, c := range []struct {
		name, token, tenant string
	}{
		{"tenant from tid", makeJWT(entraClaims(now, expired)), testTenant},
		{"tenant from the issuer", makeJWT(entraClaims(now, map[string]any{"exp": now.Add(-time.Hour).Unix(), "tid": nil, "iss": "https://login.microsoftonline.com/contoso.onmicrosoft.com/v2.0"})), "contoso.onmicrosoft.com"},
		{"no tenant to name", "a.b.c", "common"},
		{"a tenant that would break the header", makeJWT(entraClaims(now, map[string]any{"exp": 1, "tid": "x\" y", "iss": nil})), "common"},
	} {
		_, err := v.Authorize(bearerRequest("Bearer "+c.token, "2020-12-06", true), now)
		ce, ok := err.(*ChallengeError)
		if !ok {
			t.Errorf("%s: %v, want a challenge", c.name, err)
			continue
		}
		want := "Bearer authorization_uri=https://login.microsoftonline.com/" + c.tenant + "/oauth2/authorize resource_id=https://storage.azure.com"
		if codeOf(err) != "InvalidAuthenticationInfo" || statusOfErr(err) != 401 || ce.HTTPHeader().Get("WWW-Authenticate") != want {
			t.Errorf("%s: %d %s %q", c.name, statusOfErr(err), codeOf(err), ce.HTTPHeader().Get("WWW-Authenticate"))
		}
	}
	// Refusals that are not about the token stay 403.
	if _, err := v.Authorize(bearerRequest("Bearer "+makeJWT(entraClaims(now, nil)), "2020-12-06", false), now); statusOfErr(err) != 403 {
		t.Errorf("over HTTP with 2020-12-06: %v", err)
	}
}
