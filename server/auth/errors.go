package auth

import (
	"net/http"

	"github.com/tstable/tstable/odata"
)

// codeInvalidCorsHeaderValue answers, with HTTP status 400, a CORS
// preflight that lacks Origin or Access-Control-Request-Method. It is not
// in odata's table of codes, so Preflight writes its status itself.
const (
	codeInvalidCorsHeaderValue   odata.Code = "InvalidCorsHeaderValue"
	statusInvalidCorsHeaderValue            = http.StatusBadRequest
)

// errorf makes the coded error a refused request is answered with; its
// HTTP status is its code's (403 for every code this package uses).
func errorf(c odata.Code, format string, args ...any) error {
	return odata.Errorf(c, format, args...)
}
