package auth

import (
	"fmt"
	"net/http"
	"strings"
	"time"

	"github.com/tstable/tstable/odata"
)

// OAuth says whether and how a Verifier takes bearer tokens (Microsoft
// Entra ID access tokens).
type OAuth int

const (
	// OAuthOff refuses every bearer token.
	OAuthOff OAuth = iota
	// OAuthBasic accepts a well-formed, unexpired token for a storage
	// audience from an Entra ID issuer, without checking its signature
	// (Azurite's --oauth basic).
	OAuthBasic
)

// ParseOAuth reads the level as tstable serve --oauth takes it: "basic".
func ParseOAuth(s string) (OAuth, error) {
	if s == "basic" {
		return OAuthBasic, nil
	}
	return OAuthOff, fmt.Errorf("%q is not an OAuth level: the one there is, basic, takes Microsoft Entra ID tokens without checking their signature", s)
}

// SetOAuth sets how v takes bearer tokens (OAuthOff when it is never
// called). Call it before v's first Authorize.
func (v *Verifier) SetOAuth(o OAuth) { v.oauth = o }

// tokenClockSkew is how far a token's exp and nbf may be from the
// server's clock: the default of the token validation the service's
// messages come from (Microsoft.IdentityModel, 5 minutes).
const tokenClockSkew = 5 * time.Minute

// Service versions that change how bearer tokens are answered: before
// minBearerVersion the service does not take them at all; from
// challengeVersion on, a refused token is answered 401
// InvalidAuthenticationInfo with a bearer challenge, before it 403
// AuthenticationFailed.
const (
	minBearerVersion = "2017-11-09"
	challengeVersion = "2019-12-12"
)

// storageResource is the storage services' Entra ID resource: the scope
// the SDKs ask tokens for, less "/.default".
const storageResource = "https://storage.azure.com"

// verifyBearer checks a bearer token as OAuthBasic does (see the package
// documentation): over HTTPS, for a service version that takes tokens,
// well-formed, within its lifetime, for a storage audience, from an
// Entra ID issuer. The signature is not checked.
func (v *Verifier) verifyBearer(r *http.Request, token string, now time.Time) error {
	if v.oauth != OAuthBasic {
		return errorf(odata.CodeAuthenticationFailed,
			"this server takes no bearer tokens: start tstable serve with --oauth basic (and --tls) to accept Microsoft Entra ID tokens, or sign with the account key or a SAS")
	}
	if r.TLS == nil {
		return errorf(odata.CodeAuthenticationFailed,
			"Authentication scheme Bearer is not allowed with HTTP: bearer tokens are taken over HTTPS only, as the service takes them; use the https:// endpoint")
	}
	version := r.Header.Get("x-ms-version")
	if !isVersion(version) || version < minBearerVersion {
		return errorf(odata.CodeAuthenticationFailed,
			"Authentication scheme Bearer is not supported in this version (x-ms-version %.20q): send x-ms-version %s or later, as the SDKs do", version, minBearerVersion)
	}
	claims, err := parseJWT(strings.TrimSpace(token))
	if err != nil {
		return refuseToken(version, nil, "the bearer token is not a well-formed JWT (%v): send the access token the credential issued for %s", err, storageResource)
	}
	if err := checkLifetime(claims, now); err != "" {
		return refuseToken(version, claims, "%s", err)
	}
	if !v.isStorageAudience(claims.Audience, r.Host) {
		return refuseToken(version, claims,
			"Audience validation failed. Audience did not match: the token is for %.100q; ask the credential for a token for %s/.default (or this account's URL, https://%s/%s)",
			strings.Join(claims.Audience, ", "), storageResource, r.Host, v.account)
	}
	if tenantOfIssuer(claims.Issuer) == "" {
		return refuseToken(version, claims,
			"Issuer validation failed. Issuer did not match: %.100q is not a Microsoft Entra ID issuer (https://sts.windows.net/TENANT/ or https://login.microsoftonline.com/TENANT/v2.0)",
			claims.Issuer)
	}
	return nil
}

// checkLifetime checks exp (required) and nbf (when there is one)
// against now, with the service's clock skew; "" when the token is live.
func checkLifetime(c *jwtClaims, now time.Time) string {
	clock := now.UTC().Format(time.RFC3339)
	switch {
	case c.Expires == nil:
		return "Lifetime validation failed. The token is missing an Expiration Time (exp): send the access token the credential issued"
	case now.After(c.Expires.t.Add(tokenClockSkew)):
		return fmt.Sprintf("Lifetime validation failed. The token is expired: it expired at %s (exp), the server's clock reads %s, and %v of skew is allowed; get a new token",
			c.Expires.t.Format(time.RFC3339), clock, tokenClockSkew)
	case c.NotFrom != nil && now.Add(tokenClockSkew).Before(c.NotFrom.t):
		return fmt.Sprintf("Lifetime validation failed. The token is not yet valid: it is valid from %s (nbf), the server's clock reads %s, and %v of skew is allowed; check the clocks",
			c.NotFrom.t.Format(time.RFC3339), clock, tokenClockSkew)
	}
	return ""
}

// isStorageAudience reports whether one of a token's audiences is one the
// table service takes: the storage resource (with or without its slash,
// or its application id), the account's table endpoint in a public or
// sovereign cloud, or the account's URL on this server (host as the
// client reached it).
func (v *Verifier) isStorageAudience(aud audience, host string) bool {
	for _, a := range aud {
		a = strings.TrimSuffix(a, "/")
		switch {
		case a == storageResource, a == storageApplicationID:
			return true
		case strings.EqualFold(a, "https://"+host+"/"+v.account):
			return true
		}
		for _, suffix := range tableEndpointSuffixes {
			if strings.EqualFold(a, "https://"+v.account+".table."+suffix) {
				return true
			}
		}
	}
	return false
}

// storageApplicationID is the storage resource's application id, which
// Entra ID puts in aud for some token versions.
const storageApplicationID = "e406a681-f3d4-42a8-90b6-c2b029497af1"

// tableEndpointSuffixes are the clouds' domains of table endpoints
// (https://ACCOUNT.table.SUFFIX).
var tableEndpointSuffixes = []string{"core.windows.net", "core.chinacloudapi.cn", "core.usgovcloudapi.net", "core.cloudapi.de"}

// Entra ID's token issuers, by cloud: v1 tokens name https://HOST/TENANT/,
// v2 tokens https://HOST/TENANT/v2.0.
var (
	issuerHostsV1 = []string{"sts.windows.net", "sts.chinacloudapi.cn", "sts.microsoftonline.de", "sts.windows-ppe.net"}
	issuerHostsV2 = []string{"login.microsoftonline.com", "login.microsoftonline.us", "login.chinacloudapi.cn", "login.microsoftonline.de"}
)

// tenantOfIssuer returns the tenant an Entra ID issuer names, or "" when
// iss is not an Entra ID issuer.
func tenantOfIssuer(iss string) string {
	rest, ok := strings.CutPrefix(iss, "https://")
	if !ok {
		return ""
	}
	host, path, _ := strings.Cut(rest, "/")
	tenant, tail, _ := strings.Cut(path, "/")
	if tenant == "" {
		return ""
	}
	switch {
	case contains(issuerHostsV1, host) && tail == "":
		return tenant
	case contains(issuerHostsV2, host) && strings.TrimSuffix(tail, "/") == "v2.0":
		return tenant
	}
	return ""
}

func contains(list []string, s string) bool {
	for _, x := range list {
		if strings.EqualFold(x, s) {
			return true
		}
	}
	return false
}

// ChallengeError is a refused bearer token answered as the service
// answers it from version 2019-12-12 on: 401 InvalidAuthenticationInfo
// with a WWW-Authenticate bearer challenge that names where to get a token
// (authorization_uri, the tenant's) and for what (resource_id).
type ChallengeError struct {
	Err       *odata.Error
	Challenge string // the WWW-Authenticate value
}

// Error is the coded error's.
func (e *ChallengeError) Error() string { return e.Err.Error() }

// Unwrap gives the coded error.
func (e *ChallengeError) Unwrap() error { return e.Err }

// HTTPStatus is 401 Unauthorized.
func (e *ChallengeError) HTTPStatus() int { return http.StatusUnauthorized }

// HTTPHeader carries the challenge.
func (e *ChallengeError) HTTPHeader() http.Header {
	return http.Header{"Www-Authenticate": {e.Challenge}}
}

// refuseToken refuses a token that is not acceptable, in the form the
// request's service version gets: 403 AuthenticationFailed before
// 2019-12-12, a 401 bearer challenge from then on. The challenge names
// the token's tenant (tid, else its issuer's), or "common".
func refuseToken(version string, c *jwtClaims, format string, args ...any) error {
	if version < challengeVersion {
		return errorf(odata.CodeAuthenticationFailed, format, args...)
	}
	tenant := "common"
	if c != nil {
		for _, t := range []string{c.Tenant, tenantOfIssuer(c.Issuer)} {
			if isTenantName(t) {
				tenant = t
				break
			}
		}
	}
	return &ChallengeError{
		Err:       odata.Errorf(odata.CodeInvalidAuthenticationInfo, format, args...),
		Challenge: "Bearer authorization_uri=https://login.microsoftonline.com/" + tenant + "/oauth2/authorize resource_id=" + storageResource,
	}
}

// isTenantName reports whether s can stand for a tenant in a URL: a GUID
// or a domain name, nothing that would break the header.
func isTenantName(s string) bool {
	if s == "" || len(s) > 255 {
		return false
	}
	for _, c := range s {
		if !(c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9' || c == '-' || c == '.' || c == '_') {
			return false
		}
	}
	return true
}
