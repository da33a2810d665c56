package server

import (
	"net/http"
	"strconv"
	"strings"

	"github.com/tstable/tstable/odata"
	"github.com/tstable/tstable/server/auth"
)

// CORS as the service applies it: the rules set with Set Table Service
// Properties decide, the first that matches a request's origin and method
// (and, for a preflight, every header it asks for). A preflight (OPTIONS)
// no rule matches is refused 403 CorsPreflightFailure; a request no rule
// matches is answered without Access-Control-* headers (with Vary: Origin
// when there are rules). Options.CORSAnyOrigin answers every origin
// instead, for browser apps on a local dev server.

// corsExposed is what a rule exposing "*" exposes: the headers the table
// service's operations answer with beyond the CORS-safelisted ones.
var corsExposed = strings.Join([]string{
	"ETag", "Date", "Location", "Preference-Applied", "DataServiceVersion", "DataServiceId",
	"x-ms-request-id", "x-ms-version", "x-ms-client-request-id", "x-ms-error-code",
	"x-ms-continuation-NextTableName", "x-ms-continuation-NextPartitionKey", "x-ms-continuation-NextRowKey",
}, ",")

// applyCORS answers a preflight (true: the response is written) or adds
// to any other request's response the CORS headers its matching rule
// grants.
func (s *Server) applyCORS(w http.ResponseWriter, r *http.Request) bool {
	if s.corsAnyOrigin {
		auth.AddCORSHeaders(w, r)
		return auth.Preflight(w, r)
	}
	if r.Method == http.MethodOptions {
		s.preflight(w, r)
		return true
	}
	origin := r.Header.Get("Origin")
	if origin == "" {
		return false
	}
	rules := s.corsRules()
	rule, ok := matchCORS(rules, origin, r.Method, nil)
	h := w.Header()
	switch {
	case ok && allowsAnyOrigin(rule):
		h.Set("Access-Control-Allow-Origin", "*")
	case ok:
		h.Set("Access-Control-Allow-Origin", origin)
		h.Set("Access-Control-Allow-Credentials", "true")
		h.Set("Vary", "Origin")
	case len(rules) > 0:
		h.Set("Vary", "Origin")
	}
	if ok {
		h.Set("Access-Control-Expose-Headers", exposed(rule))
	}
	return false
}

// preflight answers an OPTIONS request by the rules.
func (s *Server) preflight(w http.ResponseWriter, r *http.Request) {
	origin, method := r.Header.Get("Origin"), r.Header.Get("Access-Control-Request-Method")
	if origin == "" || method == "" {
		writeErrorFor(w, r, errorf(odata.CodeInvalidCorsHeaderValue,
			"an OPTIONS request is a CORS preflight, with Origin and Access-Control-Request-Method (a browser sends them itself)"))
		return
	}
	var asked []string
	for _, v := range r.Header.Values("Access-Control-Request-Headers") {
		for _, name := range strings.Split(v, ",") {
			if name = strings.TrimSpace(name); name != "" {
				asked = append(asked, name)
			}
		}
	}
	rule, ok := matchCORS(s.corsRules(), origin, method, asked)
	if !ok {
		writeErrorFor(w, r, errorf(odata.CodeCorsPreflightFailure,
			"no CORS rule of the account allows origin %.80q with %s and these headers; add one with Set Table Service Properties (or serve with --cors-any-origin on a local dev server)", origin, method))
		return
	}
	h := w.Header()
	h.Set("Access-Control-Allow-Origin", origin)
	h.Set("Access-Control-Allow-Methods", method)
	if len(asked) > 0 {
		h.Set("Access-Control-Allow-Headers", strings.Join(asked, ","))
	}
	h.Set("Access-Control-Allow-Credentials", "true")
	h.Set("Access-Control-Max-Age", strconv.Itoa(rule.MaxAgeInSeconds))
	h.Set("Content-Length", "0")
	w.WriteHeader(http.StatusOK)
}

// matchCORS returns the first rule that allows origin, method and every
// header of asked.
func matchCORS(rules []corsRule, origin, method string, asked []string) (corsRule, bool) {
	for _, rule := range rules {
		if listHas(rule.AllowedOrigins, origin, false) && listHas(rule.AllowedMethods, method, false) && allHeaders(rule.AllowedHeaders, asked) {
			return rule, true
		}
	}
	return corsRule{}, false
}

// allHeaders reports whether a rule's AllowedHeaders allow every name.
func allHeaders(allowed string, names []string) bool {
	for _, n := range names {
		if !listHas(allowed, n, true) {
			return false
		}
	}
	return true
}

// listHas reports whether a rule's comma-separated list holds v, or "*";
// with prefixes, an entry ending in * holds every name it begins.
func listHas(list, v string, prefixes bool) bool {
	for _, e := range strings.Split(list, ",") {
		e = strings.TrimSpace(e)
		switch {
		case e == "*", strings.EqualFold(e, v):
			return true
		case prefixes && strings.HasSuffix(e, "*") && len(v) >= len(e)-1 && strings.EqualFold(v[:len(e)-1], e[:len(e)-1]):
			return true
		}
	}
	return false
}

func allowsAnyOrigin(rule corsRule) bool { return listHas(rule.AllowedOrigins, "\x00", false) }

// exposed is the Access-Control-Expose-Headers of a rule.
func exposed(rule corsRule) string {
	if listHas(rule.ExposedHeaders, "\x00", false) {
		return corsExposed
	}
	return rule.ExposedHeaders
}
