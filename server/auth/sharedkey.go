package auth

import (
	"crypto/hmac"
	"encoding/base64"
	"net/http"
	"net/url"
	"strings"
	"time"

	"github.com/tstable/tstable/odata"
)

// verifySharedKey checks an "Authorization: SharedKey account:signature"
// or "SharedKeyLite account:signature" header (rest is what follows the
// scheme) against the Table service's string-to-sign, then the request's
// date against now.
func (v *Verifier) verifySharedKey(r *http.Request, path, scheme, rest string, now time.Time) error {
	account, sig, ok := strings.Cut(strings.TrimSpace(rest), ":")
	if !ok || account == "" || sig == "" {
		return errorf(odata.CodeAuthenticationFailed,
			"the Authorization header is not of the form %q: sign the request with the account name and key", scheme+" "+v.account+":<base64 signature>")
	}
	if account != v.account {
		return errorf(odata.CodeAuthenticationFailed,
			"the Authorization header is signed for account %.64q, but this server answers for account %q: sign with AccountName=%s and its key",
			account, v.account, v.account)
	}
	mac, err := base64.StdEncoding.DecodeString(sig)
	if err != nil {
		return errorf(odata.CodeAuthenticationFailed, "the %s signature is not base64: send the base64 HMAC-SHA256 of the string-to-sign", scheme)
	}
	date := requestDate(r.Header)
	toSign := stringToSignLite(date, path, r.URL.RawQuery, v.account)
	if scheme == "SharedKey" {
		toSign = stringToSignSharedKey(r.Method, r.Header, date, path, r.URL.RawQuery, v.account)
	}
	if len(v.key) == 0 || !hmac.Equal(mac, v.sign(toSign)) {
		return errorf(odata.CodeAuthenticationFailed,
			"the %s signature does not match: check that the key is account %s's (for the emulator account, its published key), "+
				"that nothing changed the request after it was signed, and that the client signed the same string as the server, which signed %q",
			scheme, v.account, toSign)
	}
	if date == "" {
		return errorf(odata.CodeAuthenticationFailed,
			"the request has no x-ms-date or Date header: %s requests must carry the time they were signed, in RFC 1123 form", scheme)
	}
	t, err := http.ParseTime(date)
	if err != nil {
		return errorf(odata.CodeAuthenticationFailed,
			"the request's date %.64q is not an RFC 1123 date such as %q: send x-ms-date in that form",
			date, now.UTC().Format(http.TimeFormat))
	}
	if d := now.Sub(t); d > maxClockSkew || d < -maxClockSkew {
		return errorf(odata.CodeAuthenticationFailed,
			"the request's date %s is %s away from the server's clock (%s), more than the 15 minutes allowed: check the client's clock, and sign each request (and each retry) afresh",
			t.UTC().Format(http.TimeFormat), d.Abs().Round(time.Second), now.UTC().Format(http.TimeFormat))
	}
	return nil
}

// requestDate is the date the request was signed with: x-ms-date when
// there is one, else Date.
func requestDate(h http.Header) string {
	if d := h.Get("X-Ms-Date"); d != "" {
		return d
	}
	return h.Get("Date")
}

// stringToSignSharedKey is the Table service's SharedKey string-to-sign:
// VERB, Content-MD5, Content-Type, Date and the canonicalized resource,
// one a line. Unlike the blob and queue services it has no canonicalized
// x-ms- headers.
func stringToSignSharedKey(method string, h http.Header, date, path, rawQuery, account string) string {
	return method + "\n" +
		h.Get("Content-Md5") + "\n" +
		h.Get("Content-Type") + "\n" +
		date + "\n" +
		canonicalizedResource(path, rawQuery, account)
}

// stringToSignLite is the Table service's SharedKeyLite string-to-sign:
// Date and the canonicalized resource.
func stringToSignLite(date, path, rawQuery, account string) string {
	return date + "\n" + canonicalizedResource(path, rawQuery, account)
}

// canonicalizedResource is "/" + account + the path as sent (still
// encoded), then "?comp=" + the decoded comp parameter when there is one;
// no other parameter. With path-style URLs the path already starts with
// the account, so it appears twice: /devstoreaccount1/devstoreaccount1/Tables.
func canonicalizedResource(path, rawQuery, account string) string {
	if path == "" {
		path = "/"
	}
	cr := "/" + account + path
	if !strings.Contains(rawQuery, "comp") && !strings.Contains(rawQuery, "%") {
		return cr // no comp parameter, even once decoded
	}
	if q, err := url.ParseQuery(rawQuery); err == nil || q != nil {
		if v, ok := q["comp"]; ok && len(v) > 0 {
			cr += "?comp=" + v[0]
		}
	}
	return cr
}
