package auth

import (
	"crypto/hmac"
	"encoding/base64"
	"net"
	"net/http"
	"net/netip"
	"net/url"
	"strings"
	"time"

	"github.com/tstable/tstable/odata"
)

// Service versions whose SAS string-to-sign this package knows.
const (
	// sasMinVersion is the first version with the account SAS and with
	// the table SAS's current fields (signedIP, signedProtocol). Every
	// current SDK signs 2019-02-02.
	sasMinVersion = "2015-04-05"
	// sasEncryptionScopeVersion adds signedEncryptionScope (ses) to the
	// account SAS's string-to-sign.
	sasEncryptionScopeVersion = "2020-12-06"
)

// Permission letters each kind of SAS may carry.
const (
	accountSASPermissions = "rwdlacupxtfiy" // all the services'; the table service uses r w d l a c u
	accountSASResources   = "sco"           // service, container (table), object (entity)
	tableSASPermissions   = "raud"          // read (query), add, update, delete
)

// sasParameters are the query parameters of a SAS, each given once.
var sasParameters = []string{"sv", "ss", "srt", "sp", "st", "se", "sip", "spr", "ses", "sig", "tn", "si", "spk", "srk", "epk", "erk"}

// verifySAS checks the SAS in r's query, account SAS (ss, srt) or table SAS
// (tn), and fills g with what it grants. q and qerr are url.ParseQuery's
// answer for the query, read once for the whole request.
func (v *Verifier) verifySAS(r *http.Request, q url.Values, qerr error, now time.Time, g *Grant) error {
	if qerr != nil {
		return errorf(odata.CodeAuthenticationFailed, "the SAS query string is malformed (%v): send the token exactly as the SDK or portal made it", qerr)
	}
	for _, k := range sasParameters {
		if len(q[k]) > 1 {
			return errorf(odata.CodeAuthenticationFailed, "the SAS gives its parameter %s %d times: a SAS gives each once; use the token as the SDK or portal made it, whole", k, len(q[k]))
		}
	}
	sv := q.Get("sv")
	if !isVersion(sv) {
		return errorf(odata.CodeAuthenticationFailed,
			"the SAS has no valid service version (sv=%.32q): a SAS needs sv=YYYY-MM-DD, e.g. sv=2019-02-02 as the SDKs sign", sv)
	}
	if sv < sasMinVersion {
		return errorf(odata.CodeAuthenticationFailed,
			"the SAS is signed for service version %s, older than %s, whose string-to-sign tstable does not know: sign it again with a current SDK", sv, sasMinVersion)
	}
	switch {
	case q.Has("ss") || q.Has("srt"):
		return v.verifyAccountSAS(r, q, now, g)
	case q.Has("tn"):
		return v.verifyTableSAS(r, q, now, g)
	}
	return errorf(odata.CodeAuthenticationFailed,
		"the SAS is neither an account SAS (it has no ss or srt) nor a table SAS (it has no tn): use the token as the SDK or portal made it, whole")
}

// verifyAccountSAS checks an account SAS: its fields, its signature over
// the account SAS string-to-sign of its version, its times, protocol and
// IP range, and that it is for the table service.
func (v *Verifier) verifyAccountSAS(r *http.Request, q url.Values, now time.Time, g *Grant) error {
	if err := require(q, "account SAS", "sp", "ss", "srt", "se", "sig"); err != nil {
		return err
	}
	sv := q.Get("sv")
	fields := []string{v.account, q.Get("sp"), q.Get("ss"), q.Get("srt"), q.Get("st"), q.Get("se"), q.Get("sip"), q.Get("spr"), sv}
	if sv >= sasEncryptionScopeVersion {
		fields = append(fields, q.Get("ses"))
	}
	toSign := strings.Join(fields, "\n") + "\n"
	if err := v.checkSAS(r, q, sasFields{start: q.Get("st"), expiry: q.Get("se")}, now, toSign, "account SAS"); err != nil {
		return err
	}
	if !strings.Contains(q.Get("ss"), "t") {
		return errorf(odata.CodeAuthorizationServiceMismatch,
			"the account SAS is for services %q, which do not include the table service: sign it with ss containing t", q.Get("ss"))
	}
	if err := onlyLetters(q.Get("srt"), accountSASResources, "resource type (srt)"); err != nil {
		return err
	}
	if err := onlyLetters(q.Get("sp"), accountSASPermissions, "permission (sp)"); err != nil {
		return err
	}
	g.credential = "account SAS"
	g.sas = sasAccount
	g.permissions = q.Get("sp")
	g.resourceTypes = q.Get("srt")
	return nil
}

// checkSAS checks what every SAS must pass: its signature over toSign,
// then its time window (f's, the SAS's own or its policy's), protocol and
// source address.
func (v *Verifier) checkSAS(r *http.Request, q url.Values, f sasFields, now time.Time, toSign, kind string) error {
	if err := v.checkSignature(q.Get("sig"), toSign, kind); err != nil {
		return err
	}
	if err := checkSASWindow(f.start, f.expiry, now); err != nil {
		return err
	}
	if err := checkProtocol(q.Get("spr"), r); err != nil {
		return err
	}
	return checkSourceIP(q.Get("sip"), r)
}

// verifyTableSAS checks a table (service) SAS: its fields, its signature
// over the table SAS string-to-sign, its times, protocol and IP range. A
// SAS that names a stored access policy (si) takes from it the start,
// expiry and permissions it does not give itself. Its table and key range
// are the Grant's to enforce.
func (v *Verifier) verifyTableSAS(r *http.Request, q url.Values, now time.Time, g *Grant) error {
	if err := require(q, "table SAS", "tn", "sig"); err != nil {
		return err
	}
	tn := q.Get("tn")
	f := sasFields{start: q.Get("st"), expiry: q.Get("se"), permission: q.Get("sp")}
	if si := q.Get("si"); si != "" {
		var err error
		if f, err = applyPolicy(r.Context(), tn, si, f); err != nil {
			return err
		}
	}
	if f.permission == "" || f.expiry == "" {
		missing := "sp"
		if f.permission != "" {
			missing = "se"
		}
		return errorf(odata.CodeAuthenticationFailed,
			"the table SAS has no %s, and no stored access policy (si) that gives it: use the token as the SDK or portal made it, whole", missing)
	}
	toSign := strings.Join([]string{
		q.Get("sp"), q.Get("st"), q.Get("se"),
		"/table/" + v.account + "/" + strings.ToLower(tn),
		q.Get("si"), q.Get("sip"), q.Get("spr"), q.Get("sv"),
		q.Get("spk"), q.Get("srk"), q.Get("epk"), q.Get("erk"),
	}, "\n")
	if err := v.checkSAS(r, q, f, now, toSign, "table SAS"); err != nil {
		return err
	}
	if err := onlyLetters(f.permission, tableSASPermissions, "permission (sp)"); err != nil {
		return err
	}
	if q.Get("srk") != "" && q.Get("spk") == "" {
		return errorf(odata.CodeAuthenticationFailed, "the table SAS has a start row key (srk) but no start partition key (spk): a row key bound needs its partition key")
	}
	if q.Get("erk") != "" && q.Get("epk") == "" {
		return errorf(odata.CodeAuthenticationFailed, "the table SAS has an end row key (erk) but no end partition key (epk): a row key bound needs its partition key")
	}
	g.credential = "table SAS"
	g.sas = sasTable
	g.permissions = f.permission
	g.table = tn
	g.startPK, g.startRK, g.endPK, g.endRK = q.Get("spk"), q.Get("srk"), q.Get("epk"), q.Get("erk")
	return nil
}

// require reports the first of keys that q lacks or leaves empty.
func require(q url.Values, kind string, keys ...string) error {
	for _, k := range keys {
		if q.Get(k) == "" {
			return errorf(odata.CodeAuthenticationFailed, "the %s has no %s: use the token as the SDK or portal made it, whole", kind, k)
		}
	}
	return nil
}

// checkSignature compares sig, the base64 signature of the query, with the
// HMAC of toSign under the account key.
func (v *Verifier) checkSignature(sig, toSign, kind string) error {
	// A '+' sent unencoded in the query reads as a space; base64 has none.
	sig = strings.ReplaceAll(sig, " ", "+")
	mac, err := base64.StdEncoding.DecodeString(sig)
	if err != nil || len(v.key) == 0 || !hmac.Equal(mac, v.sign(toSign)) {
		return errorf(odata.CodeAuthenticationFailed,
			"the %s signature (sig) does not match: check that it was signed with account %s's key (for the emulator account, its published key) "+
				"and that no parameter was changed or percent-encoded twice; the server signed %q",
			kind, v.account, toSign)
	}
	return nil
}

// checkSASWindow checks st (optional) and se against now.
func checkSASWindow(st, se string, now time.Time) error {
	expiry, err := ParseTime(se)
	if err != nil {
		return errorf(odata.CodeAuthenticationFailed, "the SAS expiry se=%.40q is not an ISO 8601 UTC time such as 2030-01-02T15:04:05Z", se)
	}
	if st != "" {
		start, err := ParseTime(st)
		if err != nil {
			return errorf(odata.CodeAuthenticationFailed, "the SAS start st=%.40q is not an ISO 8601 UTC time such as 2030-01-02T15:04:05Z", st)
		}
		if !expiry.After(start) {
			return errorf(odata.CodeAuthenticationFailed, "the SAS expires (se=%s) before it starts (st=%s): sign it with an expiry after its start", se, st)
		}
		if now.Before(start) {
			return errorf(odata.CodeAuthenticationFailed,
				"the SAS is not valid yet: it starts at %s (st) and the server's clock reads %s; wait, or sign it with an earlier start (a few minutes back allows for clock skew)",
				start.UTC().Format(time.RFC3339), now.UTC().Format(time.RFC3339))
		}
	}
	if now.After(expiry) {
		return errorf(odata.CodeAuthenticationFailed,
			"the SAS expired at %s (se) and the server's clock reads %s: sign a new one",
			expiry.UTC().Format(time.RFC3339), now.UTC().Format(time.RFC3339))
	}
	return nil
}

// parseSASTime parses the ISO 8601 forms a SAS time may take: a date, a
// time to the minute, to the second, or with a fraction of a second.
func ParseTime(s string) (time.Time, error) {
	var err error
	for _, layout := range []string{time.RFC3339Nano, "2006-01-02T15:04Z07:00", "2006-01-02"} {
		var t time.Time
		if t, err = time.Parse(layout, s); err == nil {
			return t, nil
		}
	}
	return time.Time{}, err
}

// checkProtocol checks spr: "https" needs the request to have come over
// TLS; "https,http" and no spr allow both.
func checkProtocol(spr string, r *http.Request) error {
	switch spr {
	case "", "https,http", "http,https":
		return nil
	case "https":
		if r.TLS != nil {
			return nil
		}
		return errorf(odata.CodeAuthorizationProtocolMismatch,
			"the SAS allows HTTPS only (spr=https) but the request came over HTTP: use the https:// endpoint, or sign the SAS with spr=https,http")
	}
	return errorf(odata.CodeAuthenticationFailed, "the SAS protocol spr=%.20q is neither https nor https,http", spr)
}

// checkSourceIP checks sip, an address or an inclusive range a-b, against
// the address the request came from.
func checkSourceIP(sip string, r *http.Request) error {
	if sip == "" {
		return nil
	}
	lo, hi, isRange := strings.Cut(sip, "-")
	if !isRange {
		hi = lo
	}
	start, err1 := netip.ParseAddr(lo)
	end, err2 := netip.ParseAddr(hi)
	if err1 != nil || err2 != nil {
		return errorf(odata.CodeAuthenticationFailed, "the SAS IP range sip=%.80q is not an address or a range of two addresses a-b", sip)
	}
	host, _, err := net.SplitHostPort(r.RemoteAddr)
	if err != nil {
		host = r.RemoteAddr
	}
	from, err := netip.ParseAddr(host)
	from = from.Unmap()
	start, end = start.Unmap(), end.Unmap()
	if err != nil || from.Less(start) || end.Less(from) || from.Is4() != start.Is4() {
		return errorf(odata.CodeAuthorizationSourceIPMismatch,
			"the SAS allows requests from %s only, and this one came from %.64s: send it from an address in that range or sign the SAS for this one", sip, host)
	}
	return nil
}

// onlyLetters reports the first letter of s that allowed lacks.
func onlyLetters(s, allowed, what string) error {
	for _, c := range s {
		if !strings.ContainsRune(allowed, c) {
			return errorf(odata.CodeAuthenticationFailed, "the SAS %s %q has the unknown letter %q: use only %q", what, s, c, allowed)
		}
	}
	return nil
}

// isVersion reports whether s has the form of a service version, YYYY-MM-DD.
func isVersion(s string) bool {
	if len(s) != 10 || s[4] != '-' || s[7] != '-' {
		return false
	}
	for i, c := range []byte(s) {
		if i != 4 && i != 7 && (c < '0' || c > '9') {
			return false
		}
	}
	return true
}
