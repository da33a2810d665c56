package auth

import (
	"bytes"
	"encoding/base64"
	"encoding/json"
	"errors"
	"math"
	"strconv"
	"strings"
	"time"
)

// maxTokenLen bounds the bearer token read: Entra ID access tokens are a
// few kilobytes; anything past this is refused before it is decoded.
const maxTokenLen = 16 << 10

// jwtClaims are the claims of an access token that the checks read (RFC
// 7519): the audience (a string or an array of strings), the issuer, the
// tenant, and the times, in seconds since 1970 (fractions allowed).
type jwtClaims struct {
	Audience audience     `json:"aud"`
	Issuer   string       `json:"iss"`
	Tenant   string       `json:"tid"`
	Expires  *numericDate `json:"exp"`
	NotFrom  *numericDate `json:"nbf"`
}

// audience is the aud claim: one string, or several.
type audience []string

// UnmarshalJSON takes a string or an array of strings.
func (a *audience) UnmarshalJSON(b []byte) error {
	if bytes.HasPrefix(bytes.TrimSpace(b), []byte("[")) {
		var many []string
		if err := json.Unmarshal(b, &many); err != nil {
			return jwtError("its aud claim is neither a string nor an array of strings")
		}
		*a = many
		return nil
	}
	var one string
	if err := json.Unmarshal(b, &one); err != nil {
		return jwtError("its aud claim is neither a string nor an array of strings")
	}
	*a = audience{one}
	return nil
}

// numericDate is a JWT time: seconds since 1970-01-01 UTC.
type numericDate struct{ t time.Time }

// UnmarshalJSON takes a JSON number; a value beyond the years time.Time
// can hold is clamped to them.
func (d *numericDate) UnmarshalJSON(b []byte) error {
	f, err := strconv.ParseFloat(string(bytes.TrimSpace(b)), 64)
	if err != nil || math.IsNaN(f) {
		return jwtError("a time claim (exp, nbf) is not a number of seconds")
	}
	const limit = 1 << 50 // seconds: some 35 million years either way
	f = math.Max(-limit, math.Min(limit, f))
	sec, frac := math.Modf(f)
	d.t = time.Unix(int64(sec), int64(frac*1e9)).UTC()
	return nil
}

// jwtError says what is wrong with a token, without repeating it.
type jwtError string

func (e jwtError) Error() string { return string(e) }

// parseJWT checks a compact JWS's form (three base64url parts: a JSON
// header naming its algorithm, a JSON object of claims, a signature) and
// returns its claims. The signature is decoded, not verified.
func parseJWT(token string) (*jwtClaims, error) {
	if len(token) > maxTokenLen {
		return nil, jwtError("it is longer than " + strconv.Itoa(maxTokenLen) + " bytes")
	}
	parts := strings.Split(token, ".")
	if len(parts) != 3 {
		return nil, jwtError("it has " + strconv.Itoa(len(parts)) + " dot-separated parts, not 3")
	}
	var header struct {
		Alg string `json:"alg"`
	}
	if err := decodeJWTPart("its header", parts[0], &header); err != nil {
		return nil, err
	}
	if header.Alg == "" {
		return nil, jwtError("its header names no algorithm (alg)")
	}
	claims := &jwtClaims{}
	if err := decodeJWTPart("its payload", parts[1], claims); err != nil {
		return nil, err
	}
	if _, err := base64.RawURLEncoding.DecodeString(strings.TrimRight(parts[2], "=")); err != nil {
		return nil, jwtError("its signature is not base64url")
	}
	return claims, nil
}

// decodeJWTPart decodes one base64url part holding a JSON object into v;
// what names the part in the error.
func decodeJWTPart(what, part string, v any) error {
	b, err := base64.RawURLEncoding.DecodeString(strings.TrimRight(part, "="))
	if err != nil {
		return jwtError(what + " is not base64url")
	}
	if t := bytes.TrimSpace(b); len(t) == 0 || t[0] != '{' {
		return jwtError(what + " is not a JSON object")
	}
	if err := json.Unmarshal(b, v); err != nil {
		var je jwtError
		if errors.As(err, &je) {
			return je
		}
		return jwtError(what + " is not a JSON object of the claims' types")
	}
	return nil
}
