package server

import (
	"errors"
	"net/http/httptest"
	"strings"
	"testing"
	"time"

	"github.com/tstable/tstable/odata"
	"github.com/tstable/tstable/server/auth"
)

// An error's message on the wire is the service's sentence for its code
// and case, then RequestId and Time as the service writes them, then
// tstable's own message; a code the service has no sentence for has
// tstable's message in its place. (TestServiceSentences sends requests
// for the sentences the recordings hold; TestReplayRealService compares
// them with the recordings.)
func TestErrorValue(t *testing.T) {
	at := time.Date(2021, 4, 15, 17, 53, 50, 626317000, time.UTC)
	req := httptest.NewRequest("GET", "/devstoreaccount1/T()", nil)
	req.RemoteAddr = "10.1.2.3:50001"
	cases := []struct {
		name string
		err  error
		want string
	}{
		{"a missing entity", errorf(odata.CodeResourceNotFound, `entity ("p", "r") does not exist`),
			"The specified resource does not exist.\nRequestId:id\nTime:2021-04-15T17:53:50.6263170Z\ntstable: entity (\"p\", \"r\") does not exist"},
		{"a batch operation", odata.AtIndex(errorf(odata.CodeEntityAlreadyExists, "entity exists"), 3),
			"3:The specified entity already exists.\nRequestId:id\nTime:2021-04-15T17:53:50.6263170Z\ntstable: entity exists"},
		{"a code of tstable's own", errorf(odata.CodeDatabaseDamaged, "the file is damaged"),
			"the file is damaged\nRequestId:id\nTime:2021-04-15T17:53:50.6263170Z"},
		{"no code", errors.New("disk on fire\nin bay 3"),
			"The server encountered an internal error. Please retry the request.\nRequestId:id\nTime:2021-04-15T17:53:50.6263170Z\ntstable: the server failed to answer: disk on fire in bay 3"},
		{"a bearer challenge", &auth.ChallengeError{Err: odata.Errorf(odata.CodeInvalidAuthenticationInfo, "the token is expired"), Challenge: "Bearer"},
			"Server failed to authenticate the request. Please refer to the information in the www-authenticate header.\nRequestId:id\nTime:2021-04-15T17:53:50.6263170Z\ntstable: the token is expired"},
		{"a source address refused", errorf(odata.CodeAuthorizationSourceIPMismatch, "not from 10.1.2.3"),
			"This request is not authorized to perform this operation using this source IP 10.1.2.3.\nRequestId:id\nTime:2021-04-15T17:53:50.6263170Z\ntstable: not from 10.1.2.3"},
	}
	for _, tc := range cases {
		if got := errorValue(describe(tc.err, req), "id", at); got != tc.want {
			t.Errorf("%s:\n got %q\nwant %q", tc.name, got, tc.want)
		}
	}
}

// Every code the service answers with has its sentence; tstable's own
// codes have none.
func TestEveryServiceCodeHasItsSentence(t *testing.T) {
	own := map[odata.Code]bool{odata.CodeDatabaseLocked: true, odata.CodeDatabaseDamaged: true,
		odata.CodeServiceUnreachable: true, odata.CodeInvalidContinuation: true}
	for _, c := range allCodes {
		text, ok := serviceTexts[c]
		if own[c] != !ok {
			t.Errorf("%s: sentence %q; want one only for a code of the service's", c, text)
		}
		if ok && (!strings.HasSuffix(text, ".") || strings.Contains(text, "\n")) {
			t.Errorf("%s: %q is not one sentence ending in a period", c, text)
		}
	}
}

// allCodes is every code odata names.
var allCodes = []odata.Code{
	odata.CodeTableAlreadyExists, odata.CodeTableNotFound, odata.CodeTableBeingDeleted, odata.CodeEntityAlreadyExists,
	odata.CodeResourceNotFound, odata.CodeUpdateConditionNotSatisfied, odata.CodeInvalidInput, odata.CodeOutOfRangeInput,
	odata.CodePropertyValueTooLarge, odata.CodeEntityTooLarge, odata.CodeRequestBodyTooLarge, odata.CodeTooManyProperties,
	odata.CodePropertyNameTooLong, odata.CodePropertyNameInvalid, odata.CodeInvalidResourceName, odata.CodeInvalidValueType,
	odata.CodePropertiesNeedValue, odata.CodeInvalidDuplicateRow, odata.CodeCommandsInBatchActOnDifferentPartitions,
	odata.CodeMissingRequiredHeader, odata.CodeInvalidHeaderValue, odata.CodeInvalidQueryParameterValue, odata.CodeInvalidURI,
	odata.CodeInvalidContinuation, odata.CodeInvalidCorsHeaderValue, odata.CodeCorsPreflightFailure, odata.CodeAtomFormatNotSupported,
	odata.CodeUnsupportedHTTPVerb, odata.CodeNotImplemented, odata.CodeAuthenticationFailed, odata.CodeInvalidAuthenticationInfo,
	odata.CodeAuthorizationFailure, odata.CodeAuthorizationPermissionMismatch, odata.CodeAuthorizationResourceTypeMismatch,
	odata.CodeAuthorizationServiceMismatch, odata.CodeAuthorizationSourceIPMismatch, odata.CodeAuthorizationProtocolMismatch,
	odata.CodeInvalidXMLDocument, odata.CodeOperationTimedOut, odata.CodeInternalError, odata.CodeServerBusy,
	odata.CodeServiceUnreachable, odata.CodeDatabaseLocked, odata.CodeDatabaseDamaged,
}

// A $filter's syntax error is placed as the service places it: just after
// the token that is wrong (recorded: position 7 in 'aaa bbb ccc',
// test_table_entity.test_query_invalid_filter#6).
func TestSyntaxPosition(t *testing.T) {
	cases := []struct {
		src  string
		want string
	}{
		{"aaa bbb ccc", "Syntax error at position 7 in 'aaa bbb ccc'."},
		{"Status eq", "Syntax error at position 9 in 'Status eq'."},
		{"Name eq 'Åsa' and and", "Syntax error at position 21 in 'Name eq 'Åsa' and and'."},
	}
	for _, tc := range cases {
		_, perr := odata.ParseFilter(tc.src)
		if perr == nil {
			t.Fatalf("%q parsed", tc.src)
		}
		err := queryError("$filter", tc.src, perr)
		var p *phrased
		if !errors.As(err, &p) || p.text != tc.want || odata.CodeOf(err) != odata.CodeInvalidInput {
			t.Errorf("%q: %v (%q), want InvalidInput %q", tc.src, err, p, tc.want)
		}
	}
}
