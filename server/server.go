package server

import (
	"crypto/rand"
	"encoding/hex"
	"net/http"
	"net/url"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"time"

	"github.com/tstable/tstable/backend"
	"github.com/tstable/tstable/odata"
	"github.com/tstable/tstable/server/auth"
)

// DefaultAccount is the account the emulators serve, and tstable serve
// by default: connection strings written for Azurite work unchanged.
const DefaultAccount = "devstoreaccount1"

// DefaultVersion is the x-ms-version answered when a request names none.
const DefaultVersion = "2019-02-02"

// Options tunes a Server.
type Options struct {
	// Account is the account name the paths start with (DefaultAccount
	// when empty). ACCOUNT-secondary is accepted too, as the emulators do
	// for the statistics a client reads from the secondary endpoint.
	Account string
	// Authorizer decides what each request may do; nil allows everything.
	Authorizer Authorizer
	// Log receives one line per query, for people (nil: none).
	Log *ExplainLog
	// CORSAnyOrigin answers CORS for every origin, method and header,
	// whatever the CORS rules set (for browser apps on a local dev
	// server); off, the rules decide, as the service applies them.
	CORSAnyOrigin bool
	// AnyVersion takes any x-ms-version a request names, as Azurite's
	// --skipApiVersionCheck does; off, a version the service would refuse
	// is refused (400 InvalidHeaderValue).
	AnyVersion bool
}

// Server answers the Table service's REST API from a backend. It is safe
// for concurrent use; the backend serializes what must be serialized.
type Server struct {
	b       backend.Backend
	account string
	auth    Authorizer
	log     *ExplainLog
	// corsAnyOrigin is Options.CORSAnyOrigin.
	corsAnyOrigin bool
	// anyVersion is Options.AnyVersion.
	anyVersion bool

	mu       sync.Mutex
	props    *serviceProperties            // service properties as set, nil for the defaults
	acls     map[string][]signedIdentifier // lower-cased table → its stored access policies
	idPrefix string
	idSeq    uint64

	// conns books the connections of the http.Server serving this one
	// (newHTTPServer); nil when another serves it (httptest).
	conns *connBook
}

// New returns a Server over b.
func New(b backend.Backend, opts Options) *Server {
	s := &Server{b: b, account: opts.Account, auth: opts.Authorizer, log: opts.Log, acls: map[string][]signedIdentifier{}, corsAnyOrigin: opts.CORSAnyOrigin, anyVersion: opts.AnyVersion}
	if s.account == "" {
		s.account = DefaultAccount
	}
	if s.auth == nil {
		s.auth = AllowAll{}
	}
	var p [8]byte
	rand.Read(p[:])
	s.idPrefix = hex.EncodeToString(p[:4]) + "-" + hex.EncodeToString(p[4:6]) + "-" + hex.EncodeToString(p[6:8]) + "-"
	return s
}

// Account is the account the server answers for.
func (s *Server) Account() string { return s.account }

// requestID returns a new x-ms-request-id, shaped like a GUID.
func (s *Server) requestID() string {
	s.mu.Lock()
	s.idSeq++
	n := s.idSeq
	s.mu.Unlock()
	var b [8]byte
	for i := 7; i >= 0; i-- {
		b[i] = byte(n)
		n >>= 8
	}
	h := hex.EncodeToString(b[:])
	return s.idPrefix + h[:4] + "-" + h[4:]
}

// request is one request being answered.
type request struct {
	s      *Server
	w      http.ResponseWriter
	r      *http.Request
	grant  Grant
	format odata.Metadata
	base   string // the service root: http://host/account
	start  time.Time
}

// ServeHTTP implements http.Handler.
func (s *Server) ServeHTTP(rw http.ResponseWriter, r *http.Request) {
	start := time.Now()
	w := &timedWriter{ResponseWriter: rw, start: start}
	q := &request{s: s, w: w, r: r, start: start}
	// The names in their canonical form, set as Set would set them
	// (without canonicalizing them again for every request).
	h := w.Header()
	h["X-Ms-Request-Id"] = []string{s.requestID()}
	v := r.Header.Get("X-Ms-Version")
	if v == "" {
		v = DefaultVersion
	}
	var verr error
	if !s.anyVersion {
		verr = checkVersion(r.Header.Get("X-Ms-Version"))
	}
	if verr != nil {
		v = DefaultVersion
	}
	if v == DefaultVersion {
		h["X-Ms-Version"] = defaultVersionValue
	} else {
		h["X-Ms-Version"] = []string{v}
	}
	h["Date"] = dateValue(q.start)
	if id := r.Header.Get("X-Ms-Client-Request-Id"); id != "" {
		h["X-Ms-Client-Request-Id"] = []string{id}
	}
	h["Server"] = serverValue
	if s.applyCORS(w, r) {
		return
	}
	err := verr
	if err == nil {
		err = s.admit(w, r)
	}
	if err == nil {
		err = q.serve()
	}
	if err != nil {
		writeErrorFor(w, r, err)
	}
}

// writeErrorFor answers err as the operation r asks for answers its
// errors: in XML for the service's XML operations (properties,
// statistics, ACLs), in JSON for the others.
func writeErrorFor(w http.ResponseWriter, r *http.Request, err error) {
	if isXML(r) {
		writeXMLError(w, r, err)
	} else {
		writeError(w, r, err)
	}
}

// isXML tells whether r is one of the service's XML operations.
func isXML(r *http.Request) bool {
	comp := queryValue(r.URL.RawQuery, "comp")
	return comp == "properties" || comp == "stats" || comp == "acl"
}

// method is the request's method, after X-HTTP-Method tunnelling
// (POST with X-HTTP-Method: MERGE, as some clients send a merge).
func (q *request) method() string {
	if q.r.Method == http.MethodPost {
		if m := strings.ToUpper(q.r.Header.Get("X-HTTP-Method")); m != "" {
			return m
		}
	}
	return q.r.Method
}

// serve routes the request to its operation.
func (q *request) serve() error {
	account, rest, err := q.splitPath()
	if err != nil {
		return err
	}
	q.base = schemeOf(q.r) + "://" + q.r.Host + "/" + account
	// A table SAS naming a stored access policy finds it through the
	// request's context.
	q.r = q.r.WithContext(auth.WithPolicies(q.r.Context(), q.s.policy))
	grant, err := q.s.auth.Authorize(q.r)
	if err != nil {
		return err
	}
	q.grant = grant
	raw := q.r.URL.RawQuery
	if rest == "" {
		if queryValue(raw, "restype") == "service" {
			switch queryValue(raw, "comp") {
			case "properties":
				return q.serviceProperties()
			case "stats":
				return q.serviceStats(account != q.s.account)
			}
		}
		return errorf(odata.CodeInvalidURI, "%s /%s/ names no operation: use /%s/Tables, /%s/TABLE() or ?restype=service&comp=properties", q.r.Method, account, account, account)
	}
	if err := tableBeforeTables(q.method(), account, rest); err != nil {
		return err
	}
	res, err := parseResource(rest)
	if err != nil {
		return err
	}
	if queryValue(raw, "comp") == "acl" && !res.batch && !res.tables {
		if res.key != nil {
			return errorf(odata.CodeInvalidURI, "?comp=acl applies to a table, not to an entity: use /%s/%s?comp=acl", account, res.table)
		}
		return q.tableACL(res.table)
	}
	if q.format, err = responseFormat(q.r); err != nil {
		return err
	}
	switch {
	case res.batch:
		if q.method() != http.MethodPost {
			return q.badVerb("$batch", "POST")
		}
		return q.batch()
	case res.tables:
		return q.tablesOp(res)
	case res.key != nil:
		return q.entityOp(res.table, *res.key)
	}
	return q.collectionOp(res.table)
}

// splitPath returns the account and the rest of the path (still escaped),
// or InvalidUri when the path does not start with the account.
func (q *request) splitPath() (account, rest string, err error) {
	p := strings.TrimPrefix(q.r.URL.EscapedPath(), "/")
	seg, rest, _ := strings.Cut(p, "/")
	account, uerr := url.PathUnescape(seg)
	if uerr != nil || (account != q.s.account && account != q.s.account+"-secondary") {
		return "", "", errorf(odata.CodeInvalidURI,
			"the path %q does not start with the account this server serves: use %s://%s/%s/...", q.r.URL.Path, schemeOf(q.r), q.r.Host, q.s.account)
	}
	return account, strings.TrimSuffix(rest, "/"), nil
}

// badVerb answers a method the resource does not take.
func (q *request) badVerb(what, allowed string) error {
	q.w.Header().Set("Allow", allowed)
	return errorf(odata.CodeUnsupportedHTTPVerb, "%s does not take %s; use %s", what, q.method(), allowed)
}

// allow checks the grant, answering 403 AuthorizationPermissionMismatch.
func (q *request) allow(op auth.Op, table, pk, rk string) error {
	if c, ok := q.grant.(checker); ok {
		return c.Check(op, table, pk, rk)
	}
	if q.grant.Allows(op, table, pk, rk) {
		return nil
	}
	where := "the account"
	if table != "" {
		where = "table " + table
	}
	return errorf(odata.CodeAuthorizationPermissionMismatch, "the credentials of this request do not allow %s on %s", op, where)
}

// The values of the headers every JSON response carries, one slice for
// all responses rather than one a response: net/http only reads them, and
// a slice of one value has no room that an Add could write into.
var (
	dataServiceVersionValue = []string{"3.0;"}
	noSniffValue            = []string{"nosniff"}
	noCacheValue            = []string{"no-cache"}
	jsonContentTypeValues   = map[odata.Metadata][]string{
		odata.NoMetadata:      {jsonContentType(odata.NoMetadata)},
		odata.MinimalMetadata: {jsonContentType(odata.MinimalMetadata)},
		odata.FullMetadata:    {jsonContentType(odata.FullMetadata)},
	}
)

var (
	defaultVersionValue = []string{DefaultVersion}
	serverValue         = []string{"tstable"}
	lastDate            atomic.Pointer[dateHeader]
)

// dateHeader is the Date header's value for one second.
type dateHeader struct {
	unix  int64
	value []string
}

// dateValue is the Date header's value at t, made once a second (a
// second's requests share it, as they share its text).
func dateValue(t time.Time) []string {
	sec := t.Unix()
	if d := lastDate.Load(); d != nil && d.unix == sec {
		return d.value
	}
	d := &dateHeader{unix: sec, value: []string{t.UTC().Format(http.TimeFormat)}}
	lastDate.Store(d)
	return d.value
}

// commonJSONHeaders sets the headers of every JSON response.
func (q *request) commonJSONHeaders() {
	h := q.w.Header()
	h["Dataserviceversion"] = dataServiceVersionValue // the canonical forms, as Set writes them
	h["X-Content-Type-Options"] = noSniffValue
	h["Cache-Control"] = noCacheValue
}

// writeJSON answers status with a JSON body at the request's level.
func (q *request) writeJSON(status int, body []byte) {
	q.commonJSONHeaders()
	if v, ok := jsonContentTypeValues[q.format]; ok {
		q.w.Header()["Content-Type"] = v
	} else {
		q.w.Header().Set("Content-Type", jsonContentType(q.format))
	}
	q.w.WriteHeader(status)
	if q.r.Method != http.MethodHead {
		q.w.Write(body)
	}
}

// writeNoContent answers 204 (or another status) without a body.
func (q *request) writeNoContent(status int) {
	q.commonJSONHeaders()
	q.w.WriteHeader(status)
}

// timedWriter adds the Server-Timing header (the standard one browsers'
// developer tools and benchmarks read) with the time the server took to
// answer, up to the moment it writes the status: the work, not the
// transfer.
type timedWriter struct {
	http.ResponseWriter
	start   time.Time
	written bool
}

func (w *timedWriter) WriteHeader(status int) {
	if !w.written {
		w.written = true
		d := float64(time.Since(w.start).Microseconds()) / 1000
		var b [32]byte
		w.Header()["Server-Timing"] = []string{string(strconv.AppendFloat(append(b[:0], "app;dur="...), d, 'f', 3, 64))}
	}
	w.ResponseWriter.WriteHeader(status)
}

func (w *timedWriter) Write(b []byte) (int, error) {
	if !w.written {
		w.WriteHeader(http.StatusOK)
	}
	return w.ResponseWriter.Write(b)
}

// schemeOf is the scheme the request came in with: https over TLS.
func schemeOf(r *http.Request) string {
	if r.TLS != nil {
		return "https"
	}
	return "http"
}
