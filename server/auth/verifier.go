package auth

import (
	"crypto/hmac"
	"crypto/sha256"
	"encoding/base64"
	"fmt"
	"hash"
	"io"
	"net/http"
	"net/url"
	"strings"
	"sync"
	"time"

	"github.com/tstable/tstable/odata"
)

// WellKnownAccount is the storage emulators' account name.
const WellKnownAccount = "devstoreaccount1"

// WellKnownKey is the storage emulators' published account key, base64 as
// connection strings carry it. Decode it with DecodeKey.
const WellKnownKey = "Eby8vdM02xNOcqFlqUwJPLlmEtlCDXJ1OUzFT50uSRZ6IFsuFq2UVErCz4I6tq/K1SZFPTOtr/KBHBeksoGMGw=="

// DecodeKey decodes an account key as the portal and connection strings
// show it (standard base64) into the bytes New takes.
func DecodeKey(s string) ([]byte, error) {
	k, err := base64.StdEncoding.DecodeString(strings.TrimSpace(s))
	if err != nil {
		return nil, fmt.Errorf("the account key is not base64 (it is the AccountKey=… of a connection string, e.g. the emulator's published key): %w", err)
	}
	if len(k) == 0 {
		return nil, fmt.Errorf("the account key is empty: give the base64 AccountKey of the account")
	}
	return k, nil
}

// maxClockSkew is how far a SharedKey request's date may be from the
// server's clock, as the service allows.
const maxClockSkew = 15 * time.Minute

// Verifier authenticates requests to the one account a server answers for.
// It is safe for concurrent use.
type Verifier struct {
	account string
	key     []byte
	oauth   OAuth
	macs    sync.Pool // HMAC-SHA256 states keyed with key, ready to sign
	sases   sasCache  // the SAS query strings verified (sascache.go)
}

// New returns a Verifier for account, whose key is the decoded account key
// (see DecodeKey). With an empty key every SharedKey and SAS request is
// refused.
func New(account string, key []byte) *Verifier {
	v := &Verifier{account: account, key: append([]byte(nil), key...)}
	v.macs.New = func() any { return hmac.New(sha256.New, v.key) }
	return v
}

// sign is the HMAC-SHA256 of s under the key (the signature before
// base64), from a keyed state reused between requests.
func (v *Verifier) sign(s string) []byte {
	h := v.macs.Get().(hash.Hash)
	h.Reset()
	io.WriteString(h, s)
	sum := h.Sum(make([]byte, 0, sha256.Size))
	v.macs.Put(h)
	return sum
}

// Account is the account the Verifier answers for.
func (v *Verifier) Account() string { return v.account }

// Authorize authenticates r at time now and returns what it may do. URLs
// are path-style, as the emulators serve them: the first path segment is
// the account (/devstoreaccount1/Tables, /devstoreaccount1/Orders(…),
// /devstoreaccount1/$batch, /devstoreaccount1/?restype=service&comp=properties),
// and it must be the Verifier's.
//
// The credentials, in the order they are looked for:
//   - an Authorization header: SharedKey, SharedKeyLite (signed with the
//     account key) or Bearer (with SetOAuth(OAuthBasic) only: a
//     well-formed, unexpired Entra ID token for storage, over HTTPS; see
//     the package documentation);
//   - a SAS in the query (sig=…): an account SAS (ss, srt) or a table SAS (tn).
//
// A request with none is refused with 403 AuthenticationFailed: the table
// service has no anonymous access. Every refusal is a coded error (see
// the package documentation) whose message says what to check; none
// contains the key.
//
// Authorize checks who sent the request and, for a SAS, its times,
// protocol and IP range. What the request may then do (the permissions of
// a SAS, its table and key range) is the Grant's to answer per operation.
func (v *Verifier) Authorize(r *http.Request, now time.Time) (*Grant, error) {
	path := rawPath(r)
	if err := v.checkAccount(path); err != nil {
		return nil, err
	}
	if r.Header.Get("Authorization") == "" {
		if e := v.sases.get(r.URL.RawQuery); e != nil {
			return e.authorize(r, now)
		}
	}
	// The query, parsed once: a malformed pair is left out of q, as
	// url.ParseQuery leaves it, and refused only in a SAS.
	q, qerr := url.ParseQuery(r.URL.RawQuery)
	g := &Grant{method: r.Method, comp: q.Get("comp")}
	if h := r.Header.Get("Authorization"); h != "" {
		scheme, rest, _ := strings.Cut(h, " ")
		switch {
		case scheme == "SharedKey" || scheme == "SharedKeyLite":
			if err := v.verifySharedKey(r, path, scheme, rest, now); err != nil {
				return nil, err
			}
			g.credential = scheme
			return g, nil
		case strings.EqualFold(scheme, "Bearer"):
			if err := v.verifyBearer(r, rest, now); err != nil {
				return nil, err
			}
			g.credential = "Bearer"
			return g, nil
		}
		return nil, errorf(odata.CodeAuthenticationFailed,
			"the Authorization header's scheme %.40q is not one the table service takes: use SharedKey, SharedKeyLite or Bearer, or a SAS in the query", scheme)
	}
	if q.Has("sig") {
		if err := v.verifySAS(r, q, qerr, now, g); err != nil {
			return nil, err
		}
		if !q.Has("si") {
			kept := *g
			kept.method = ""
			v.sases.put(r.URL.RawQuery, &sasEntry{grant: kept, st: q.Get("st"), se: q.Get("se"), spr: q.Get("spr"), sip: q.Get("sip")})
		}
		return g, nil
	}
	return nil, errorf(odata.CodeAuthenticationFailed,
		"the request carries no credentials, and the table service allows no anonymous access: "+
			"sign it with the account key (SharedKey or SharedKeyLite, e.g. a connection string with AccountName=%s), "+
			"add a SAS to the URL (?sv=…&sig=…) or send a bearer token", v.account)
}

// checkAccount checks that the path-style URL names the Verifier's account
// as its first segment.
func (v *Verifier) checkAccount(path string) error {
	seg := strings.TrimPrefix(path, "/")
	if i := strings.IndexByte(seg, '/'); i >= 0 {
		seg = seg[:i]
	}
	if seg == v.account || seg == v.account+"-secondary" { // the emulators' secondary endpoint
		return nil
	}
	if seg == "" {
		return errorf(odata.CodeAuthenticationFailed,
			"the URL names no account: this server answers path-style URLs that start with the account, e.g. /%s/Tables", v.account)
	}
	return errorf(odata.CodeAuthenticationFailed,
		"the URL is for account %.64q, but this server answers for account %q: use URLs of the form /%s/… (e.g. the emulator endpoint http://127.0.0.1:10002/%s)",
		seg, v.account, v.account, v.account)
}

// rawPath is the request's path exactly as the client sent it (still
// percent-encoded), which is what the client signed.
func rawPath(r *http.Request) string {
	if u := r.RequestURI; strings.HasPrefix(u, "/") {
		if i := strings.IndexByte(u, '?'); i >= 0 {
			u = u[:i]
		}
		return u
	}
	return r.URL.EscapedPath()
}
