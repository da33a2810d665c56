package auth

import (
	"context"
	cryptotls "crypto/tls"
	"encoding/base64"
	"encoding/json"
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

// fixedToken is an azcore.TokenCredential that hands out one token.
type fixedToken string

func (f fixedToken) GetToken(context.Context, policy.TokenRequestOptions) (azcore.AccessToken, error) {
	return azcore.AccessToken{Token: string(f), ExpiresOn: time.Now().Add(time.Hour)}, nil
}

func TestSDKBearer(t *testing.T) {
	ctx := context.Background()
	f := newFakeService(t)
	srv := f.start(true)
	now := time.Now()
	client := func(tok string) *aztables.ServiceClient {
		c, err := aztables.NewServiceClient(accountURL(srv)+"/", fixedToken(tok), clientOptions(srv))
		if err != nil {
			t.Fatal(err)
		}
		return c
	}
	good := makeJWT(map[string]any{"aud": "https://storage.azure.com", "iss": "https://sts.windows.net/tenant/",
		"iat": now.Add(-time.Minute).Unix(), "nbf": now.Add(-time.Minute).Unix(), "exp": now.Add(time.Hour).Unix()})
	c := client(good)
	_, err := c.CreateTable(ctx, "Orders", nil)
	wantAllowed(t, f, err, "Bearer")
	if o := f.last(); o.scheme != "Bearer" {
		t.Fatalf("the SDK sent %q", o.scheme)
	}
	_, err = c.NewClient("Orders").AddEntity(ctx, []byte(`{"PartitionKey":"a","RowKey":"b"}`), nil)
	wantAllowed(t, f, err, "Bearer")
	_, err = c.GetProperties(ctx, nil)
	wantAllowed(t, f, err, "Bearer")

	expired := makeJWT(map[string]any{"nbf": now.Add(-2 * time.Hour).Unix(), "exp": now.Add(-time.Hour).Unix()})
	_, err = client(expired).CreateTable(ctx, "Orders", nil)
	wantRefused(t, f, err, "AuthenticationFailed")
	if o := f.last(); !strings.Contains(o.message, "expired") {
		t.Errorf("expired: %q", o.message)
	}
	early := makeJWT(map[string]any{"nbf": now.Add(time.Hour).Unix(), "exp": now.Add(2 * time.Hour).Unix()})
	_, err = client(early).CreateTable(ctx, "Orders", nil)
	wantRefused(t, f, err, "AuthenticationFailed")
	_, err = client("not-a-jwt").CreateTable(ctx, "Orders", nil)
	wantRefused(t, f, err, "AuthenticationFailed")
	if o := f.last(); !strings.Contains(o.message, "not a well-formed JWT") {
		t.Errorf("malformed: %q", o.message)
	}
}

func TestBearerForms(t *testing.T) {
	now := time.Now()
	v := New(WellKnownAccount, testKey)
	b64 := base64.RawURLEncoding.EncodeToString
	for _, c := range []struct {
		name, header string
		tls, ok      bool
	}{
		{"minimal", "Bearer " + makeJWT(map[string]any{}), true, true},
		{"lowercase scheme", "bearer " + makeJWT(map[string]any{"exp": now.Add(time.Minute).Unix()}), true, true},
		{"over HTTP", "Bearer " + makeJWT(map[string]any{}), false, false},
		{"empty", "Bearer ", true, false},
		{"two parts", "Bearer " + b64([]byte(`{"alg":"none"}`)) + "." + b64([]byte(`{}`)), true, false},
		{"no alg", "Bearer " + b64([]byte(`{"typ":"JWT"}`)) + "." + b64([]byte(`{}`)) + ".c2ln", true, false},
		{"header not JSON", "Bearer " + b64([]byte(`alg`)) + "." + b64([]byte(`{}`)) + ".c2ln", true, false},
		{"payload an array", "Bearer " + b64([]byte(`{"alg":"RS256"}`)) + "." + b64([]byte(`[]`)) + ".c2ln", true, false},
		{"payload null", "Bearer " + b64([]byte(`{"alg":"RS256"}`)) + "." + b64([]byte(`null`)) + ".c2ln", true, false},
		{"signature not base64url", "Bearer " + b64([]byte(`{"alg":"RS256"}`)) + "." + b64([]byte(`{}`)) + ".!!", true, false},
		{"expired a second ago", "Bearer " + makeJWT(map[string]any{"exp": now.Add(-time.Second).Unix()}), true, false},
	} {
		r := httptest.NewRequest("GET", "/devstoreaccount1/Tables", nil)
		r.TLS = nil
		if c.tls {
			r.TLS = &cryptotls.ConnectionState{}
		}
		r.Header.Set("Authorization", c.header)
		g, err := v.Authorize(r, now)
		if c.ok != (err == nil) || (err != nil && codeOf(err) != "AuthenticationFailed") {
			t.Errorf("%s: %v", c.name, err)
		}
		if c.ok && !g.Allows(OpDeleteTable, "Orders", "", "") {
			t.Errorf("%s: a bearer grant does not allow everything", c.name)
		}
		if c.name == "over HTTP" && (err == nil || !strings.Contains(err.Error(), "HTTPS only")) {
			t.Errorf("over HTTP: %v", err)
		}
	}
}
