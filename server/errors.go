package server

import (
	"bytes"
	"context"
	"encoding/xml"
	"errors"
	"net/http"
	"strconv"
	"strings"
	"time"

	"github.com/tstable/tstable/odata"
)

// errorf makes a coded error; its HTTP status is its code's.
func errorf(code odata.Code, format string, args ...any) error {
	return odata.Errorf(code, format, args...)
}

// queryError is a query option that does not parse: 400 InvalidInput,
// naming the option, its text and the column of the problem (a $filter's
// syntax error in the service's words too).
func queryError(param, text string, err error) error {
	coded := errorf(odata.CodeInvalidInput, "%s %q: %v", param, text, err)
	if param == "$filter" {
		return filterSyntax(text, err, coded)
	}
	return coded
}

// failure is what an error tells a client: the service's code, the HTTP
// status that goes with it, the service's sentence for it (servicetext.go),
// tstable's own message, and a batch operation's index (-1 when there is
// none).
type failure struct {
	code    odata.Code
	status  int
	text    string // the service's sentence; "" when it has none
	message string // tstable's
	index   int
	header  http.Header // headers of the refusal's own (a bearer challenge)
}

// shapedError is an error that sets its response's status and some of its
// headers itself, as a bearer challenge does (401 with WWW-Authenticate;
// see auth.ChallengeError).
type shapedError interface {
	error
	HTTPStatus() int
	HTTPHeader() http.Header
}

// describe turns any error into what the client of request r is told. An
// error that carries no code is the server's own fault: 500 InternalError.
func describe(err error, r *http.Request) failure {
	f := codedFailure(err)
	var p *phrased
	if errors.As(err, &p) {
		f.text = p.text
	}
	f.text = serviceText(f, r)
	return f
}

// codedFailure is what err says of itself: its code, status and message.
func codedFailure(err error) failure {
	var e *odata.Error
	if errors.As(err, &e) {
		f := failure{code: e.Code, status: e.Status(), message: e.Message, index: e.Index}
		var shaped shapedError
		if errors.As(err, &shaped) {
			f.status, f.header = shaped.HTTPStatus(), shaped.HTTPHeader()
		}
		return f
	}
	if errors.Is(err, context.Canceled) || errors.Is(err, context.DeadlineExceeded) {
		return failure{code: odata.CodeOperationTimedOut, status: odata.CodeOperationTimedOut.Status(), message: "the request was cancelled before it finished", index: -1}
	}
	return failure{code: odata.CodeInternalError, status: odata.CodeInternalError.Status(), message: "the server failed to answer: " + err.Error(), index: -1}
}

// errorValue is the message as the service words it: "N:" before it for a
// batch operation, its sentence, then the request id and time on their
// own lines; then tstable's message on a last line, "tstable: ..." (its
// own line breaks made spaces). A
// code the service has no sentence for has tstable's message in its
// place, and no last line.
func errorValue(f failure, requestID string, now time.Time) string {
	first, detail := f.text, f.message
	if first == "" {
		first, detail = f.message, ""
	}
	if f.index >= 0 {
		first = strconv.Itoa(f.index) + ":" + first
	}
	msg := first + "\nRequestId:" + requestID + "\nTime:" + now.UTC().Format("2006-01-02T15:04:05.0000000Z")
	if detail != "" {
		msg += "\ntstable: " + strings.ReplaceAll(detail, "\n", " ")
	}
	return msg
}

// appendErrorJSON appends the service's JSON error document.
func appendErrorJSON(dst []byte, f failure, requestID string, now time.Time) []byte {
	dst = append(dst, `{"odata.error":{"code":`...)
	dst = odata.AppendJSONString(dst, string(f.code))
	dst = append(dst, `,"message":{"lang":"en-US","value":`...)
	dst = odata.AppendJSONString(dst, errorValue(f, requestID, now))
	return append(dst, "}}}"...)
}

// addHeaders sets the error code's header and the failure's own.
func (f failure) addHeaders(h http.Header) {
	h.Set("x-ms-error-code", string(f.code))
	for k, v := range f.header {
		h[k] = v
	}
}

// writeError answers err in JSON, as the service answers its OData
// operations, with the x-ms-error-code header.
func writeError(w http.ResponseWriter, r *http.Request, err error) {
	f := describe(err, r)
	h := w.Header()
	f.addHeaders(h)
	h.Set("Content-Type", jsonContentType(odata.MinimalMetadata))
	h.Set("DataServiceVersion", "3.0;")
	h.Set("X-Content-Type-Options", "nosniff")
	h.Set("Cache-Control", "no-cache")
	w.WriteHeader(f.status)
	if r.Method != http.MethodHead {
		w.Write(appendErrorJSON(nil, f, h.Get("x-ms-request-id"), time.Now()))
	}
}

// writeXMLError answers err in XML, as the service answers the operations
// that are not OData (ACLs and service properties): its OData error
// document in XML, <m:error> with <m:code> and <m:message>.
func writeXMLError(w http.ResponseWriter, r *http.Request, err error) {
	f := describe(err, r)
	h := w.Header()
	f.addHeaders(h)
	h.Set("Content-Type", "application/xml")
	w.WriteHeader(f.status)
	if r.Method == http.MethodHead {
		return
	}
	var b bytes.Buffer
	b.WriteString(xml.Header)
	b.WriteString(`<m:error xmlns:m="http://schemas.microsoft.com/ado/2007/08/dataservices/metadata"><m:code>`)
	xml.EscapeText(&b, []byte(f.code))
	b.WriteString(`</m:code><m:message xml:lang="en-US">`)
	// Its lines end in plain newlines, as the service writes them
	// (EscapeText would write &#xA;).
	for i, line := range strings.Split(errorValue(f, h.Get("x-ms-request-id"), time.Now()), "\n") {
		if i > 0 {
			b.WriteByte('\n')
		}
		xml.EscapeText(&b, []byte(line))
	}
	b.WriteString(`</m:message></m:error>`)
	w.Write(b.Bytes())
}
