package store

import (
	"errors"
	"fmt"
)

// Error codes the service returns, and tstable with it.
const (
	CodeTableAlreadyExists                      = "TableAlreadyExists"
	CodeTableNotFound                           = "TableNotFound"
	CodeTableBeingDeleted                       = "TableBeingDeleted"
	CodeEntityAlreadyExists                     = "EntityAlreadyExists"
	CodeResourceNotFound                        = "ResourceNotFound"
	CodeUpdateConditionNotSatisfied             = "UpdateConditionNotSatisfied"
	CodeInvalidInput                            = "InvalidInput"
	CodeOutOfRangeInput                         = "OutOfRangeInput"
	CodePropertyValueTooLarge                   = "PropertyValueTooLarge"
	CodeEntityTooLarge                          = "EntityTooLarge"
	CodeRequestBodyTooLarge                     = "RequestBodyTooLarge"
	CodeTooManyProperties                       = "TooManyProperties"
	CodePropertyNameTooLong                     = "PropertyNameTooLong"
	CodePropertyNameInvalid                     = "PropertyNameInvalid"
	CodeInvalidResourceName                     = "InvalidResourceName"
	CodeInvalidValueType                        = "InvalidValueType"
	CodeInvalidDuplicateRow                     = "InvalidDuplicateRow"
	CodeCommandsInBatchActOnDifferentPartitions = "CommandsInBatchActOnDifferentPartitions"
	CodeMissingRequiredHeader                   = "MissingRequiredHeader"
	CodeInvalidContinuation                     = "InvalidContinuationToken"
	CodeAuthenticationFailed                    = "AuthenticationFailed"
	CodeServerBusy                              = "ServerBusy"
	CodeDatabaseLocked                          = "DatabaseLocked"
)

// Error is a refused operation, described as the service describes it: its
// error code, the HTTP status the service would answer with, a message that
// says what was wrong and where, and for an entity group transaction the
// 0-based index of the failing operation (-1 otherwise).
type Error struct {
	Code    string
	Status  int
	Message string
	Index   int
}

// Error renders "Code: message", prefixed with "operation N: " for a batch.
func (e *Error) Error() string {
	if e.Index >= 0 {
		return fmt.Sprintf("operation %d: %s: %s", e.Index, e.Code, e.Message)
	}
	return e.Code + ": " + e.Message
}

// Errorf makes an Error with no batch index.
func Errorf(code string, status int, format string, args ...any) *Error {
	return &Error{Code: code, Status: status, Message: fmt.Sprintf(format, args...), Index: -1}
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
	return &Error{Code: CodeInvalidInput, Status: 400, Message: err.Error(), Index: i}
}

// CodeOf returns the service error code carried by err, or "" when err is
// not (and does not wrap) an *Error.
func CodeOf(err error) string {
	var e *Error
	if errors.As(err, &e) {
		return e.Code
	}
	return ""
}

// IsCode reports whether err carries the given service error code.
func IsCode(err error, code string) bool { return err != nil && CodeOf(err) == code }
