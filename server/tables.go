package server

import (
	"encoding/json"
	"net/http"
	"strconv"
	"strings"

	"github.com/tstable/tstable/odata"
	"github.com/tstable/tstable/server/auth"
)

// tablesOp answers /Tables and /Tables('name').
func (q *request) tablesOp(res *resource) error {
	switch m := q.method(); {
	case !res.named && m == http.MethodGet:
		return q.queryTables()
	case !res.named && m == http.MethodPost:
		return q.createTable()
	case res.named && m == http.MethodDelete:
		return q.deleteTable(res.table)
	case res.named && m == http.MethodGet:
		return q.getTable(res.table)
	case res.named:
		return q.badVerb("Tables('name')", "GET, DELETE")
	}
	return q.badVerb("Tables", "GET, POST")
}

// appendTableJSON appends one table as the service lists it.
func (q *request) appendTableJSON(dst []byte, name string, element bool) []byte {
	dst = append(dst, '{')
	if element && q.format != odata.NoMetadata {
		dst = append(dst, `"odata.metadata":`...)
		dst = odata.AppendJSONString(dst, q.base+"/$metadata#Tables/@Element")
		dst = append(dst, ',')
	}
	if q.format == odata.FullMetadata {
		dst = append(dst, `"odata.type":`...)
		dst = odata.AppendJSONString(dst, q.s.account+".Tables")
		dst = append(dst, `,"odata.id":`...)
		dst = odata.AppendJSONString(dst, q.base+"/"+tablePath(name))
		dst = append(dst, `,"odata.editLink":`...)
		dst = odata.AppendJSONString(dst, tablePath(name))
		dst = append(dst, ',')
	}
	dst = append(dst, `"TableName":`...)
	dst = odata.AppendJSONString(dst, name)
	return append(dst, '}')
}

func tablePath(name string) string { return "Tables('" + name + "')" }

// createTable answers POST /Tables with {"TableName":"name"}.
func (q *request) createTable() error {
	body, err := q.readBody(maxEntityRequestBytes)
	if err != nil {
		return err
	}
	var doc struct {
		TableName *string `json:"TableName"`
	}
	if err := json.Unmarshal(body, &doc); err != nil {
		return errorf(odata.CodeInvalidInput, "the body of Create Table is not JSON (%v); send {\"TableName\":\"name\"}", err)
	}
	if doc.TableName == nil {
		return errorf(odata.CodeInvalidInput, "the body of Create Table has no TableName; send {\"TableName\":\"name\"}")
	}
	name := *doc.TableName
	if err := q.allow(auth.OpCreateTable, name, "", ""); err != nil {
		return err
	}
	if err := q.s.b.CreateTable(q.r.Context(), name); err != nil {
		return err
	}
	q.locationHeaders(q.base + "/" + tablePath(name))
	return q.answerWrite(http.StatusCreated, func() []byte { return q.appendTableJSON(nil, name, true) })
}

// answerWrite answers a write that can return its result: 204 when the
// client prefers no content, else status with the body.
func (q *request) answerWrite(status int, body func() []byte) error {
	pref := preference(q.r)
	if pref != "" {
		q.w.Header().Set("Preference-Applied", pref)
	}
	if pref == "return-no-content" {
		q.writeNoContent(http.StatusNoContent)
		return nil
	}
	q.writeJSON(status, body())
	return nil
}

// deleteTable answers DELETE /Tables('name').
func (q *request) deleteTable(name string) error {
	if err := q.allow(auth.OpDeleteTable, name, "", ""); err != nil {
		return err
	}
	if err := q.s.b.DeleteTable(q.r.Context(), name); err != nil {
		return err
	}
	q.s.mu.Lock()
	delete(q.s.acls, strings.ToLower(name))
	q.s.mu.Unlock()
	q.writeNoContent(http.StatusNoContent)
	return nil
}

// getTable answers GET /Tables('name').
func (q *request) getTable(name string) error {
	if err := q.allow(auth.OpQueryTables, name, "", ""); err != nil {
		return err
	}
	names, err := q.s.b.ListTables(q.r.Context())
	if err != nil {
		return err
	}
	for _, n := range names {
		if strings.EqualFold(n, name) {
			q.writeJSON(http.StatusOK, q.appendTableJSON(nil, n, true))
			return nil
		}
	}
	return errorf(odata.CodeResourceNotFound, "table %q does not exist", name)
}

// tableRecord is a table as a $filter sees it: one property, TableName.
type tableRecord string

func (t tableRecord) Get(name string) (odata.Value, bool) {
	if name == "TableName" {
		return odata.String(string(t)), true
	}
	return odata.Value{}, false
}

// queryTables answers GET /Tables: the tables in order, filtered by
// $filter on TableName, at most $top (and 1000) a page, continued with
// x-ms-continuation-NextTableName.
func (q *request) queryTables() error {
	if err := q.allow(auth.OpQueryTables, "", "", ""); err != nil {
		return err
	}
	params := q.r.URL.Query()
	filter, err := odata.ParseQueryFilter(params.Get("$filter"))
	if err != nil {
		return queryError("$filter", params.Get("$filter"), err)
	}
	top, err := parseTop(params.Get("$top"))
	if err != nil {
		return err
	}
	from := ""
	if tok := params.Get("NextTableName"); tok != "" {
		if from, err = decodeNext("NextTableName", tok); err != nil {
			return err
		}
	}
	names, err := q.s.b.ListTables(q.r.Context())
	if err != nil {
		return err
	}
	body := []byte(`{`)
	if q.format != odata.NoMetadata {
		body = append(body, `"odata.metadata":`...)
		body = odata.AppendJSONString(body, q.base+"/$metadata#Tables")
		body = append(body, ',')
	}
	body = append(body, `"value":[`...)
	n := 0
	for _, name := range names {
		if top == 0 {
			break // $top=0: no table, and no continuation
		}
		if from != "" && strings.ToLower(name) < from {
			continue
		}
		if filter != nil && !filter.Match(tableRecord(name)) {
			continue
		}
		if n == top {
			q.w.Header().Set("x-ms-continuation-NextTableName", encodeNext(strings.ToLower(name)))
			break
		}
		if n > 0 {
			body = append(body, ',')
		}
		body = q.appendTableJSON(body, name, false)
		n++
	}
	body = append(body, "]}"...)
	q.writeJSON(http.StatusOK, body)
	return nil
}

// parseTop reads $top: 0 to 1000, or the page size of 1000 when absent.
func parseTop(s string) (int, error) {
	if s == "" {
		return odata.MaxTop, nil
	}
	n, err := strconv.Atoi(strings.TrimSpace(s))
	if err == nil {
		err = odata.ParseTop(n)
	} else {
		err = errorf(odata.CodeInvalidQueryParameterValue, "$top=%q is not a number; use 0 to 1000", s)
	}
	if err != nil {
		if odata.CodeOf(err) == "" {
			err = errorf(odata.CodeInvalidQueryParameterValue, "%v", err)
		}
		return 0, err
	}
	return n, nil
}

// Continuation values are opaque to clients: the key as
// odata.EncodeNextKey writes it, so that any key (an empty one, or one
// with characters a header cannot carry) travels safely and is never
// empty.
func encodeNext(key string) string { return odata.EncodeNextKey(key) }

func decodeNext(param, tok string) (string, error) {
	key, ok := odata.DecodeNextKey(tok)
	if !ok {
		return "", errorf(odata.CodeInvalidInput, "%s=%q is not a continuation this server wrote; pass back the x-ms-continuation-%s header unchanged", param, tok, param)
	}
	return key, nil
}
