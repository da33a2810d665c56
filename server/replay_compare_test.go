package server

import (
	"bufio"
	"bytes"
	"crypto/hmac"
	"crypto/sha256"
	"encoding/base64"
	"encoding/json"
	"encoding/xml"
	"fmt"
	"io"
	"mime"
	"mime/multipart"
	"net/http"
	"net/url"
	"regexp"
	"strings"
	"time"
)

// How an answer of tstable is compared with the service's.

// replayHeaders are the response headers a client reads, compared both
// ways (a header one side sends and the other does not is a difference).
var replayHeaders = []string{"Content-Type", "ETag", "Location", "DataServiceId", "Preference-Applied",
	"x-ms-continuation-NextTableName", "x-ms-continuation-NextPartitionKey", "x-ms-continuation-NextRowKey"}

// continuationHeaders are compared by presence: their values are opaque.
var continuationHeaders = map[string]bool{"x-ms-continuation-NextTableName": true,
	"x-ms-continuation-NextPartitionKey": true, "x-ms-continuation-NextRowKey": true}

var (
	// serviceTime is a DateTime as the service writes it: up to seven
	// fractional digits, trailing zeros trimmed (none when whole).
	serviceTime = `\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d(\.\d{0,6}[1-9])?Z`
	timeRE      = regexp.MustCompile(`^` + serviceTime + `$`)
	etagRE      = regexp.MustCompile(`^W/"datetime'` + strings.ReplaceAll(serviceTime, ":", "%3A") + `'"$`)
	indexRE     = regexp.MustCompile(`^(\d+):`)
)

// compare returns what differs between the service's answer (f) and
// tstable's (res).
func (r *replayer) compare(f fact, res *replayResponse) []string {
	r.learn(f, res)
	if res.status != f.Status {
		return []string{fmt.Sprintf("status %d (%s), the service answered %d (%s)", res.status, errorOf(res.header.Get("Content-Type"), res.body), f.Status, errorOf(f.ResHeader["Content-Type"], f.ResBody))}
	}
	var diffs []string
	if ours, theirs := errorOf(res.header.Get("Content-Type"), res.body), errorOf(f.ResHeader["Content-Type"], f.ResBody); ours != theirs {
		diffs = append(diffs, fmt.Sprintf("error %s, the service answered %s", ours, theirs))
	}
	if f.Mode == "status" {
		return diffs
	}
	if f.Mode == "tables" {
		return append(diffs, r.compareTables(f, res)...)
	}
	diffs = append(diffs, compareHeaders(f.ResHeader, res.header)...)
	oursBody, theirsBody := res.body, f.ResBody
	if f.Method == http.MethodGet && strings.Contains(f.Target, "comp=properties") && res.status == http.StatusOK {
		// The elements the recording did not set are the account's.
		oursBody, theirsBody = r.ownProperties(oursBody), r.ownProperties(theirsBody)
	}
	ours, theirs := canonBody(res.header.Get("Content-Type"), oursBody), canonBody(f.ResHeader["Content-Type"], theirsBody)
	if ours != theirs {
		diffs = append(diffs, fmt.Sprintf("body\n\t  tstable: %s\n\t  service: %s", ours, theirs))
	}
	return diffs
}

// compareHeaders compares the headers a client reads.
func compareHeaders(theirs map[string]string, ours http.Header) []string {
	var diffs []string
	for _, name := range replayHeaders {
		o, t := normalizeHeader(name, ours.Get(name)), normalizeHeader(name, theirs[name])
		if o != t {
			diffs = append(diffs, fmt.Sprintf("header %s %q, the service answered %q", name, o, t))
		}
	}
	return diffs
}

// normalizeHeader makes equal what legitimately differs in a header.
func normalizeHeader(name, v string) string {
	switch {
	case v == "":
		return ""
	case continuationHeaders[name]:
		return "(present)"
	case name == "ETag":
		return normalizeETag(v)
	case name == "Content-Type" && strings.HasPrefix(v, "multipart/mixed"):
		return "multipart/mixed; boundary={boundary}"
	}
	return strings.ReplaceAll(v, replayBase, "{base}")
}

func normalizeETag(v string) string {
	if etagRE.MatchString(v) {
		return "{etag}"
	}
	return v
}

// errorOf is an error answer's code, the index of the failing operation
// when its message starts with one, and the message's first line, the
// service's sentence (the RequestId and Time lines, and tstable's line
// after them, left out); "" for other answers.
func errorOf(contentType, body string) string {
	code, msg := "", ""
	if strings.Contains(contentType, "xml") {
		var doc struct {
			Code     string `xml:"code"`
			UCode    string `xml:"Code"`
			Message  string `xml:"message"`
			UMessage string `xml:"Message"`
		}
		if xml.Unmarshal([]byte(strings.TrimPrefix(body, "\ufeff")), &doc) == nil {
			code, msg = doc.Code+doc.UCode, doc.Message+doc.UMessage
		}
	} else {
		var doc struct {
			Err struct {
				Code    string `json:"code"`
				Message struct {
					Value string `json:"value"`
				} `json:"message"`
			} `json:"odata.error"`
		}
		if json.Unmarshal([]byte(body), &doc) == nil {
			code, msg = doc.Err.Code, doc.Err.Message.Value
		}
	}
	if code == "" {
		return ""
	}
	msg, _, _ = strings.Cut(msg, "\n")
	if m := indexRE.FindStringSubmatch(msg); m != nil {
		return code + " at operation " + m[1] + ": " + strings.TrimPrefix(msg, m[0])
	}
	return code + ": " + msg
}

// canonBody is a body with what legitimately differs made equal: JSON
// with ETags and Timestamps of the service's form replaced, the host made
// {base}, error messages reduced to their code and first line; XML as its
// elements; a batch as its responses.
func canonBody(contentType, body string) string {
	body = strings.TrimPrefix(body, "\ufeff")
	switch {
	case body == "":
		return ""
	case strings.HasPrefix(contentType, "multipart/mixed"):
		return canonBatch(contentType, body)
	case strings.Contains(contentType, "xml"):
		return canonXML(body)
	case strings.Contains(contentType, "json"):
		if e := errorOf(contentType, body); e != "" {
			return "error " + e
		}
		return canonJSON(body)
	}
	return body
}

// canonJSON rewrites a JSON document with its members in order and the
// values that legitimately differ replaced.
func canonJSON(body string) string {
	body = strings.ReplaceAll(body, replayBase, "{base}")
	body = strings.ReplaceAll(body, `"odata.type":"`+DefaultAccount+`.`, `"odata.type":"{account}.`)
	dec := json.NewDecoder(strings.NewReader(body))
	dec.UseNumber()
	var b strings.Builder
	if err := canonValue(dec, &b, ""); err != nil {
		return "(not JSON: " + err.Error() + ") " + body
	}
	return b.String()
}

// canonValue copies one JSON value from dec to b; key is the member name
// it is the value of.
func canonValue(dec *json.Decoder, b *strings.Builder, key string) error {
	tok, err := dec.Token()
	if err != nil {
		return err
	}
	switch tok := tok.(type) {
	case json.Delim:
		return canonComposite(dec, b, tok)
	case string:
		b.WriteString(quoteJSON(canonString(key, tok)))
	case json.Number:
		b.WriteString(tok.String())
	case nil:
		b.WriteString("null")
	default:
		fmt.Fprint(b, tok)
	}
	return nil
}

func canonComposite(dec *json.Decoder, b *strings.Builder, open json.Delim) error {
	b.WriteRune(rune(open))
	for i := 0; dec.More(); i++ {
		if i > 0 {
			b.WriteByte(',')
		}
		key := ""
		if open == '{' {
			tok, err := dec.Token()
			if err != nil {
				return err
			}
			key, _ = tok.(string)
			b.WriteString(quoteJSON(key) + ":")
		}
		if err := canonValue(dec, b, key); err != nil {
			return err
		}
	}
	end, err := dec.Token()
	if err != nil {
		return err
	}
	b.WriteRune(rune(end.(json.Delim)))
	return nil
}

// canonString replaces an ETag or a Timestamp of the service's form.
func canonString(key, v string) string {
	switch {
	case key == "odata.etag":
		return normalizeETag(v)
	case key == "Timestamp" && timeRE.MatchString(v):
		return "{time}"
	}
	return v
}

func quoteJSON(s string) string {
	b, _ := json.Marshal(s)
	return string(bytes.ReplaceAll(b, []byte(`\u0026`), []byte("&")))
}

// canonXML lists an XML document's elements, attributes and text, in
// order, without the declaration and with what legitimately differs left
// out: the last sync time, and an error message's lines after its first
// (the request id and time, tstable's own line).
func canonXML(body string) string {
	dec := xml.NewDecoder(strings.NewReader(body))
	var b strings.Builder
	var path []string
	for {
		tok, err := dec.Token()
		if err == io.EOF {
			return b.String()
		}
		if err != nil {
			return "(not XML: " + err.Error() + ") " + body
		}
		switch tok := tok.(type) {
		case xml.StartElement:
			path = append(path, tok.Name.Local)
			fmt.Fprintf(&b, "<%s", xmlName(tok.Name))
			for _, a := range tok.Attr {
				fmt.Fprintf(&b, " %s=%q", xmlName(a.Name), a.Value)
			}
			b.WriteString(">")
		case xml.EndElement:
			path = path[:len(path)-1]
			fmt.Fprintf(&b, "</%s>", tok.Name.Local)
		case xml.CharData:
			if s := strings.TrimSpace(string(tok)); s != "" {
				switch path[len(path)-1] {
				case "message", "Message":
					s, _, _ = strings.Cut(s, "\n")
				case "LastSyncTime":
					s = "…"
				}
				b.WriteString(s)
			}
		}
	}
}

func xmlName(n xml.Name) string {
	if n.Space == "" {
		return n.Local
	}
	return "{" + n.Space + "}" + n.Local
}

// canonBatch lists a batch answer's responses: status, the headers a
// client reads, and the body.
func canonBatch(contentType, body string) string {
	parts, err := batchResponses(contentType, body)
	if err != nil {
		return "(not a batch answer: " + err.Error() + ") " + body
	}
	var b strings.Builder
	for i, p := range parts {
		fmt.Fprintf(&b, "\n\t\t[%d] %d", i, p.StatusCode)
		for _, name := range []string{"Content-Type", "ETag", "Location", "DataServiceId", "Preference-Applied"} {
			if v := normalizeHeader(name, p.Header.Get(name)); v != "" {
				fmt.Fprintf(&b, " %s: %s;", name, v)
			}
		}
		pb, _ := io.ReadAll(p.Body)
		if c := canonBody(p.Header.Get("Content-Type"), string(pb)); c != "" {
			b.WriteString(" " + c)
		}
	}
	return b.String()
}

// batchResponses reads the HTTP responses of a batch answer's changeset
// (or the answer's own parts when they are not in a changeset).
func batchResponses(contentType, body string) ([]*http.Response, error) {
	_, params, err := mime.ParseMediaType(contentType)
	if err != nil {
		return nil, err
	}
	var out []*http.Response
	mr := multipart.NewReader(strings.NewReader(body), params["boundary"])
	for {
		p, err := mr.NextPart()
		if err == io.EOF {
			return out, nil
		}
		if err != nil {
			return nil, err
		}
		if ct := p.Header.Get("Content-Type"); strings.HasPrefix(ct, "multipart/mixed") {
			raw, _ := io.ReadAll(p)
			inner, err := batchResponses(ct, string(raw))
			if err != nil {
				return nil, err
			}
			out = append(out, inner...)
			continue
		}
		raw, _ := io.ReadAll(p)
		res, err := http.ReadResponse(bufio.NewReader(bytes.NewReader(raw)), nil)
		if err != nil {
			return nil, err
		}
		out = append(out, res)
	}
}

// compareTables compares a listing of tables by the tables the recording
// created itself: the account it was recorded on held others.
func (r *replayer) compareTables(f fact, res *replayResponse) []string {
	ours, theirs := r.ownTables(tableNames(res.body)), r.ownTables(tableNames(f.ResBody))
	if o, t := strings.Join(ours, ","), strings.Join(theirs, ","); o != t {
		return []string{fmt.Sprintf("tables [%s], the service listed [%s] of this recording's", o, t)}
	}
	return nil
}

// ownTables keeps the names of tables the recording created.
func (r *replayer) ownTables(names []string) []string {
	var kept []string
	for _, n := range names {
		if r.created[strings.ToLower(n)] {
			kept = append(kept, n)
		}
	}
	return kept
}

func tableNames(body string) []string {
	var doc struct {
		Value []struct {
			TableName string `json:"TableName"`
		} `json:"value"`
	}
	json.Unmarshal([]byte(body), &doc)
	var out []string
	for _, v := range doc.Value {
		out = append(out, v.TableName)
	}
	return out
}

// learn maps the service's ETags and continuation tokens in an answer to
// tstable's, so that later requests (If-Match, Next...) carry tstable's.
func (r *replayer) learn(f fact, res *replayResponse) {
	for name := range continuationHeaders {
		if t, o := f.ResHeader[name], res.header.Get(name); t != "" && o != "" {
			r.tokens[t] = o
		}
	}
	if t, o := f.ResHeader["ETag"], res.header.Get("ETag"); t != "" && o != "" {
		r.etags[t] = o
	}
	theirs, ours := etagsIn(f.ResBody), etagsIn(res.body)
	for i := range theirs {
		if i < len(ours) {
			r.etags[theirs[i]] = ours[i]
		}
	}
}

var etagInBody = regexp.MustCompile(`W/\\?"datetime'[^']*'\\?"`)

// etagsIn lists the ETags in a body, in order, as they appear in it
// (escaped in JSON, plain in a batch's headers), unescaped.
func etagsIn(body string) []string {
	var out []string
	for _, m := range etagInBody.FindAllString(body, -1) {
		out = append(out, strings.ReplaceAll(m, `\"`, `"`))
	}
	return out
}

// signSAS returns the fact's target with a SAS signed again: the
// recordings replaced the signature with fake_token_value and the start
// and expiry with "start" and "end". They become an hour before and
// after the time of the request, and the signature the account key's.
func (r *replayer) signSAS(sent, target string) string {
	path, raw, ok := strings.Cut(target, "?")
	if !ok || !strings.Contains(raw, "sig=") {
		return target
	}
	at, _ := time.Parse(time.RFC3339, sent)
	q, _ := url.ParseQuery(raw)
	if q.Get("st") == "start" {
		q.Set("st", at.Add(-time.Hour).Format(time.RFC3339))
	}
	if q.Get("se") == "end" {
		q.Set("se", at.Add(time.Hour).Format(time.RFC3339))
	}
	q.Set("sig", sasSignature(q))
	return path + "?" + q.Encode()
}

// mapTokens replaces the service's continuation tokens in a request's
// query with the ones tstable answered in their place.
func (r *replayer) mapTokens(target string) string {
	path, raw, ok := strings.Cut(target, "?")
	if !ok || !strings.Contains(raw, "Next") {
		return target
	}
	pairs := strings.Split(raw, "&")
	for i, p := range pairs {
		k, v, _ := strings.Cut(p, "=")
		if !strings.HasPrefix(k, "Next") {
			continue
		}
		if u, err := url.QueryUnescape(v); err == nil {
			if ours, ok := r.tokens[u]; ok {
				pairs[i] = k + "=" + url.QueryEscape(ours)
			}
		}
	}
	return path + "?" + strings.Join(pairs, "&")
}

// sasSignature signs an account SAS or a table SAS with the emulator's key.
func sasSignature(q url.Values) string {
	var fields []string
	if q.Has("tn") {
		fields = []string{q.Get("sp"), q.Get("st"), q.Get("se"), "/table/" + DefaultAccount + "/" + strings.ToLower(q.Get("tn")),
			q.Get("si"), q.Get("sip"), q.Get("spr"), q.Get("sv"), q.Get("spk"), q.Get("srk"), q.Get("epk"), q.Get("erk")}
	} else {
		fields = []string{DefaultAccount, q.Get("sp"), q.Get("ss"), q.Get("srt"), q.Get("st"), q.Get("se"), q.Get("sip"), q.Get("spr"), q.Get("sv"), ""}
	}
	key, _ := base64.StdEncoding.DecodeString(DevelopmentKey)
	m := hmac.New(sha256.New, key)
	io.WriteString(m, strings.Join(fields, "\n"))
	return base64.StdEncoding.EncodeToString(m.Sum(nil))
}
