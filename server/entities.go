package server

import (
	"bytes"
	"errors"
	"net/http"
	"net/url"
	"strconv"
	"strings"

	"github.com/tstable/tstable/backend"
	"github.com/tstable/tstable/odata"
	"github.com/tstable/tstable/server/auth"
)

// collectionOp answers /T and /T(): query (GET) and insert (POST).
func (q *request) collectionOp(table string) error {
	switch q.method() {
	case http.MethodGet, http.MethodHead:
		return q.queryEntities(table)
	case http.MethodPost:
		return q.insertEntity(table)
	}
	return q.badVerb(table, "GET, POST")
}

// entityOp answers /T(PartitionKey='a',RowKey='b').
func (q *request) entityOp(table string, key odata.Key) error {
	switch m := q.method(); m {
	case http.MethodGet, http.MethodHead:
		return q.getEntity(table, key)
	case http.MethodPut, "MERGE", http.MethodPatch:
		return q.updateEntity(table, key, m != http.MethodPut)
	case http.MethodDelete:
		return q.deleteEntity(table, key)
	}
	return q.badVerb("an entity", "GET, PUT, MERGE, DELETE")
}

// decodeEntity reads an entity from a request body. For an entity the URL
// names (an update, a merge, an upsert), the URL's keys are the entity's:
// the body may leave them out, and keys it gives that differ are ignored,
// as the service ignores them.
func decodeEntity(body []byte, key *odata.Key) (*odata.Entity, error) {
	return decodeEntityWith(nil, body, key)
}

// decodeEntityWith is decodeEntity with dec, which a batch's operations
// share (nil: a decoder for this entity alone).
func decodeEntityWith(dec *odata.EntityDecoder, body []byte, key *odata.Key) (*odata.Entity, error) {
	decode := odata.DecodeEntityJSON
	if dec != nil {
		decode = dec.Decode
	}
	e, err := decode(body)
	for i := 0; i < 2 && key != nil && err != nil; i++ {
		var je *odata.JSONError
		if !errors.As(err, &je) || je.Missing == "" {
			break
		}
		value := key.PartitionKey
		if je.Missing == odata.RowKey {
			value = key.RowKey
		}
		body = withKey(body, je.Missing, value)
		e, err = decode(body)
	}
	if err != nil {
		return nil, errorf(odata.DecodeErrorCode(err), "the entity in the request body cannot be read: %v", err)
	}
	if key != nil {
		e.PartitionKey, e.RowKey = key.PartitionKey, key.RowKey
	}
	return e, nil
}

// withKey inserts the member "name":value at the start of a body's object.
func withKey(body []byte, name, value string) []byte {
	i := bytes.IndexByte(body, '{')
	if i < 0 {
		return body
	}
	out := append([]byte(nil), body[:i+1]...)
	out = odata.AppendJSONString(out, name)
	out = append(out, ':')
	out = odata.AppendJSONString(out, value)
	if rest := bytes.TrimSpace(body[i+1:]); !bytes.HasPrefix(rest, []byte("}")) {
		out = append(out, ',')
	}
	return append(out, body[i+1:]...)
}

// insertEntity answers POST /T: Insert Entity.
func (q *request) insertEntity(table string) error {
	body, err := q.readBody(maxEntityRequestBytes)
	if err != nil {
		return err
	}
	e, err := decodeEntity(body, nil)
	if err != nil {
		return err
	}
	if err := q.allow(auth.OpAdd, table, e.PartitionKey, e.RowKey); err != nil {
		return err
	}
	stored, err := q.s.b.Write(q.r.Context(), table, backend.Operation{Kind: backend.OpInsert, Entity: e})
	if err != nil {
		return err
	}
	q.entityHeaders(table, stored)
	return q.answerWrite(http.StatusCreated, func() []byte {
		return odata.AppendEntityJSONAs(nil, stored, q.format, q.entityLinks(table, stored, true))
	})
}

// updateKind is what an update means, as the service reads it: with
// If-Match, Merge or Replace (Update) of an existing entity; without it,
// Insert Or Merge or Insert Or Replace.
func updateKind(merge bool, ifMatch string) backend.OpKind {
	switch {
	case ifMatch != "" && merge:
		return backend.OpMerge
	case ifMatch != "":
		return backend.OpReplace
	case merge:
		return backend.OpInsertOrMerge
	}
	return backend.OpInsertOrReplace
}

// updateEntity answers PUT (Update) and MERGE (Merge): with If-Match the
// entity must exist and match; without it the write is Insert Or Replace
// or Insert Or Merge.
func (q *request) updateEntity(table string, key odata.Key, merge bool) error {
	body, err := q.readBody(maxEntityRequestBytes)
	if err != nil {
		return err
	}
	e, err := decodeEntity(body, &key)
	if err != nil {
		return err
	}
	ifMatch := q.r.Header.Get("If-Match")
	kind := updateKind(merge, ifMatch)
	if err := q.allow(auth.OpUpdate, table, key.PartitionKey, key.RowKey); err != nil {
		return err
	}
	if ifMatch == "" {
		if err := q.allow(auth.OpAdd, table, key.PartitionKey, key.RowKey); err != nil {
			return err
		}
	}
	stored, err := q.s.b.Write(q.r.Context(), table, backend.Operation{Kind: kind, Entity: e, IfMatch: ifMatch})
	if err != nil {
		return err
	}
	if etag := stored.ETag(); etag != "" {
		q.w.Header().Set("ETag", etag)
	}
	q.writeNoContent(http.StatusNoContent)
	return nil
}

// deleteEntity answers DELETE: If-Match (an ETag or *) is required.
func (q *request) deleteEntity(table string, key odata.Key) error {
	ifMatch := q.r.Header.Get("If-Match")
	if ifMatch == "" {
		return errorf(odata.CodeMissingRequiredHeader, "Delete Entity needs an If-Match header: the entity's ETag, or * to delete whatever version is stored")
	}
	if err := q.allow(auth.OpDelete, table, key.PartitionKey, key.RowKey); err != nil {
		return err
	}
	e := &odata.Entity{PartitionKey: key.PartitionKey, RowKey: key.RowKey}
	if _, err := q.s.b.Write(q.r.Context(), table, backend.Operation{Kind: backend.OpDelete, Entity: e, IfMatch: ifMatch}); err != nil {
		return err
	}
	q.writeNoContent(http.StatusNoContent)
	return nil
}

// getEntity answers GET /T(PartitionKey='a',RowKey='b'), with $select. An
// entity outside a table SAS's key range is not found (404
// ResourceNotFound), as the service answers it: the SAS reads its range
// only, and nothing outside it exists for it (a write outside the range is
// refused: 403 AuthorizationFailure).
func (q *request) getEntity(table string, key odata.Key) error {
	if err := q.allow(auth.OpRead, table, "", ""); err != nil {
		return err
	}
	if !inRange(q.grant, key.PartitionKey, key.RowKey, backend.KeyOrderOf(q.s.b)) {
		return errorf(odata.CodeResourceNotFound, "the entity (%q, %q) lies outside the key range of the table SAS, which reads only the entities inside it: sign a SAS whose range covers it", key.PartitionKey, key.RowKey)
	}
	selText := queryValue(q.r.URL.RawQuery, "$select")
	sel, err := odata.ParseSelect(selText)
	if err != nil {
		return queryError("$select", selText, err)
	}
	e, err := q.s.b.Get(q.r.Context(), table, key.PartitionKey, key.RowKey)
	if err != nil {
		return err
	}
	q.w.Header().Set("ETag", e.ETag())
	links := q.entityLinks(table, e, true)
	if sel != nil {
		links.Metadata += selectSuffix(selText)
	}
	body := odata.AppendSelectedJSONAs(answerBodies.take(), e, sel, q.format, links)
	q.writeJSON(http.StatusOK, body)
	answerBodies.give(body)
	return nil
}

// selectSuffix is what the service adds to odata.metadata for a $select:
// "&$select=" and the list as sent, decoded, with what a URL path cannot
// hold escaped (age,%20sex).
func selectSuffix(selText string) string {
	return "&$select=" + strings.ReplaceAll(url.PathEscape(selText), "%2C", ",")
}

// queryEntities answers GET /T(): $filter, $select and $top, at most 1000
// entities a page, resumed from NextPartitionKey and NextRowKey and
// continued with the x-ms-continuation-* headers. It is explained in the
// x-tstable-* headers and on the log.
func (q *request) queryEntities(table string) error {
	if err := q.allow(auth.OpRead, table, "", ""); err != nil {
		return err
	}
	params := q.r.URL.Query()
	var req backend.QueryRequest
	filterText := params.Get("$filter")
	f, err := odata.ParseQueryFilter(filterText)
	if err != nil {
		return queryError("$filter", filterText, err)
	}
	req.Query.Filter = f
	sel, err := odata.ParseSelect(params.Get("$select"))
	if err != nil {
		return queryError("$select", params.Get("$select"), err)
	}
	req.Query.Select = sel
	if req.PageSize, err = parseTop(params.Get("$top")); err != nil {
		return err
	}
	if req.PageSize == 0 {
		// $top=0: no entity and no continuation; the table must exist.
		req.PageSize, req.Query.Filter = 1, odata.MatchNothing()
	}
	if pk := params.Get("NextPartitionKey"); pk != "" {
		start := &odata.Key{}
		if start.PartitionKey, err = decodeNext("NextPartitionKey", pk); err != nil {
			return err
		}
		if rk := params.Get("NextRowKey"); rk != "" {
			if start.RowKey, err = decodeNext("NextRowKey", rk); err != nil {
				return err
			}
		}
		req.Start = start
	}
	inRange := q.keyRange(&req)
	body := append(answerBodies.take(), '{')
	if q.format != odata.NoMetadata {
		meta := q.base + "/$metadata#" + table
		if sel != nil {
			meta += selectSuffix(params.Get("$select"))
		}
		body = append(body, `"odata.metadata":`...)
		body = odata.AppendJSONString(body, meta)
		body = append(body, ',')
	}
	body = append(body, `"value":[`...)
	n := 0
	res, err := q.s.b.Query(q.r.Context(), table, req, func(e *odata.Entity) error {
		if !inRange(e) {
			return nil
		}
		if n > 0 {
			body = append(body, ',')
		}
		n++
		body = odata.AppendSelectedJSONAs(body, e, sel, q.format, q.entityLinks(table, e, false))
		return nil
	})
	if err != nil {
		return err
	}
	body = append(body, "]}"...)
	h := q.w.Header()
	if res.Next != nil {
		h.Set("x-ms-continuation-NextPartitionKey", encodeNext(res.Next.PartitionKey))
		h.Set("x-ms-continuation-NextRowKey", encodeNext(res.Next.RowKey))
	}
	x := Explained{Method: q.r.Method, Table: table, Filter: filterText, Class: res.Plan.Class,
		Scanned: res.Scanned, Returned: int64(n), Elapsed: timeSince(q.start)}
	h.Set(odata.HeaderQueryClass, string(x.Class))
	h.Set(odata.HeaderScanned, strconv.FormatInt(x.Scanned, 10))
	h.Set(odata.HeaderReturned, strconv.FormatInt(x.Returned, 10))
	q.s.log.Write(x)
	q.writeJSON(http.StatusOK, body)
	answerBodies.give(body)
	return nil
}

// keyRange applies a table SAS's key range to a query: the query starts
// no earlier than the range, and entities outside it are left out, in the
// order of the backend's keys.
func (q *request) keyRange(req *backend.QueryRequest) func(*odata.Entity) bool {
	spk, srk, epk, erk, ok := q.grant.KeyRange()
	if !ok {
		return func(*odata.Entity) bool { return true }
	}
	o := backend.KeyOrderOf(q.s.b)
	r := keyRangeOf(spk, srk, epk, erk)
	startKey := odata.Key{PartitionKey: spk, RowKey: srk}
	if req.Start == nil || o.CompareKeys(*req.Start, startKey) < 0 {
		req.Start = &startKey
	}
	return func(e *odata.Entity) bool {
		return r.ContainsIn(odata.Key{PartitionKey: e.PartitionKey, RowKey: e.RowKey}, o)
	}
}
