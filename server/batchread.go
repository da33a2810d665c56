package server

import (
	"bytes"
	"io"
	"mime"
	"mime/multipart"
	"net/http"
	"net/url"
	"strings"
	"sync"

	"github.com/tstable/tstable/backend"
	"github.com/tstable/tstable/odata"
)

// readBatch reads the batch's changeset: in one pass over body when
// splitChangeset is sure of it, else with mime/multipart. A batch that
// holds a query instead is answered here (answered true).
func (q *request) readBatch(body []byte, boundary string) (ops []batchOp, answered bool, err error) {
	r := &opReader{q: q}
	kept, _ := changesetParts.Get().(*[]changesetPart)
	if kept == nil {
		kept = new([]changesetPart)
	}
	defer func() {
		clear((*kept)[:cap(*kept)]) // nothing of this batch's is kept
		changesetParts.Put(kept)
	}()
	if parts, ok := splitChangeset(body, boundary, (*kept)[:0]); ok {
		*kept = parts
		ops, err := r.operations(parts)
		return ops, false, err
	}
	return r.general(body, boundary)
}

// changesetParts are the lists of parts of read batches, for the next
// ones.
var changesetParts sync.Pool

// general reads a batch with mime/multipart: the general reading, of any
// body splitChangeset leaves.
func (r *opReader) general(body []byte, boundary string) (ops []batchOp, answered bool, err error) {
	mr := multipart.NewReader(bytes.NewReader(body), boundary)
	part, err := mr.NextPart()
	if err != nil {
		return nil, false, errorf(odata.CodeInvalidInput, "the batch body holds no part with boundary %q (%v)", boundary, err)
	}
	if mt, _, _ := mime.ParseMediaType(part.Header.Get("Content-Type")); mt == "application/http" {
		return nil, true, r.q.batchQuery(mr, part)
	}
	ops, err = r.changeset(mr, part)
	return ops, false, err
}

// opReader reads the operations of one batch. What repeats from one
// operation to the next is read once: the entity decoder is shared (its
// scratch space, the names of properties), and a URL or a header value
// the same as the last one's is the last one's.
type opReader struct {
	q      *request
	dec    odata.EntityDecoder
	target string // the last URL read, and what it was read as
	url    *url.URL
	res    *resource
	param  string                     // its $format
	values [len(opHeaderNames)]string // the last value read of each header
}

// operations reads the operations of a changeset cut by splitChangeset;
// a refused one is reported with its index.
func (r *opReader) operations(parts []changesetPart) ([]batchOp, error) {
	ops := make([]batchOp, len(parts))
	for i, p := range parts {
		o, err := r.operation(p.raw)
		if err != nil {
			return nil, odata.AtIndex(err, i)
		}
		o.contentID = p.contentID
		ops[i] = o
	}
	return ops, nil
}

// changeset reads the batch's part, one changeset of operations, with
// mime/multipart.
func (r *opReader) changeset(mr *multipart.Reader, part *multipart.Part) ([]batchOp, error) {
	mt, params, err := mime.ParseMediaType(part.Header.Get("Content-Type"))
	if err != nil || mt != "multipart/mixed" || params["boundary"] == "" {
		return nil, errorf(odata.CodeInvalidInput,
			"the batch's part is neither a changeset (Content-Type: multipart/mixed; boundary=changeset_...) nor one query (application/http)")
	}
	cs := multipart.NewReader(part, params["boundary"])
	var ops []batchOp
	for i := 0; ; i++ {
		p, err := cs.NextPart()
		if err == io.EOF {
			break
		}
		if err != nil {
			return nil, odata.AtIndex(errorf(odata.CodeInvalidInput, "the changeset cannot be read: %v", err), i)
		}
		raw, err := io.ReadAll(p)
		if err != nil {
			return nil, odata.AtIndex(errorf(odata.CodeInvalidInput, "the changeset cannot be read: %v", err), i)
		}
		o, err := r.operation(raw)
		if err != nil {
			return nil, odata.AtIndex(err, i)
		}
		o.contentID = p.Header.Get("Content-ID")
		ops = append(ops, o)
	}
	if len(ops) == 0 {
		return nil, errorf(odata.CodeInvalidInput, "the batch's changeset holds no operation")
	}
	if next, err := mr.NextPart(); err == nil && next != nil {
		return nil, errorf(odata.CodeInvalidInput, "a batch holds one changeset; this one has more parts")
	}
	return ops, nil
}

// opRequest is an application/http part read: its method (after
// X-HTTP-Method tunnelling), URL, resource, the headers that matter and
// its body.
type opRequest struct {
	method string
	url    *url.URL
	res    *resource
	format string // the URL's $format
	hdr    opHeaders
	body   []byte
}

// request reads one application/http part: a request line, headers, a
// blank line and the body, for an entity of this account.
func (r *opReader) request(raw []byte) (op opRequest, _ error) {
	line, rest := cutLine(raw)
	m, after, ok1 := bytes.Cut(line, []byte(" "))
	t, _, ok2 := bytes.Cut(after, []byte(" "))
	if !ok1 || !ok2 {
		return op, errorf(odata.CodeInvalidInput, "the operation's request line %q is not METHOD URL HTTP/1.1", line)
	}
	method := methodName(m)
	for len(rest) > 0 {
		line, rest = cutLine(rest)
		if len(line) == 0 {
			break // the blank line before the body
		}
		k, v, ok := bytes.Cut(line, []byte(":"))
		if !ok {
			return op, errorf(odata.CodeInvalidInput, "the operation's header line %q is not Name: value", line)
		}
		op.hdr.add(bytes.TrimSpace(k), bytes.TrimSpace(v), &r.values)
	}
	op.body = bytes.TrimSpace(rest)
	if r.url == nil || string(t) != r.target {
		if err := r.readURL(method, string(t)); err != nil {
			return op, err
		}
	}
	if m := op.hdr.method; method == http.MethodPost && m != "" {
		method = strings.ToUpper(m)
	}
	op.method, op.url, op.res, op.format = method, r.url, r.res, r.param
	return op, nil
}

// readURL reads an operation's URL, which must name an entity or a table
// of this account, and keeps it as the last one read.
func (r *opReader) readURL(method, target string) error {
	u, err := url.Parse(target)
	if err != nil {
		return errorf(odata.CodeInvalidURI, "the operation's URL %q is not a URL", target)
	}
	path := strings.TrimPrefix(u.EscapedPath(), "/")
	seg, after, _ := strings.Cut(path, "/")
	if acct, _ := url.PathUnescape(seg); acct != r.q.s.account {
		return errorf(odata.CodeInvalidURI, "the operation's URL %q is not under /%s/", target, r.q.s.account)
	}
	res, err := parseResource(strings.TrimSuffix(after, "/"))
	if err != nil {
		return err
	}
	if res.batch || res.tables {
		return errorf(odata.CodeInvalidInput, "a batch holds entity operations only; %s %s is not one", method, target)
	}
	r.target, r.url, r.res, r.param = target, u, res, queryValue(u.RawQuery, "$format")
	return nil
}

// methodName is the method of a request line, as a string.
func methodName(m []byte) string {
	for _, name := range [...]string{http.MethodPost, http.MethodPut, "MERGE", http.MethodPatch, http.MethodDelete, http.MethodGet} {
		if string(m) == name {
			return name
		}
	}
	return string(m)
}

// operation reads one operation of a changeset.
func (r *opReader) operation(raw []byte) (batchOp, error) {
	var o batchOp
	req, err := r.request(raw)
	if err != nil {
		return o, err
	}
	method, res, hdr, body := req.method, req.res, req.hdr, req.body
	o.table = res.table
	o.prefer = preferenceOf(hdr.prefer)
	if o.format, err = formatOf(req.format, hdr.accept); err != nil {
		return o, err
	}
	ifMatch := hdr.ifMatch
	needKey := func() error {
		if res.key == nil {
			return errorf(odata.CodeInvalidURI, "%s needs an entity URL: %s(PartitionKey='...',RowKey='...')", method, res.table)
		}
		return nil
	}
	switch method {
	case http.MethodPost:
		if res.key != nil {
			return o, errorf(odata.CodeInvalidURI, "an insert is POSTed to the table (%s), not to an entity", res.table)
		}
		e, err := decodeEntityWith(&r.dec, body, nil)
		if err != nil {
			return o, err
		}
		o.op = backend.Operation{Kind: backend.OpInsert, Entity: e}
	case http.MethodPut, "MERGE", http.MethodPatch:
		if err := needKey(); err != nil {
			return o, err
		}
		e, err := decodeEntityWith(&r.dec, body, res.key)
		if err != nil {
			return o, err
		}
		o.op = backend.Operation{Kind: updateKind(method != http.MethodPut, ifMatch), Entity: e, IfMatch: ifMatch}
	case http.MethodDelete:
		if err := needKey(); err != nil {
			return o, err
		}
		if ifMatch == "" {
			return o, errorf(odata.CodeMissingRequiredHeader, "a delete needs an If-Match header: the entity's ETag, or *")
		}
		o.op = backend.Operation{Kind: backend.OpDelete, Entity: &odata.Entity{PartitionKey: res.key.PartitionKey, RowKey: res.key.RowKey}, IfMatch: ifMatch}
	case http.MethodGet:
		return o, errorf(odata.CodeInvalidInput, "a changeset holds writes only; a query goes alone in a batch, outside any changeset, or on its own")
	default:
		return o, errorf(odata.CodeUnsupportedHTTPVerb, "a batch operation cannot be %s; use POST, PUT, MERGE or DELETE", method)
	}
	return o, nil
}

// opHeaders are the headers of an operation that its answer depends on,
// each the first of its name (as http.Header.Get gives it).
type opHeaders struct {
	method, prefer, accept, ifMatch string
	seen                            [len(opHeaderNames)]bool
}

// opHeaderNames are the names of opHeaders' fields, in their order.
var opHeaderNames = [...]string{"X-HTTP-Method", "Prefer", "Accept", "If-Match"}

// add reads one header line's name and value; other headers are ignored.
// A value the same as last's of its name is last's string.
func (h *opHeaders) add(name, value []byte, last *[len(opHeaderNames)]string) {
	for i, dst := range [...]*string{&h.method, &h.prefer, &h.accept, &h.ifMatch} {
		f := opHeaderNames[i]
		if !h.seen[i] && len(name) == len(f) && strings.EqualFold(string(name), f) {
			h.seen[i] = true
			if string(value) != last[i] {
				last[i] = string(value)
			}
			*dst = last[i]
			return
		}
	}
}

// cutLine splits off the first line (ended by LF or CRLF).
func cutLine(b []byte) (line, rest []byte) {
	line, rest, _ = bytes.Cut(b, []byte("\n"))
	return bytes.TrimSuffix(line, []byte("\r")), rest
}
