package server

import (
	"errors"
	"fmt"
	"net"
	"net/http"
	"unicode/utf8"

	"github.com/tstable/tstable/odata"
)

// The service's own words. An error's message on the wire starts with the
// sentence the service writes for its code (and, for a few codes, for its
// case), then the RequestId and Time lines as the service writes them,
// then tstable's own message (what was wrong, where, what to do) on a last
// line of its own: "tstable: ...". The store's and odata's errors keep
// tstable's wording, which the CLI and the shell show; only here, at the
// server's edge, does the service's sentence go before it.

// serviceTexts is the sentence the service writes for each code. Where it
// comes from: R, the service's recorded answers (testdata/replay); A, its
// answers quoted elsewhere (Azurite's error table, SDK issues); D, the
// user message of Microsoft's error code pages (Table Storage error codes,
// Common REST API error codes), for codes no answer shows. A code not
// here (tstable's own, such as DatabaseLocked) has no sentence: its
// message is tstable's alone.
var serviceTexts = map[odata.Code]string{
	odata.CodeTableAlreadyExists:                      "The table specified already exists.",                                                                                                                                             // R
	odata.CodeTableNotFound:                           "The table specified does not exist.",                                                                                                                                             // R
	odata.CodeTableBeingDeleted:                       "The specified table is being deleted.",                                                                                                                                           // D
	odata.CodeEntityAlreadyExists:                     "The specified entity already exists.",                                                                                                                                            // R
	odata.CodeResourceNotFound:                        "The specified resource does not exist.",                                                                                                                                          // R
	odata.CodeUpdateConditionNotSatisfied:             "The update condition specified in the request was not satisfied.",                                                                                                                // R
	odata.CodeInvalidInput:                            "One of the request inputs is not valid.",                                                                                                                                         // D
	odata.CodeOutOfRangeInput:                         "One of the request inputs is out of range.",                                                                                                                                      // A
	odata.CodePropertyValueTooLarge:                   "The property value exceeds the maximum allowed size (64KB). If the property value is a string, it is UTF-16 encoded and the maximum number of characters should be 32K or less.", // A
	odata.CodeEntityTooLarge:                          "The entity is larger than the maximum allowed size (1MB).",                                                                                                                       // A
	odata.CodeRequestBodyTooLarge:                     "The request body is too large and exceeds the maximum permissible limit.",                                                                                                        // D
	odata.CodeTooManyProperties:                       "The entity contains more properties than allowed. Each entity can include up to 252 properties to store data. Each entity also has 3 system properties.",                         // R
	odata.CodePropertyNameTooLong:                     "The property name exceeds the maximum allowed length (255).",                                                                                                                     // R
	odata.CodePropertyNameInvalid:                     "The property name is invalid.",                                                                                                                                                   // D
	odata.CodeInvalidResourceName:                     "The specifed resource name contains invalid characters.",                                                                                                                         // A (the service's spelling)
	odata.CodeInvalidValueType:                        "The value specified is invalid.",                                                                                                                                                 // D
	odata.CodePropertiesNeedValue:                     "The values are not specified for all properties in the entity.",                                                                                                                  // R
	odata.CodeInvalidDuplicateRow:                     "The batch request contains multiple changes with same row key. An entity can appear only once in a batch request.",                                                               // R
	odata.CodeCommandsInBatchActOnDifferentPartitions: "All commands in a batch must operate on same entity group.",                                                                                                                      // A
	odata.CodeMissingRequiredHeader:                   "An HTTP header that's mandatory for this request is not specified.",                                                                                                              // D
	odata.CodeInvalidHeaderValue:                      "The value for one of the HTTP headers is not in the correct format.",                                                                                                             // A
	odata.CodeInvalidQueryParameterValue:              "Value for one of the query parameters specified in the request URI is invalid.",                                                                                                  // A
	odata.CodeInvalidURI:                              "The requested URI does not represent any resource on the server.",                                                                                                                // D
	odata.CodeInvalidCorsHeaderValue:                  "A required CORS header is not present.",                                                                                                                                          // A
	odata.CodeCorsPreflightFailure:                    "CORS not enabled or no matching rule found for this request.",                                                                                                                    // A
	odata.CodeAtomFormatNotSupported:                  "Atom format is not supported.",                                                                                                                                                   // A
	odata.CodeUnsupportedHTTPVerb:                     "The resource doesn't support specified Http Verb.",                                                                                                                               // A
	odata.CodeNotImplemented:                          "The requested operation is not implemented on the specified resource.",                                                                                                           // A
	odata.CodeAuthenticationFailed:                    "Server failed to authenticate the request. Make sure the value of Authorization header is formed correctly including the signature.",                                             // A
	odata.CodeInvalidAuthenticationInfo:               "The authentication information was not in the correct format. Verify the value of Authorization header.",                                                                         // D
	odata.CodeAuthorizationFailure:                    "This request is not authorized to perform this operation.",                                                                                                                       // R
	odata.CodeAuthorizationPermissionMismatch:         "This request is not authorized to perform this operation using this permission.",                                                                                                 // R
	odata.CodeAuthorizationResourceTypeMismatch:       "This request is not authorized to perform this operation using this resource type.",                                                                                              // A
	odata.CodeAuthorizationServiceMismatch:            "This request is not authorized to perform this operation using this service.",                                                                                                    // A
	odata.CodeAuthorizationSourceIPMismatch:           "This request is not authorized to perform this operation using this source IP %s.",                                                                                               // A, with the client's address
	odata.CodeAuthorizationProtocolMismatch:           "This request is not authorized to perform this operation using this protocol.",                                                                                                   // A
	odata.CodeInvalidXMLDocument:                      "XML specified is not syntactically valid.",                                                                                                                                       // R
	odata.CodeOperationTimedOut:                       "Operation could not be completed within the specified time.",                                                                                                                     // A
	odata.CodeInternalError:                           "The server encountered an internal error. Please retry the request.",                                                                                                             // D
	odata.CodeServerBusy:                              "The server is currently unable to receive requests. Please retry your request.",                                                                                                  // D
}

// The sentences of particular cases, where the service words a code
// otherwise than above.
const (
	// A changeset of more than 100 operations (R; the index is 99).
	textTooManyOperations = "The batch request operation exceeds the maximum 100 changes per change set."
	// A $filter that does not parse (R: position 7 in 'aaa bbb ccc', the
	// character after the token that is wrong, counted from 0).
	textFilterSyntax = "Syntax error at position %d in '%s'."
	// A bearer token refused with a challenge (401; A).
	textBearerChallenge = "Server failed to authenticate the request. Please refer to the information in the www-authenticate header."
)

// phrased is a coded error whose case the service words in a sentence of
// its own (one of the texts above).
type phrased struct {
	error
	text string
}

func (p *phrased) Unwrap() error { return p.error }

// tooManyOperations words err, a changeset's refusal for holding more than
// 100 operations, as the service does.
func tooManyOperations(err error) error {
	return &phrased{error: err, text: textTooManyOperations}
}

// filterSyntax words err, a refusal of the $filter src, as the service
// does when err is a *odata.SyntaxError; other errors are returned as
// they are.
func filterSyntax(src string, err, coded error) error {
	var se *odata.SyntaxError
	if !errors.As(err, &se) {
		return coded
	}
	return &phrased{error: coded, text: fmt.Sprintf(textFilterSyntax, syntaxPosition(src, se.Column), src)}
}

// syntaxPosition is where the service places a syntax error: just after
// the token at column col (1-based, in characters), counted in characters
// from 0; col-1 when no token starts there (the end of the filter).
func syntaxPosition(src string, col int) int {
	tokens, partial := odata.LexPartial(src)
	for _, t := range append(tokens, partial) {
		if t.Column == col && t.Kind != odata.TokenEOF {
			return col - 1 + utf8.RuneCountInString(t.Text)
		}
	}
	return max(col-1, 0)
}

// serviceText is the service's sentence for f, "" when the service has
// none for its code. r is the request (its client's address fills the
// sentence of a source IP refused).
func serviceText(f failure, r *http.Request) string {
	if f.text != "" {
		return f.text
	}
	if f.code == odata.CodeInvalidAuthenticationInfo && f.status == http.StatusUnauthorized {
		return textBearerChallenge
	}
	text := serviceTexts[f.code]
	if f.code == odata.CodeAuthorizationSourceIPMismatch {
		host, _, err := net.SplitHostPort(r.RemoteAddr)
		if err != nil {
			host = r.RemoteAddr
		}
		text = fmt.Sprintf(text, host)
	}
	return text
}
