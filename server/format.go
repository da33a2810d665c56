package server

import (
	"io"
	"mime"
	"net/http"
	"net/url"
	"strings"

	"github.com/tstable/tstable/odata"
)

// Request bodies are read whole, up to these sizes; past them the request
// is refused with 413 RequestBodyTooLarge before it is read to the end.
// They bound the JSON text; the store then applies the service's own
// limits (1 MiB an entity, 4 MiB of entities a batch) to what it holds.
const (
	maxEntityRequestBytes = 4 << 20
	maxBatchRequestBytes  = 16 << 20
)

// jsonContentType is the Content-Type of a JSON response at level m.
func jsonContentType(m odata.Metadata) string {
	return "application/json;odata=" + m.String() + ";streaming=true;charset=utf-8"
}

// responseFormat reads the level of JSON the client asks for: $format
// when given, else the Accept header; minimal metadata by default. A client
// that accepts only Atom or XML is answered 415.
func responseFormat(r *http.Request) (odata.Metadata, error) {
	return formatOf(queryValue(r.URL.RawQuery, "$format"), r.Header.Get("Accept"))
}

// queryValue is url.ParseQuery(raw).Get(name), without the map: the
// first value of name, pairs that do not parse skipped as ParseQuery
// skips them.
func queryValue(raw, name string) string {
	if raw == "" {
		return ""
	}
	if strings.Count(raw, "&") >= 100 { // ParseQuery's own limit applies
		vals, _ := url.ParseQuery(raw)
		return vals.Get(name)
	}
	for raw != "" {
		var pair string
		pair, raw, _ = strings.Cut(raw, "&")
		if pair == "" || strings.Contains(pair, ";") {
			continue
		}
		k, v, _ := strings.Cut(pair, "=")
		if k, err := url.QueryUnescape(k); err != nil || k != name {
			continue
		}
		if v, err := url.QueryUnescape(v); err == nil {
			return v
		}
	}
	return ""
}

// formatOf is responseFormat from the $format parameter and the Accept
// header.
func formatOf(format, accept string) (odata.Metadata, error) {
	if format != "" {
		accept = format
	}
	switch accept { // what the SDKs send, without parsing it
	case "", "json", "application/json;odata=minimalmetadata":
		return odata.MinimalMetadata, nil
	case "application/json;odata=nometadata":
		return odata.NoMetadata, nil
	case "application/json;odata=fullmetadata":
		return odata.FullMetadata, nil
	}
	sawJSON, sawAtom := false, false
	level := odata.MinimalMetadata
	for _, part := range strings.Split(accept, ",") {
		mt, params, err := mime.ParseMediaType(strings.TrimSpace(part))
		if err != nil {
			continue
		}
		switch mt {
		case "application/json", "*/*", "application/*":
			if !sawJSON {
				if m, ok := odata.ParseMetadata(params["odata"]); ok {
					level = m
				}
			}
			sawJSON = true
		case "application/atom+xml", "application/xml", "text/xml":
			sawAtom = true
		}
	}
	if !sawJSON && sawAtom {
		return 0, atomError()
	}
	return level, nil
}

func atomError() error {
	return errorf(odata.CodeAtomFormatNotSupported,
		"Atom and XML payloads are not supported: send and accept JSON (Content-Type: application/json, Accept: application/json;odata=minimalmetadata)")
}

// readBody reads a request body of at most limit bytes, checking that it
// is JSON (or untyped).
func (q *request) readBody(limit int64) ([]byte, error) {
	if ct := q.r.Header.Get("Content-Type"); ct != "" {
		mt, _, _ := mime.ParseMediaType(ct)
		if strings.Contains(mt, "xml") {
			return nil, atomError()
		}
	}
	return readSized(q.r.Body, q.r.ContentLength, limit)
}

// readLimited reads r whole, or answers 413 RequestBodyTooLarge when it
// holds more than limit bytes.
func readLimited(r io.Reader, limit int64) ([]byte, error) {
	return readSized(r, -1, limit)
}

// readSized is readLimited with the body's announced length (-1 when
// unknown), read into one buffer of that size.
func readSized(r io.Reader, length, limit int64) ([]byte, error) {
	return readSizedInto(nil, r, length, limit)
}

// readSizedInto is readSized reading into buf when it can hold a body of
// the announced length.
func readSizedInto(buf []byte, r io.Reader, length, limit int64) ([]byte, error) {
	if length > limit {
		return nil, errorf(odata.CodeRequestBodyTooLarge, "the request body is %d bytes, larger than %d (%d MiB); send less in one request", length, limit, limit>>20)
	}
	var body []byte
	var err error
	if length >= 0 {
		if int64(cap(buf)) > length {
			body = buf[:length]
		} else {
			body = make([]byte, length, length+1)
		}
		_, err = io.ReadFull(r, body)
		if err == nil {
			var one [1]byte
			if n, _ := r.Read(one[:]); n > 0 {
				body = append(body, one[0]) // longer than announced: refused below
			}
		}
	} else {
		body, err = io.ReadAll(io.LimitReader(r, limit+1))
	}
	if isTimeout(err) {
		return nil, errorf(odata.CodeOperationTimedOut, "the request did not arrive whole within the 30 seconds the service gives one operation")
	}
	if err != nil {
		return nil, errorf(odata.CodeInvalidInput, "the request body could not be read: %v", err)
	}
	if int64(len(body)) > limit {
		return nil, errorf(odata.CodeRequestBodyTooLarge, "the request body is larger than %d bytes (%d MiB); send less in one request", limit, limit>>20)
	}
	return body, nil
}

// preference is the client's Prefer header: "return-no-content",
// "return-content", or "" when it says neither.
func preference(r *http.Request) string {
	return preferenceOf(r.Header.Get("Prefer"))
}

// preferenceOf reads a Prefer header's value as preference does.
func preferenceOf(v string) string {
	for v != "" {
		var p string
		p, v, _ = strings.Cut(v, ",")
		switch p = strings.TrimSpace(p); p {
		case "return-no-content", "return-content":
			return p
		}
	}
	return ""
}

// keyPath is the service's resource path of an entity, relative to the
// service root: T(PartitionKey='a',RowKey='b'), quotes doubled and the
// keys percent-encoded.
func keyPath(table, pk, rk string) string {
	return table + "(PartitionKey='" + escapeKey(pk) + "',RowKey='" + escapeKey(rk) + "')"
}

// appendKeyPath appends keyPath(table, pk, rk) to b.
func appendKeyPath(b []byte, table, pk, rk string) []byte {
	b = append(b, table...)
	b = append(b, "(PartitionKey='"...)
	b = append(b, escapeKey(pk)...)
	b = append(b, "',RowKey='"...)
	b = append(b, escapeKey(rk)...)
	return append(b, "')"...)
}

// escapeKey writes a key as the service writes it in an entity's URL
// (Location, odata.id): quotes doubled, and every byte but the unreserved
// ones (letters, digits, - . _ ~) and the quote percent-encoded, ':' '@'
// '+' ',' '$' '=' '&' and space included.
func escapeKey(k string) string {
	if unreserved(k) {
		return k
	}
	const hex = "0123456789ABCDEF"
	var b strings.Builder
	for i := 0; i < len(k); i++ {
		switch c := k[i]; {
		case c == '\'':
			b.WriteString("''")
		case unreserved(k[i : i+1]):
			b.WriteByte(c)
		default:
			b.WriteByte('%')
			b.WriteByte(hex[c>>4])
			b.WriteByte(hex[c&15])
		}
	}
	return b.String()
}

// entityLinks are the metadata of entity e of table at the request's level.
func (q *request) entityLinks(table string, e *odata.Entity, element bool) odata.EntityLinks {
	var l odata.EntityLinks
	if element {
		l.Metadata = q.base + "/$metadata#" + table + "/@Element"
	}
	if q.format == odata.FullMetadata {
		p := keyPath(table, e.PartitionKey, e.RowKey)
		l.Type = q.s.account + "." + table
		l.ID = q.base + "/" + p
		l.EditLink = p
	}
	return l
}

// entityHeaders sets ETag and Location for a stored entity.
func (q *request) entityHeaders(table string, e *odata.Entity) {
	h := q.w.Header()
	if etag := e.ETag(); etag != "" {
		h.Set("ETag", etag)
	}
	q.locationHeaders(q.base + "/" + keyPath(table, e.PartitionKey, e.RowKey))
}

// locationHeaders sets the Location of what a request created, and the
// same as DataServiceId when the answer has no body (Prefer:
// return-no-content), as the service answers.
func (q *request) locationHeaders(loc string) {
	h := q.w.Header()
	h.Set("Location", loc)
	if preference(q.r) == "return-no-content" {
		h.Set("DataServiceId", loc)
	}
}

// unreserved reports whether s holds only the characters a URL never
// escapes (letters, digits, - . _ ~).
func unreserved(s string) bool {
	for i := 0; i < len(s); i++ {
		c := s[i]
		if !('a' <= c && c <= 'z' || 'A' <= c && c <= 'Z' || '0' <= c && c <= '9' || c == '-' || c == '.' || c == '_' || c == '~') {
			return false
		}
	}
	return true
}
