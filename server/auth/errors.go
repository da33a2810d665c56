package auth

import (
	"github.com/tstable/tstable/odata"
)

// errorf makes the coded error a refused request is answered with; its
// HTTP status is its code's (403 for every code this package uses).
func errorf(c odata.Code, format string, args ...any) error {
	return odata.Errorf(c, format, args...)
}
