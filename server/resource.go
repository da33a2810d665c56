package server

import (
	"net/http"
	"net/url"
	"strings"

	"github.com/tstable/tstable/odata"
)

// resource is what the path after the account names.
type resource struct {
	batch  bool       // $batch
	tables bool       // Tables or Tables('name')
	table  string     // the table (for Tables('name'), the name in quotes)
	named  bool       // Tables('name')
	key    *odata.Key // T(PartitionKey='a',RowKey='b')
}

// parseResource reads the path after the account: Tables, Tables('t'),
// $batch, T, T() or T(PartitionKey='a',RowKey='b'). Keys are percent-
// decoded, then read as OData string literals (a quote doubled inside).
func parseResource(escaped string) (*resource, error) {
	bad := func(why string) error {
		return errorf(odata.CodeInvalidURI, "the path %q is not a table resource: %s", escaped, why)
	}
	if strings.Contains(escaped, "/") {
		return nil, bad("expected one segment after the account, such as Tables, $batch, TABLE() or TABLE(PartitionKey='a',RowKey='b')")
	}
	seg, err := url.PathUnescape(escaped)
	if err != nil {
		return nil, bad("it has a malformed percent-encoding")
	}
	if seg == "$batch" {
		return &resource{batch: true}, nil
	}
	name, args, hasArgs := strings.Cut(seg, "(")
	res := &resource{table: name}
	if name == "" {
		return nil, bad("it names no table")
	}
	if strings.EqualFold(name, "Tables") {
		res.tables = true
	}
	if !hasArgs {
		return res, nil
	}
	args, ok := strings.CutSuffix(args, ")")
	if !ok {
		return nil, bad("the '(' is not closed by a ')' at the end")
	}
	if args == "" {
		if res.tables {
			return nil, bad("Tables() is not a resource; use Tables")
		}
		return res, nil
	}
	if res.tables {
		v, rest, err := quoted(args)
		if err != nil || rest != "" {
			return nil, bad("expected Tables('name')")
		}
		res.table, res.named = v, true
		return res, nil
	}
	var pk, rk *string
	for args != "" {
		k, rest, ok := strings.Cut(args, "=")
		if !ok {
			return nil, bad("expected PartitionKey='...',RowKey='...' in the parentheses")
		}
		v, rest, err := quoted(rest)
		if err != nil {
			return nil, bad("the value of " + k + " is not a quoted string ('...', a quote inside doubled)")
		}
		switch strings.TrimSpace(k) {
		case odata.PartitionKey:
			pk = &v
		case odata.RowKey:
			rk = &v
		default:
			return nil, bad("unexpected key " + k + "; expected PartitionKey and RowKey")
		}
		rest = strings.TrimSpace(rest)
		if rest != "" {
			if rest[0] != ',' {
				return nil, bad("expected ',' between PartitionKey and RowKey")
			}
			rest = strings.TrimSpace(rest[1:])
		}
		args = rest
	}
	if pk == nil || rk == nil {
		return nil, bad("an entity needs both PartitionKey='...' and RowKey='...'")
	}
	res.key = &odata.Key{PartitionKey: *pk, RowKey: *rk}
	return res, nil
}

// tableBeforeTables answers a path that puts a table before Tables
// (/ACCOUNT/TABLE/Tables, which a client sends when the service endpoint it
// was given ends in a table's name) as the service does: Create Table
// there is 400 PropertiesNeedValue, Delete Table 400 InvalidInput and
// Query Tables 501 NotImplemented. It is nil for every other path, which
// parseResource reads.
func tableBeforeTables(method, account, escaped string) error {
	table, tail, ok := strings.Cut(escaped, "/")
	if !ok || table == "" || strings.Contains(tail, "/") {
		return nil
	}
	res, err := parseResource(tail)
	if err != nil || !res.tables {
		return nil
	}
	var code odata.Code
	switch {
	case method == http.MethodPost && !res.named:
		code = odata.CodePropertiesNeedValue
	case method == http.MethodDelete && res.named:
		code = odata.CodeInvalidInput
	case method == http.MethodGet && !res.named:
		code = odata.CodeNotImplemented
	default:
		return nil
	}
	if t, err := url.PathUnescape(table); err == nil {
		table = t
	}
	return errorf(code, "the path puts the table %.64q before %s: an account's tables are at /%s/%s; give the client the account's endpoint (…/%s), not a table's",
		table, tail, account, tail, account)
}

// quoted reads an OData string literal at the start of s (after white
// space) and returns its value and what follows it.
func quoted(s string) (string, string, error) {
	v, rest, ok := odata.CutQuoted(strings.TrimSpace(s))
	if !ok {
		return "", "", errNotQuoted
	}
	return v, rest, nil
}

var errNotQuoted = errorf(odata.CodeInvalidURI, "not a quoted string")
