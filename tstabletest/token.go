package tstabletest

import (
	"context"
	"crypto/rand"
	"encoding/base64"
	"encoding/json"
	"time"

	"github.com/Azure/azure-sdk-for-go/sdk/azcore"
	"github.com/Azure/azure-sdk-for-go/sdk/azcore/policy"
)

// TestTenant is the tenant the tokens of a zero TokenCredential name.
const TestTenant = "00000000-0000-0000-0000-00000000e5e5"

// TokenCredential is an azcore.TokenCredential that mints access tokens
// shaped as Microsoft Entra ID issues them for Azure Storage (a v1 JWT:
// aud https://storage.azure.com, iss https://sts.windows.net/TENANT/, tid,
// iat, nbf, exp), so that an application's client is built in its tests
// exactly as in production, with a TokenCredential. The tokens are not
// signed by Entra ID: a tstable server taking Entra ID tokens
// (NewTLSServer, tstable serve --oauth basic) takes them, the service
// would not. The zero value mints valid tokens; its fields mint the
// tokens a test wants refused.
type TokenCredential struct {
	// TenantID is the tenant the tokens name; "" is TestTenant, unless
	// the SDK asks for a tenant (after a bearer challenge).
	TenantID string
	// Audience is the tokens' aud; "" is https://storage.azure.com.
	Audience string
	// Lifetime is how long each token is valid from now: 0 is an hour; a
	// negative one mints tokens that expired that long ago.
	Lifetime time.Duration
}

// GetToken implements azcore.TokenCredential.
func (c TokenCredential) GetToken(_ context.Context, opts policy.TokenRequestOptions) (azcore.AccessToken, error) {
	now := time.Now()
	tenant := c.TenantID
	if tenant == "" {
		tenant = opts.TenantID
	}
	if tenant == "" {
		tenant = TestTenant
	}
	aud := c.Audience
	if aud == "" {
		aud = "https://storage.azure.com"
	}
	life := c.Lifetime
	if life == 0 {
		life = time.Hour
	}
	expires := now.Add(life)
	start := now
	if life < 0 {
		start = expires.Add(-time.Hour)
	}
	claims := map[string]any{
		"aud": aud, "iss": "https://sts.windows.net/" + tenant + "/", "tid": tenant,
		"iat": start.Unix(), "nbf": start.Unix(), "exp": expires.Unix(),
		"oid": "00000000-0000-0000-0000-0000000000aa", "sub": "tstabletest", "appid": "00000000-0000-0000-0000-0000000000bb",
		"ver": "1.0",
	}
	token, err := mintJWT(claims)
	if err != nil {
		return azcore.AccessToken{}, err
	}
	return azcore.AccessToken{Token: token, ExpiresOn: expires}, nil
}

// mintJWT encodes claims as a compact JWT with a random signature.
func mintJWT(claims map[string]any) (string, error) {
	header, err := json.Marshal(map[string]string{"alg": "RS256", "typ": "JWT"})
	if err != nil {
		return "", err
	}
	payload, err := json.Marshal(claims)
	if err != nil {
		return "", err
	}
	sig := make([]byte, 256)
	if _, err := rand.Read(sig); err != nil {
		return "", err
	}
	enc := base64.RawURLEncoding.EncodeToString
	return enc(header) + "." + enc(payload) + "." + enc(sig), nil
}
