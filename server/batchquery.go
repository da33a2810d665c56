package server

import (
	"bytes"
	"crypto/rand"
	"encoding/hex"
	"io"
	"mime/multipart"
	"net/http"
	"sort"
	"strconv"

	"github.com/tstable/tstable/odata"
)

// batchQuery answers a batch that holds one query, a GET outside any
// changeset, as the entity group transactions doc allows ("it must be
// submitted singly in the batch"): Get Entity or Query Entities, answered
// inside the batch's answer, 202, as one application/http part.
func (q *request) batchQuery(mr *multipart.Reader, part *multipart.Part) error {
	raw, err := io.ReadAll(part)
	if err != nil {
		return errorf(odata.CodeInvalidInput, "the batch's query cannot be read: %v", err)
	}
	if next, err := mr.NextPart(); err == nil && next != nil {
		return errorf(odata.CodeInvalidInput, "a batch holding a query holds nothing else: send the query alone, and writes in a changeset of their own batch")
	}
	op, err := (&opReader{q: q}).request(raw)
	if err != nil {
		return err
	}
	if op.method != http.MethodGet {
		return errorf(odata.CodeInvalidInput, "an operation outside a changeset must be a query (GET), not %s: put writes in a changeset", op.method)
	}
	rec := &partRecorder{header: http.Header{}}
	inner, err := http.NewRequestWithContext(q.r.Context(), http.MethodGet, op.url.String(), nil)
	if err != nil {
		return errorf(odata.CodeInvalidURI, "the query's URL %q is not a URL", op.url)
	}
	if op.hdr.accept != "" {
		inner.Header.Set("Accept", op.hdr.accept)
	}
	sub := &request{s: q.s, w: rec, r: inner, grant: q.grant, base: q.base, start: q.start}
	if err := sub.answerQuery(op.res); err != nil {
		rec.header.Set("x-ms-request-id", q.w.Header().Get("x-ms-request-id"))
		writeError(rec, inner, err)
	}
	q.writeQueryPart(rec)
	return nil
}

// answerQuery answers a query of a batch as the same request on its own.
func (q *request) answerQuery(res *resource) error {
	var err error
	if q.format, err = responseFormat(q.r); err != nil {
		return err
	}
	if res.key != nil {
		return q.getEntity(res.table, *res.key)
	}
	return q.queryEntities(res.table)
}

// writeQueryPart answers 202 with the query's response as the batch's one
// part.
func (q *request) writeQueryPart(rec *partRecorder) {
	var id [8]byte
	rand.Read(id[:])
	boundary := "batchresponse_" + hex.EncodeToString(id[:])
	var b bytes.Buffer
	b.WriteString("--" + boundary + "\r\nContent-Type: application/http\r\nContent-Transfer-Encoding: binary\r\n\r\n")
	b.WriteString("HTTP/1.1 " + strconv.Itoa(rec.status) + " " + http.StatusText(rec.status) + "\r\n")
	names := make([]string, 0, len(rec.header))
	for name := range rec.header {
		names = append(names, name)
	}
	sort.Strings(names)
	for _, name := range names {
		b.Write(appendHeader(nil, name, rec.header.Get(name)))
	}
	b.WriteString("\r\n")
	b.Write(rec.body.Bytes())
	b.WriteString("\r\n--" + boundary + "--\r\n")
	h := q.w.Header()
	h.Set("Content-Type", "multipart/mixed; boundary="+boundary)
	h.Set("DataServiceVersion", "3.0;")
	h.Set("X-Content-Type-Options", "nosniff")
	h.Set("Cache-Control", "no-cache")
	h.Set("Content-Length", strconv.Itoa(b.Len()))
	q.w.WriteHeader(http.StatusAccepted)
	q.w.Write(b.Bytes())
}

// partRecorder keeps the response of a batch's query.
type partRecorder struct {
	status int
	header http.Header
	body   bytes.Buffer
}

func (w *partRecorder) Header() http.Header { return w.header }

func (w *partRecorder) WriteHeader(status int) {
	if w.status == 0 {
		w.status = status
	}
}

func (w *partRecorder) Write(b []byte) (int, error) {
	w.WriteHeader(http.StatusOK)
	return w.body.Write(b)
}
