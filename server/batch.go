package server

import (
	"bytes"
	"crypto/rand"
	"encoding/hex"
	"errors"
	"mime"
	"net/http"
	"strconv"
	"strings"
	"sync"
	"time"

	"github.com/tstable/tstable/backend"
	"github.com/tstable/tstable/odata"
	"github.com/tstable/tstable/server/auth"
)

// An entity group transaction (POST /$batch) is a multipart/mixed body
// holding one changeset, itself multipart/mixed, whose parts are HTTP
// requests (application/http): inserts, updates, merges and deletes on one
// table. It is answered 202 Accepted with the same shape: a changeset of
// HTTP responses, one per operation, or, when an operation is refused, a
// single response whose message starts with the operation's 0-based index
// ("1:entity ... already exists"); then nothing was changed.

// batchOp is one operation of a changeset, as read.
type batchOp struct {
	op        backend.Operation
	table     string
	contentID string
	prefer    string
	format    odata.Metadata
}

// batch answers POST /$batch.
func (q *request) batch() error {
	mt, params, err := mime.ParseMediaType(q.r.Header.Get("Content-Type"))
	if err != nil || mt != "multipart/mixed" || params["boundary"] == "" {
		return errorf(odata.CodeInvalidInput, "a batch is sent as Content-Type: multipart/mixed; boundary=batch_... holding one changeset")
	}
	body, err := readSizedInto(batchBodies.take(), q.r.Body, q.r.ContentLength, maxBatchRequestBytes)
	if err != nil {
		return err
	}
	defer batchBodies.give(body)
	ops, answered, err := q.readBatch(body, params["boundary"])
	if answered {
		return err
	}
	if err != nil {
		var se *odata.Error
		if errors.As(err, &se) && se.Index >= 0 {
			q.writeBatchFailure(err, preferAt(ops, se.Index))
			return nil
		}
		return err
	}
	if len(ops) > odata.MaxBatchOperations {
		// The service names operation 99 in its answer to a changeset of
		// more than 100 (recorded with 101 operations).
		i := odata.MaxBatchOperations - 1
		q.writeBatchFailure(tooManyOperations(odata.AtIndex(errorf(odata.CodeInvalidInput,
			"a changeset holds at most %d operations; this one has %d: split it", odata.MaxBatchOperations, len(ops)), i)), ops[i].prefer)
		return nil
	}
	table := ops[0].table
	plain := make([]backend.Operation, len(ops))
	for i, o := range ops {
		if !strings.EqualFold(o.table, table) {
			q.writeBatchFailure(odata.AtIndex(errorf(odata.CodeInvalidInput,
				"all operations of a batch must be on one table: operation 0 is on %s, this one on %s", table, o.table), i), o.prefer)
			return nil
		}
		if err := q.allowWrite(o.op, table); err != nil {
			q.writeBatchFailure(odata.AtIndex(err, i), o.prefer)
			return nil
		}
		plain[i] = o.op
	}
	stored, err := q.s.b.Batch(q.r.Context(), table, plain)
	if err != nil {
		var se *odata.Error
		switch {
		case errors.As(err, &se) && se.Index >= 0:
			q.writeBatchFailure(err, preferAt(ops, se.Index))
		case odata.IsCode(err, odata.CodeTableNotFound):
			// Refused before any operation ran: no Prefer is echoed.
			q.writeBatchFailure(odata.AtIndex(err, 0), "")
		default:
			return err
		}
		return nil
	}
	q.writeBatchSuccess(ops, stored)
	return nil
}

// preferAt is the Prefer of operation i, "" when it was not read.
func preferAt(ops []batchOp, i int) string {
	if i >= 0 && i < len(ops) {
		return ops[i].prefer
	}
	return ""
}

// allowWrite checks the grant for one write.
func (q *request) allowWrite(op backend.Operation, table string) error {
	pk, rk := op.Entity.PartitionKey, op.Entity.RowKey
	switch op.Kind {
	case backend.OpInsert:
		return q.allow(auth.OpAdd, table, pk, rk)
	case backend.OpDelete:
		return q.allow(auth.OpDelete, table, pk, rk)
	case backend.OpInsertOrMerge, backend.OpInsertOrReplace:
		if err := q.allow(auth.OpAdd, table, pk, rk); err != nil {
			return err
		}
	}
	return q.allow(auth.OpUpdate, table, pk, rk)
}

// batchWriter writes the response's nested multipart body.
type batchWriter struct {
	buf               []byte
	batchID, changeID string
	etag              string // the last ETag written, and its time
	etagOf            time.Time
}

func newBatchWriter(ops int) *batchWriter {
	var b [16]byte
	rand.Read(b[:])
	id := hex.EncodeToString(b[:])
	w := &batchWriter{batchID: "batchresponse_" + id[:16], changeID: "changesetresponse_" + id[16:]}
	if p, _ := batchBuffers.Get().(*[]byte); p != nil && cap(*p) >= 256+ops*512 {
		w.buf = (*p)[:0]
	} else {
		w.buf = make([]byte, 0, 256+ops*512)
	}
	w.buf = append(w.buf, "--"+w.batchID+"\r\nContent-Type: multipart/mixed; boundary="+w.changeID+"\r\n\r\n"...)
	return w
}

// opResponse is one HTTP response of the changeset: its status, the
// headers that vary (an empty one is left out), and its body. An insert's
// response carries its Location (and, answered 204, the same as
// DataServiceId); an update's, its ETag only, as the service answers.
type opResponse struct {
	status                 int
	contentID, contentType string
	dataServiceVersion     string // "3.0;" for inserts and failures, "1.0;" for the rest
	base, table            string // Location is base/table(keys) when table is set
	pk, rk                 string
	dataServiceID          bool // Location written as DataServiceId too
	etag, prefer           string
	body                   []byte
}

// response adds one HTTP response to the changeset, its headers in the
// order http.Header.Write gives them (sorted, canonical names).
func (w *batchWriter) response(r opResponse) {
	b := append(w.buf, "--"...)
	b = append(b, w.changeID...)
	b = append(b, "\r\nContent-Type: application/http\r\nContent-Transfer-Encoding: binary\r\n\r\nHTTP/1.1 "...)
	b = strconv.AppendInt(b, int64(r.status), 10)
	b = append(b, ' ')
	b = append(b, http.StatusText(r.status)...)
	b = append(b, "\r\nCache-Control: no-cache\r\n"...)
	b = appendHeader(b, "Content-Id", r.contentID)
	b = appendHeader(b, "Content-Type", r.contentType)
	var loc []byte
	if r.table != "" {
		var lb [256]byte
		loc = append(lb[:0], r.base...)
		loc = append(loc, '/')
		loc = appendKeyPath(loc, r.table, r.pk, r.rk)
	}
	if r.dataServiceID {
		b = appendHeader(b, "Dataserviceid", loc)
	}
	b = appendHeader(b, "Dataserviceversion", r.dataServiceVersion)
	b = appendHeader(b, "Etag", r.etag)
	b = appendHeader(b, "Location", loc)
	b = appendHeader(b, "Preference-Applied", r.prefer)
	b = append(b, "X-Content-Type-Options: nosniff\r\n\r\n"...)
	b = append(b, r.body...)
	w.buf = append(b, "\r\n"...)
}

// appendHeader appends "name: value" unless value is empty, with line
// breaks in the value made spaces as http.Header.Write does.
func appendHeader[V string | []byte](b []byte, name string, value V) []byte {
	if len(value) == 0 {
		return b
	}
	b = append(b, name...)
	b = append(b, ": "...)
	start := len(b)
	b = append(b, value...)
	if v := b[start:]; bytes.IndexByte(v, '\r') >= 0 || bytes.IndexByte(v, '\n') >= 0 {
		for i := range v {
			if v[i] == '\r' || v[i] == '\n' {
				v[i] = ' '
			}
		}
	}
	return append(b, "\r\n"...)
}

// etagFor is e's ETag; a batch's entities share their time, so it is
// formatted once.
func (w *batchWriter) etagFor(e *odata.Entity) string {
	if w.etag == "" || !e.Timestamp.Equal(w.etagOf) {
		w.etag, w.etagOf = e.ETag(), e.Timestamp
	}
	return w.etag
}

// finish closes both boundaries and answers 202 Accepted.
func (w *batchWriter) finish(q *request) {
	w.buf = append(w.buf, "--"+w.changeID+"--\r\n--"+w.batchID+"--\r\n"...)
	h := q.w.Header()
	h.Set("Content-Type", "multipart/mixed; boundary="+w.batchID)
	h.Set("DataServiceVersion", "3.0;")
	h.Set("X-Content-Type-Options", "nosniff")
	h.Set("Cache-Control", "no-cache")
	h["Content-Length"] = []string{strconv.Itoa(len(w.buf))} // whole, not chunked
	q.w.WriteHeader(http.StatusAccepted)
	q.w.Write(w.buf)
	if buf := w.buf; cap(buf) <= 1<<20 {
		batchBuffers.Put(&buf) // Write keeps nothing of it
	}
	w.buf = nil
}

// batchBuffers are the buffers of answered batches, for the next ones.
var batchBuffers sync.Pool

// writeBatchSuccess answers every operation of a committed batch, with
// the headers the service answers each kind with.
func (q *request) writeBatchSuccess(ops []batchOp, stored []*odata.Entity) {
	w := newBatchWriter(len(ops))
	for i, o := range ops {
		r := opResponse{status: http.StatusNoContent, contentID: o.contentID, dataServiceVersion: "1.0;"}
		e := stored[i]
		switch o.op.Kind {
		case backend.OpDelete:
		case backend.OpInsert:
			r.dataServiceVersion = "3.0;"
			r.base, r.table, r.pk, r.rk = q.base, o.table, e.PartitionKey, e.RowKey
			r.etag, r.prefer, r.dataServiceID = w.etagFor(e), o.prefer, true
			if o.prefer != "return-no-content" {
				r.status, r.contentType, r.dataServiceID = http.StatusCreated, jsonContentType(o.format), false
				sub := &request{s: q.s, base: q.base, format: o.format}
				r.body = odata.AppendEntityJSONAs(nil, e, o.format, sub.entityLinks(o.table, e, true))
			}
		default:
			r.etag, r.prefer = w.etagFor(e), o.prefer
		}
		w.response(r)
	}
	w.finish(q)
}

// writeBatchFailure answers a refused batch: one response, for the
// failing operation (whose Prefer it echoes), its index first in the
// message where the service writes it: not for a condition not met (412)
// nor an entity not found (404 ResourceNotFound) at operation 0, which
// the service's recorded answers report without one (at a later
// operation, an index, as the .NET SDK reads it and Azurite writes it).
func (q *request) writeBatchFailure(err error, prefer string) {
	f := describe(err, q.r)
	if f.index == 0 && (f.code == odata.CodeUpdateConditionNotSatisfied || f.code == odata.CodeResourceNotFound) {
		f.index = -1
	}
	w := newBatchWriter(1)
	w.response(opResponse{status: f.status, contentType: jsonContentType(odata.MinimalMetadata), dataServiceVersion: "3.0;", prefer: prefer,
		body: appendErrorJSON(nil, f, q.w.Header().Get("x-ms-request-id"), q.start)})
	w.finish(q)
}
