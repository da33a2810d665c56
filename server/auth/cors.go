package auth

import (
	"net/http"
	"strings"

	"github.com/tstable/tstable/odata"
)

// corsMaxAge is how long, in seconds, a browser may cache a preflight's answer.
const corsMaxAge = "3600"

// corsExposedHeaders are the response headers a browser app may read: the
// ones the table service's operations answer with beyond the CORS-safelisted
// ones (an ETag for optimistic concurrency, continuation tokens for paging).
var corsExposedHeaders = strings.Join([]string{
	"ETag", "Date", "Location", "Preference-Applied", "DataServiceVersion", "DataServiceId",
	"x-ms-request-id", "x-ms-version", "x-ms-client-request-id", "x-ms-error-code",
	"x-ms-continuation-NextTableName", "x-ms-continuation-NextPartitionKey", "x-ms-continuation-NextRowKey",
}, ", ")

// Preflight answers a CORS preflight: when r is an OPTIONS request it
// writes the response and returns true; otherwise it writes nothing and
// returns false. It allows every origin, method and header, as an
// account whose CORS rule is AllowedOrigins=*, AllowedMethods=all,
// AllowedHeaders=* would: browser apps on any local dev server can call
// the server (tstable serve --cors-any-origin; without it, the server
// applies the account's own CORS rules, as the service does). This opens
// nothing to other sites: CORS guards ambient credentials such as cookies,
// and every table request carries its credentials explicitly.
//
// A preflight without Origin or Access-Control-Request-Method is answered
// 400 InvalidCorsHeaderValue, as the service answers it. A preflight needs
// no credentials; the server should call Preflight before Authorize.
func Preflight(w http.ResponseWriter, r *http.Request) bool {
	if r.Method != http.MethodOptions {
		return false
	}
	origin := r.Header.Get("Origin")
	method := r.Header.Get("Access-Control-Request-Method")
	if origin == "" || method == "" {
		missing := "Origin"
		if origin != "" {
			missing = "Access-Control-Request-Method"
		}
		writeCORSError(w, r, "the OPTIONS request is not a CORS preflight: it has no "+missing+
			" header (a browser sends Origin and Access-Control-Request-Method itself)")
		return true
	}
	h := w.Header()
	h.Set("Access-Control-Allow-Origin", origin)
	h.Set("Access-Control-Allow-Methods", method)
	if hs := r.Header.Values("Access-Control-Request-Headers"); len(hs) > 0 {
		h.Set("Access-Control-Allow-Headers", strings.Join(hs, ", "))
	}
	h.Set("Access-Control-Allow-Credentials", "true")
	h.Set("Access-Control-Max-Age", corsMaxAge)
	h.Add("Vary", "Origin")
	h.Add("Vary", "Access-Control-Request-Method")
	h.Add("Vary", "Access-Control-Request-Headers")
	h.Set("Content-Length", "0")
	w.WriteHeader(http.StatusOK)
	return true
}

// AddCORSHeaders adds to the response to r the headers that let a browser
// app read it: when r has an Origin, that origin is allowed and the table
// service's response headers are exposed. Call it before the response's
// header is written, for errors too (a browser app cannot read a refused
// request's error code otherwise). Without an Origin it adds nothing.
func AddCORSHeaders(w http.ResponseWriter, r *http.Request) {
	origin := r.Header.Get("Origin")
	if origin == "" {
		return
	}
	h := w.Header()
	h.Set("Access-Control-Allow-Origin", origin)
	h.Set("Access-Control-Allow-Credentials", "true")
	h.Set("Access-Control-Expose-Headers", corsExposedHeaders)
	h.Add("Vary", "Origin")
}

// writeCORSError answers a malformed preflight with the service's JSON
// error document.
func writeCORSError(w http.ResponseWriter, r *http.Request, msg string) {
	body, _ := odata.MarshalJSON(map[string]any{"odata.error": map[string]any{
		"code":    odata.CodeInvalidCorsHeaderValue,
		"message": map[string]string{"lang": "en-US", "value": msg},
	}})
	h := w.Header()
	h.Set("x-ms-error-code", string(odata.CodeInvalidCorsHeaderValue))
	h.Set("Content-Type", "application/json;odata=minimalmetadata;streaming=true;charset=utf-8")
	w.WriteHeader(odata.CodeInvalidCorsHeaderValue.Status())
	w.Write(body)
}
