package odata

import (
	"errors"
	"strconv"
)

// The service's JSON wire format for one entity (the "minimal metadata"
// shape), which tstable reads and writes:
//
//	{"odata.etag":"W/\"datetime'2014-08-22T00%3A50%3A32.1234567Z'\"",
//	 "PartitionKey":"Sales","RowKey":"00010",
//	 "Timestamp":"2014-08-22T00:50:32.1234567Z",
//	 "Age":23,
//	 "Big@odata.type":"Edm.Int64","Big":"1234567890123",
//	 "When@odata.type":"Edm.DateTime","When":"2014-08-22T00:50:32Z"}
//
// Output (AppendEntityJSON) writes the service's order: odata.etag (once
// stored), PartitionKey, RowKey, Timestamp (once stored), then the
// properties in their stored order. By type:
//
//   - String: a JSON string. Boolean: true or false. Int32: a JSON number.
//   - Int64: a decimal string, annotated Edm.Int64.
//   - Double: a JSON number, a whole value written with ".0" (3.0) or an
//     exponent (1e+21). tstable's own output (AppendEntityJSON, the
//     command line, request bodies) annotates a whole value Edm.Double, so
//     that a reader that writes 3.0 back as 3 keeps its type; the service's
//     answers, and serve's (AppendEntityJSONAs), leave it bare, and a
//     reader that takes 3.0 for an integer, as JavaScript does, sees an
//     Int32, as against the service. NaN, Infinity and -Infinity are the
//     strings "NaN", "Infinity", "-Infinity", annotated Edm.Double.
//   - DateTime: ISO 8601 in UTC with up to 7 fractional digits, trailing
//     zeros left out (2014-08-22T00:50:32Z, …32.5Z), annotated; the
//     Timestamp and the ETag are written the same way.
//   - Guid: the canonical lower-case string, annotated Edm.Guid.
//   - Binary: standard base64 (with padding), annotated Edm.Binary.
//
// Input (DecodeEntityJSON) accepts one flat JSON object:
//
//   - "Name@odata.type" annotations may come before or after the value;
//     the "Edm." prefix is required, as the service requires it.
//   - Which JSON value becomes which Edm type, with or without an
//     annotation, is in jsontypes.go.
//   - Strings, names included, must be valid UTF-8, and a \u escape of a
//     UTF-16 surrogate must be one half of a pair (\ud83d\ude00). Invalid
//     bytes and lone surrogates (\ud800) are refused with their byte
//     offset, not replaced by U+FFFD: the service refuses invalid text, and
//     a silent replacement would store something else than was sent.
//   - A null value drops the property (and its annotation).
//   - "odata.*" metadata keys (odata.etag, odata.metadata, …), other
//     "@odata.*" annotations than odata.type, and Timestamp are ignored:
//     the store sets Timestamp and ETag itself.
//   - PartitionKey and RowKey must be strings. Nested objects and arrays
//     are refused (the service has no such types), as are duplicate names,
//     an annotation naming an unknown type, and anything after the object.
//
// The encoder is in jsonencode.go, the decoder in jsondecode.go and
// jsontokenizer.go. Errors are *JSONError values naming the property and
// what to do.

// JSONError is an entity JSON document tstable cannot read: which property
// (or "" for the document itself), the byte offset where the problem was
// found, and what was wrong.
type JSONError struct {
	Property string
	Offset   int
	Msg      string
	// Code is the service's code for the problem: PropertiesNeedValue for
	// an entity without PartitionKey or RowKey (Missing names it),
	// InvalidInput ("") for the rest (see DecodeErrorCode).
	Code    Code
	Missing string
}

// DecodeErrorCode is the service's code for an error of DecodeEntityJSON:
// PropertiesNeedValue when the entity lacks a key, else InvalidInput.
func DecodeErrorCode(err error) Code {
	var je *JSONError
	if errors.As(err, &je) && je.Code != "" {
		return je.Code
	}
	return CodeInvalidInput
}

// Error returns "property "Name": message" or "at byte N: message".
func (e *JSONError) Error() string {
	if e.Property != "" {
		return "property " + strconv.Quote(e.Property) + ": " + e.Msg
	}
	return "at byte " + strconv.Itoa(e.Offset) + ": " + e.Msg
}
