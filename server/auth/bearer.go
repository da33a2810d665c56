package auth

import (
	"encoding/base64"
	"encoding/json"
	"net/http"
	"strconv"
	"strings"
	"time"

	"github.com/tstable/tstable/odata"
)

// verifyBearer accepts a bearer token as the emulators do: over HTTPS
// only, and the token must be a well-formed JWT (three base64url parts,
// a JSON header naming its algorithm, a JSON payload) that has not
// expired (exp) and is already valid (nbf) at now. Its signature, issuer
// and audience are not checked: tstable has no identity provider to
// check them against, so a bearer token grants the whole account.
func verifyBearer(r *http.Request, token string, now time.Time) error {
	if r.TLS == nil {
		return errorf(odata.CodeAuthenticationFailed,
			"bearer tokens are accepted over HTTPS only, as the emulator accepts them: use the https:// endpoint, or the account key or a SAS over HTTP")
	}
	claims, err := parseJWT(strings.TrimSpace(token))
	if err != nil {
		return errorf(odata.CodeAuthenticationFailed,
			"the bearer token is not a well-formed JWT (%v): send the access token your credential issued for https://storage.azure.com", err)
	}
	if exp, ok := claims["exp"].(float64); ok && now.After(time.Unix(int64(exp), 0)) {
		return errorf(odata.CodeAuthenticationFailed,
			"the bearer token expired at %s (exp) and the server's clock reads %s: get a new token",
			time.Unix(int64(exp), 0).UTC().Format(time.RFC3339), now.UTC().Format(time.RFC3339))
	}
	if nbf, ok := claims["nbf"].(float64); ok && now.Before(time.Unix(int64(nbf), 0)) {
		return errorf(odata.CodeAuthenticationFailed,
			"the bearer token is not valid before %s (nbf) and the server's clock reads %s: check the clocks",
			time.Unix(int64(nbf), 0).UTC().Format(time.RFC3339), now.UTC().Format(time.RFC3339))
	}
	return nil
}

// jwtError says what is wrong with a token, without repeating it.
type jwtError string

func (e jwtError) Error() string { return string(e) }

// parseJWT checks a compact JWT's form and returns its claims.
func parseJWT(token string) (map[string]any, error) {
	parts := strings.Split(token, ".")
	if len(parts) != 3 {
		return nil, jwtError("it has " + strconv.Itoa(len(parts)) + " dot-separated parts, not 3")
	}
	var header map[string]any
	if err := decodeJWTPart(parts[0], &header); err != nil {
		return nil, jwtError("its header " + err.Error())
	}
	if alg, ok := header["alg"].(string); !ok || alg == "" {
		return nil, jwtError("its header names no algorithm (alg)")
	}
	var claims map[string]any
	if err := decodeJWTPart(parts[1], &claims); err != nil {
		return nil, jwtError("its payload " + err.Error())
	}
	if _, err := base64.RawURLEncoding.DecodeString(strings.TrimRight(parts[2], "=")); err != nil {
		return nil, jwtError("its signature is not base64url")
	}
	return claims, nil
}

// decodeJWTPart decodes one base64url part holding a JSON object into v.
func decodeJWTPart(part string, v *map[string]any) error {
	b, err := base64.RawURLEncoding.DecodeString(strings.TrimRight(part, "="))
	if err != nil {
		return jwtError("is not base64url")
	}
	if err := json.Unmarshal(b, v); err != nil || *v == nil {
		return jwtError("is not a JSON object")
	}
	return nil
}
