package odata

import (
	"errors"
	"fmt"
	"sync"
)

// Code is an error code of the Table service (or one of tstable's own, for
// what only a local file can suffer), as it appears in the service's error
// body and in tstable's "error: <Code>: …" lines.
type Code string

// The service's error codes that tstable returns, and tstable's own. Each
// one's HTTP status is in statuses below, and nowhere else.
const (
	CodeTableAlreadyExists                      Code = "TableAlreadyExists"
	CodeTableNotFound                           Code = "TableNotFound"
	CodeTableBeingDeleted                       Code = "TableBeingDeleted"
	CodeEntityAlreadyExists                     Code = "EntityAlreadyExists"
	CodeResourceNotFound                        Code = "ResourceNotFound"
	CodeUpdateConditionNotSatisfied             Code = "UpdateConditionNotSatisfied"
	CodeInvalidInput                            Code = "InvalidInput"
	CodeOutOfRangeInput                         Code = "OutOfRangeInput"
	CodePropertyValueTooLarge                   Code = "PropertyValueTooLarge"
	CodeEntityTooLarge                          Code = "EntityTooLarge"
	CodeRequestBodyTooLarge                     Code = "RequestBodyTooLarge"
	CodeTooManyProperties                       Code = "TooManyProperties"
	CodePropertyNameTooLong                     Code = "PropertyNameTooLong"
	CodePropertyNameInvalid                     Code = "PropertyNameInvalid"
	CodeInvalidResourceName                     Code = "InvalidResourceName"
	CodeInvalidValueType                        Code = "InvalidValueType"
	CodePropertiesNeedValue                     Code = "PropertiesNeedValue"
	CodeInvalidDuplicateRow                     Code = "InvalidDuplicateRow"
	CodeCommandsInBatchActOnDifferentPartitions Code = "CommandsInBatchActOnDifferentPartitions"
	CodeMissingRequiredHeader                   Code = "MissingRequiredHeader"
	CodeInvalidHeaderValue                      Code = "InvalidHeaderValue"
	CodeInvalidQueryParameterValue              Code = "InvalidQueryParameterValue"
	CodeInvalidURI                              Code = "InvalidUri"
	CodeInvalidContinuation                     Code = "InvalidContinuationToken"
	CodeInvalidCorsHeaderValue                  Code = "InvalidCorsHeaderValue"
	CodeCorsPreflightFailure                    Code = "CorsPreflightFailure"
	CodeAtomFormatNotSupported                  Code = "AtomFormatNotSupported"
	CodeUnsupportedHTTPVerb                     Code = "UnsupportedHttpVerb"
	CodeNotImplemented                          Code = "NotImplemented"
	CodeAuthenticationFailed                    Code = "AuthenticationFailed"
	CodeInvalidAuthenticationInfo               Code = "InvalidAuthenticationInfo"
	CodeAuthorizationFailure                    Code = "AuthorizationFailure"
	CodeAuthorizationPermissionMismatch         Code = "AuthorizationPermissionMismatch"
	CodeAuthorizationResourceTypeMismatch       Code = "AuthorizationResourceTypeMismatch"
	CodeAuthorizationServiceMismatch            Code = "AuthorizationServiceMismatch"
	CodeAuthorizationSourceIPMismatch           Code = "AuthorizationSourceIPMismatch"
	CodeAuthorizationProtocolMismatch           Code = "AuthorizationProtocolMismatch"
	CodeInvalidXMLDocument                      Code = "InvalidXmlDocument"
	CodeOperationTimedOut                       Code = "OperationTimedOut"
	CodeInternalError                           Code = "InternalError"
	CodeServerBusy                              Code = "ServerBusy"
	CodeServiceUnreachable                      Code = "ServiceUnreachable"
	// tstable's own: the local file is held by another process, or damaged.
	CodeDatabaseLocked  Code = "DatabaseLocked"
	CodeDatabaseDamaged Code = "DatabaseDamaged"
)

// The HTTP statuses the table below uses (net/http has them too, but
// odata does not import it: a local read needs no HTTP).
const (
	statusBadRequest            = 400
	statusConflict              = 409
	statusForbidden             = 403
	statusInternalServerError   = 500
	statusMethodNotAllowed      = 405
	statusNotFound              = 404
	statusNotImplemented        = 501
	statusPreconditionFailed    = 412
	statusRequestEntityTooLarge = 413
	statusServiceUnavailable    = 503
	statusUnsupportedMediaType  = 415
)

// statuses is the HTTP status the service answers each code with, built
// the first time a status is asked for.
var statuses = sync.OnceValue(func() map[Code]int {
	return map[Code]int{
		CodeTableAlreadyExists:                      statusConflict,
		CodeTableNotFound:                           statusNotFound,
		CodeTableBeingDeleted:                       statusConflict,
		CodeEntityAlreadyExists:                     statusConflict,
		CodeResourceNotFound:                        statusNotFound,
		CodeUpdateConditionNotSatisfied:             statusPreconditionFailed,
		CodeInvalidInput:                            statusBadRequest,
		CodeOutOfRangeInput:                         statusBadRequest,
		CodePropertyValueTooLarge:                   statusBadRequest,
		CodeEntityTooLarge:                          statusBadRequest,
		CodeRequestBodyTooLarge:                     statusRequestEntityTooLarge,
		CodeTooManyProperties:                       statusBadRequest,
		CodePropertyNameTooLong:                     statusBadRequest,
		CodePropertyNameInvalid:                     statusBadRequest,
		CodeInvalidResourceName:                     statusBadRequest,
		CodeInvalidValueType:                        statusBadRequest,
		CodePropertiesNeedValue:                     statusBadRequest,
		CodeInvalidDuplicateRow:                     statusBadRequest,
		CodeCommandsInBatchActOnDifferentPartitions: statusBadRequest,
		CodeMissingRequiredHeader:                   statusBadRequest,
		CodeInvalidHeaderValue:                      statusBadRequest,
		CodeInvalidQueryParameterValue:              statusBadRequest,
		CodeInvalidURI:                              statusBadRequest,
		CodeInvalidContinuation:                     statusBadRequest,
		CodeInvalidCorsHeaderValue:                  statusBadRequest,
		CodeCorsPreflightFailure:                    statusForbidden,
		CodeAtomFormatNotSupported:                  statusUnsupportedMediaType,
		CodeUnsupportedHTTPVerb:                     statusMethodNotAllowed,
		CodeNotImplemented:                          statusNotImplemented,
		CodeAuthenticationFailed:                    statusForbidden,
		CodeInvalidAuthenticationInfo:               statusBadRequest, // 401 with a bearer challenge: see server/auth
		CodeAuthorizationFailure:                    statusForbidden,
		CodeAuthorizationPermissionMismatch:         statusForbidden,
		CodeAuthorizationResourceTypeMismatch:       statusForbidden,
		CodeAuthorizationServiceMismatch:            statusForbidden,
		CodeAuthorizationSourceIPMismatch:           statusForbidden,
		CodeAuthorizationProtocolMismatch:           statusForbidden,
		CodeInvalidXMLDocument:                      statusBadRequest,
		CodeOperationTimedOut:                       statusInternalServerError,
		CodeInternalError:                           statusInternalServerError,
		CodeServerBusy:                              statusServiceUnavailable,
		CodeServiceUnreachable:                      statusServiceUnavailable,
		CodeDatabaseLocked:                          statusConflict,
		CodeDatabaseDamaged:                         statusInternalServerError,
	}
})

// Status is the HTTP status the service answers the code with; a code
// this table does not know (one a remote service invented) is 500.
func (c Code) Status() int {
	if s, ok := statuses()[c]; ok {
		return s
	}
	return statusInternalServerError
}

// Error is a refused operation, described as the service describes it: its
// error code, a message that says what was wrong and where, and for an
// entity group transaction the 0-based index of the failing operation (-1
// otherwise). Its HTTP status is its code's.
type Error struct {
	Code    Code
	Message string
	Index   int
}

// Error renders "Code: message", prefixed with "operation N: " for a batch.
func (e *Error) Error() string {
	if e.Index >= 0 {
		return fmt.Sprintf("operation %d: %s: %s", e.Index, e.Code, e.Message)
	}
	return string(e.Code) + ": " + e.Message
}

// Status is the HTTP status of the error's code.
func (e *Error) Status() int { return e.Code.Status() }

// Errorf makes an Error with no batch index.
func Errorf(code Code, format string, args ...any) *Error {
	return &Error{Code: code, Message: fmt.Sprintf(format, args...), Index: -1}
}

// AtIndex returns a copy of err (when it is an *Error) that names the
// failing operation of a batch; other errors are wrapped in InvalidInput.
func AtIndex(err error, i int) *Error {
	var e *Error
	if errors.As(err, &e) {
		c := *e
		c.Index = i
		return &c
	}
	return &Error{Code: CodeInvalidInput, Message: err.Error(), Index: i}
}

// CodeOf returns the error code carried by err, or "" when err is not (and
// does not wrap) an *Error.
func CodeOf(err error) Code {
	var e *Error
	if errors.As(err, &e) {
		return e.Code
	}
	return ""
}

// IsCode reports whether err carries the given error code.
func IsCode(err error, code Code) bool { return err != nil && CodeOf(err) == code }
