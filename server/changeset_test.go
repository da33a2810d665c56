package server

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"mime"
	"mime/multipart"
	"net/http/httptest"
	"path/filepath"
	"reflect"
	"strings"
	"testing"

	"github.com/tstable/tstable/odata"
	"github.com/tstable/tstable/store"
)

// multipartParts reads a batch's body with mime/multipart, step by step as
// the general reading (opReader.general, opReader.changeset) does, and
// returns the parts of its changeset: what splitChangeset must cut. A
// batch that holds a query, or that the general reading refuses before
// any operation is read, is an error.
func multipartParts(body []byte, boundary string) ([]changesetPart, error) {
	mr := multipart.NewReader(bytes.NewReader(body), boundary)
	part, err := mr.NextPart()
	if err != nil {
		return nil, fmt.Errorf("no part: %w", err)
	}
	mt, params, err := mime.ParseMediaType(part.Header.Get("Content-Type"))
	if mt == "application/http" {
		return nil, errors.New("a query")
	}
	if err != nil || mt != "multipart/mixed" || params["boundary"] == "" {
		return nil, errors.New("not a changeset")
	}
	cs := multipart.NewReader(part, params["boundary"])
	var parts []changesetPart
	for {
		p, err := cs.NextPart()
		if err == io.EOF {
			break
		}
		if err != nil {
			return nil, fmt.Errorf("part %d: %w", len(parts), err)
		}
		raw, err := io.ReadAll(p)
		if err != nil {
			return nil, fmt.Errorf("part %d: %w", len(parts), err)
		}
		parts = append(parts, changesetPart{raw: raw, contentID: p.Header.Get("Content-ID")})
	}
	if len(parts) == 0 {
		return nil, errors.New("no operation")
	}
	if next, err := mr.NextPart(); err == nil && next != nil {
		return nil, errors.New("more parts")
	}
	return parts, nil
}

// sameParts reports how got differs from want ("" when it does not).
func sameParts(got, want []changesetPart) string {
	if len(got) != len(want) {
		return fmt.Sprintf("%d parts, want %d", len(got), len(want))
	}
	for i := range got {
		if !bytes.Equal(got[i].raw, want[i].raw) || got[i].contentID != want[i].contentID {
			return fmt.Sprintf("part %d: %q (Content-ID %q), want %q (%q)", i, got[i].raw, got[i].contentID, want[i].raw, want[i].contentID)
		}
	}
	return ""
}

// opTestRequest is a request of the default account, for reading
// operations without a server.
func opTestRequest() *request {
	return &request{s: &Server{account: DefaultAccount}, w: httptest.NewRecorder(), base: "http://h/" + DefaultAccount}
}

// FuzzSplitChangeset holds the one-pass reading of a batch to the general
// one on the same bodies: whenever splitChangeset cuts a body, mime/
// multipart reads the same parts from it (bytes and Content-ID), and the
// operations read from them are the same, or refused alike (code, index
// and message). A body splitChangeset leaves is read by the general
// reading alone, so it has nothing to compare.
func FuzzSplitChangeset(f *testing.F) {
	for _, s := range changesetSeeds() {
		f.Add(s.boundary, []byte(s.body))
	}
	f.Fuzz(func(t *testing.T, boundary string, body []byte) {
		checkSplit(t, boundary, body)
	})
}

// checkSplit fails t when splitChangeset cuts body otherwise than
// mime/multipart reads it, or when the operations read from its parts
// differ from the general reading's; it reports whether body was cut.
func checkSplit(t *testing.T, boundary string, body []byte) bool {
	t.Helper()
	parts, ok := splitChangeset(body, boundary, nil)
	if !ok {
		return false
	}
	want, err := multipartParts(body, boundary)
	if err != nil {
		t.Fatalf("%q: split into %d parts; mime/multipart reads: %v", body, len(parts), err)
	}
	if d := sameParts(parts, want); d != "" {
		t.Fatalf("%q: %s", body, d)
	}
	q := opTestRequest()
	fast, ferr := (&opReader{q: q}).operations(parts)
	slow, answered, serr := (&opReader{q: q}).general(body, boundary)
	if answered {
		t.Fatalf("%q: the general reading answered a query", body)
	}
	// An *odata.Error says its operation's index, its code and its message.
	if fmt.Sprint(ferr) != fmt.Sprint(serr) || odata.CodeOf(ferr) != odata.CodeOf(serr) {
		t.Fatalf("%q: refused as %v; the general reading: %v", body, ferr, serr)
	}
	if !reflect.DeepEqual(fast, slow) {
		t.Fatalf("%q: operations read:\n%+v\nthe general reading:\n%+v", body, fast, slow)
	}
	return true
}

// Every body one edit away from a seed that is cut (a byte that matters
// to the reading put in, put instead of another, or taken out) is cut as
// mime/multipart reads it, or left to the general reading.
func TestSplitChangesetNearSeeds(t *testing.T) {
	edits := []string{"\r", "\n", " ", "\t", "-", ":", ""}
	cases, cut := 0, 0
	for _, s := range changesetSeeds() {
		b := s.body
		if _, ok := splitChangeset([]byte(b), s.boundary, nil); !ok {
			continue
		}
		for i := 0; i <= len(b); i++ {
			for _, e := range edits {
				bodies := []string{b[:i] + e + b[i:]}
				if i < len(b) {
					bodies = append(bodies, b[:i]+e+b[i+1:])
				}
				for _, body := range bodies {
					cases++
					if checkSplit(t, s.boundary, []byte(body)) {
						cut++
					}
				}
			}
		}
	}
	t.Logf("%d bodies, %d cut in one pass", cases, cut)
}

// changesetSeed is a batch body and its boundary.
type changesetSeed struct {
	name, boundary, body string
}

// op is one insert of a changeset, as the SDKs write it.
func op(headers, entity string) string {
	return "Content-Type: application/http\r\nContent-Transfer-Encoding: binary\r\n" + headers + "\r\n" +
		"POST http://h/devstoreaccount1/T HTTP/1.1\r\nAccept: application/json;odata=minimalmetadata\r\n" +
		"Content-Type: application/json\r\nPrefer: return-no-content\r\n\r\n" + entity + "\r\n"
}

// changeset is a batch (boundary batch_b) of one changeset (boundary
// changeset_c) holding parts.
func changeset(parts ...string) string {
	b := "--batch_b\r\nContent-Type: multipart/mixed; boundary=changeset_c\r\n\r\n"
	for _, p := range parts {
		b += "--changeset_c\r\n" + p
	}
	return b + "--changeset_c--\r\n--batch_b--\r\n"
}

// lf is body with every CRLF a bare LF.
func lf(body string) string { return strings.ReplaceAll(body, "\r\n", "\n") }

func changesetSeeds() []changesetSeed {
	e1, e2 := `{"PartitionKey":"p","RowKey":"1","A":1}`, `{"PartitionKey":"p","RowKey":"2","B":"x"}`
	two := changeset(op("", e1), op("", e2))
	return []changesetSeed{
		{"CRLF", "batch_b", two},
		{"bare LF", "batch_b", lf(two)},
		{"Content-ID, names in any case", "batch_b", changeset(op("content-id: 1\r\n", e1), op("CONTENT-ID:2 \r\n", e2))},
		{"no Content-Transfer-Encoding", "batch_b", changeset("Content-Type: application/http\r\n\r\nDELETE http://h/devstoreaccount1/T(PartitionKey='p',RowKey='1') HTTP/1.1\r\nIf-Match: *\r\n\r\n\r\n")},
		{"quoted boundary", "batch_b", strings.Replace(two, "boundary=changeset_c", `boundary="changeset_c"`, 1)},
		{"blank line after the changeset", "batch_b", strings.Replace(two, "--changeset_c--\r\n", "--changeset_c--\r\n\r\n", 1)},
		{"preamble", "batch_b", "preamble\r\n" + two},
		{"as the JavaScript SDK writes it", "batch_b", "--batch_b\r\ncontent-type: multipart/mixed; boundary=changeset_c\r\n\r\n\r\n" +
			"--changeset_c\r\ncontent-type: application/http\r\ncontent-transfer-encoding: binary\r\n\r\n" +
			"POST http://h/devstoreaccount1/T HTTP/1.1\r\nContent-Type: application/json;odata=nometadata\r\nPrefer: return-no-content\r\n\r\n\r\n" + e1 + "\r\n" +
			"--changeset_c--\r\n--batch_b--\r\n"},
		{"as the Go SDK writes it", "batch_b", "--batch_b\r\nContent-Type: multipart/mixed; boundary=changeset_c\r\n\r\n" +
			"--changeset_c\r\nContent-Transfer-Encoding: binary\r\nContent-Type: application/http\r\n\r\n" +
			"POST http://h/devstoreaccount1/T?%24format=application%2Fjson%3Bodata%3Dminimalmetadata HTTP/1.1\r\nAccept: application/json;odata=minimalmetadata\r\n" +
			"Content-Length: 39\r\nContent-Type: application/json\r\nDataServiceVersion: \r\nPrefer: return-no-content\r\nx-ms-version: \r\n\r\n" + e1 + "\r\n" +
			"--changeset_c--\r\n--batch_b--\r\n"},
		{"as an older JavaScript SDK writes it", "batch_b", "--batch_b\ncontent-type: multipart/mixed;charset=\"utf-8\";boundary=changeset_c\n\n" +
			"--changeset_c\ncontent-type: application/http\ncontent-transfer-encoding: binary\n\n" +
			"POST http://h/devstoreaccount1/T HTTP/1.1\nPrefer: return-content\ncontent-type: application/json;type=entry\ncontent-id: 1\n\n" + e1 + "\n" +
			"--changeset_c--\n--batch_b--"},
		{"spaces after the delimiters", "batch_b", strings.ReplaceAll(two, "--changeset_c\r\n", "--changeset_c \t\r\n")},
		{"no line break at the end", "batch_b", strings.TrimSuffix(two, "\r\n")},
		{"a boundary inside an entity", "batch_b", changeset(op("", `{"PartitionKey":"p","RowKey":"--changeset_c"}`))},
		{"a boundary at a line start", "batch_b", changeset(op("", "{\"PartitionKey\":\"p\",\r\n--changeset_cc\"RowKey\":\"1\"}"))},
		{"bad entity", "batch_b", changeset(op("", e1), op("", `{"PartitionKey":"p"`))},
		{"a query in the changeset", "batch_b", changeset("Content-Type: application/http\r\n\r\nGET http://h/devstoreaccount1/T() HTTP/1.1\r\n\r\n\r\n")},
		{"quoted-printable", "batch_b", changeset(strings.Replace(op("", e1), "binary", "Quoted-Printable", 1))},
		{"quoted-printable after binary", "batch_b", changeset(op("Content-Transfer-Encoding: quoted-printable\r\n", e1))},
		{"folded header", "batch_b", changeset(op("Content-ID: 1\r\n 2\r\n", e1))},
		{"two changesets", "batch_b", strings.TrimSuffix(two, "--batch_b--\r\n") + "--batch_b\r\nContent-Type: multipart/mixed; boundary=changeset_c\r\n\r\n--changeset_c--\r\n--batch_b--\r\n"},
		{"a query", "batch_b", "--batch_b\r\nContent-Type: application/http\r\nContent-Transfer-Encoding: binary\r\n\r\nGET http://h/devstoreaccount1/T() HTTP/1.1\r\n\r\n--batch_b--\r\n"},
		{"no closing delimiter", "batch_b", strings.TrimSuffix(two, "--batch_b--\r\n")},
		{"empty changeset", "batch_b", "--batch_b\r\nContent-Type: multipart/mixed; boundary=changeset_c\r\n\r\n--changeset_c--\r\n--batch_b--\r\n"},
		{"other boundary", "b", strings.ReplaceAll(two, "batch_b", "b")},
	}
}

// The one pass cuts every shape the SDKs send, as mime/multipart reads
// it, and leaves to the general reading what it is not sure of.
func TestSplitChangesetCutsWhatClientsSend(t *testing.T) {
	leaves := map[string]bool{
		"quoted-printable": true, "folded header": true, "two changesets": true, "a query": true,
		"no closing delimiter": true, "empty changeset": true,
	}
	for _, s := range changesetSeeds() {
		t.Run(s.name, func(t *testing.T) {
			parts, ok := splitChangeset([]byte(s.body), s.boundary, nil)
			if ok == leaves[s.name] {
				t.Fatalf("cut %v, want %v", ok, !leaves[s.name])
			}
			if !ok {
				return
			}
			want, err := multipartParts([]byte(s.body), s.boundary)
			if err != nil {
				t.Fatal(err)
			}
			if d := sameParts(parts, want); d != "" {
				t.Fatal(d)
			}
		})
	}
}

// The batches of the Python SDK's recordings against the real service
// are all cut in one pass, as mime/multipart reads them.
func TestSplitChangesetCutsRecordedBatches(t *testing.T) {
	n := 0
	for _, rec := range readFacts(t) {
		for _, f := range rec {
			_, params, err := mime.ParseMediaType(f.Header["Content-Type"])
			if !strings.Contains(f.Target, "$batch") || err != nil {
				continue
			}
			want, err := multipartParts([]byte(f.Body), params["boundary"])
			if err != nil {
				continue // a query, or refused: left to the general reading
			}
			parts, ok := splitChangeset([]byte(f.Body), params["boundary"], nil)
			if !ok {
				t.Errorf("%s: left to the general reading", f.Rec)
				continue
			}
			if d := sameParts(parts, want); d != "" {
				t.Errorf("%s: %s", f.Rec, d)
			}
			n++
		}
	}
	if n == 0 {
		t.Fatal("no recorded changeset")
	}
	t.Logf("%d recorded changesets cut", n)
}

// Each refusal of a batch's reading is answered as before the one pass:
// those of the body's shape by the general reading (the one pass leaves
// such bodies to it), those of an operation by the reading of operations
// both share; 202 with the failing operation's answer, its index first,
// for an operation, else the error alone.
func TestBatchReadingRefusals(t *testing.T) {
	db, err := store.Open(filepath.Join(t.TempDir(), "r.db"), nil)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { db.Close() })
	if err := db.CreateTable(context.Background(), "Tab"); err != nil {
		t.Fatal(err)
	}
	h := New(db, Options{})
	entity := `{"PartitionKey":"p","RowKey":"1"}`
	request := func(line, headers, body string) string {
		return "Content-Type: application/http\r\n\r\n" + line + "\r\n" + headers + "\r\n" + body + "\r\n"
	}
	insert := request("POST http://h/devstoreaccount1/Tab HTTP/1.1", "", entity)
	many := make([]string, 101)
	for i := range many {
		many[i] = request("POST http://h/devstoreaccount1/Tab HTTP/1.1", "", fmt.Sprintf(`{"PartitionKey":"p","RowKey":"%d"}`, i))
	}
	for _, tc := range []struct {
		name, body string
		cut        bool // the one pass cuts the body
		code       odata.Code
		index      int // the operation named, -1 for none
	}{
		{"no part", "no boundary here", false, odata.CodeInvalidInput, -1},
		{"not a changeset", "--batch_b\r\nContent-Type: text/plain\r\n\r\nx\r\n--batch_b--\r\n", false, odata.CodeInvalidInput, -1},
		{"an operation not closed", "--batch_b\r\nContent-Type: multipart/mixed; boundary=changeset_c\r\n\r\n--changeset_c\r\n" + insert + "--batch_b--\r\n", false, odata.CodeInvalidInput, 0},
		{"none: an insert", changeset(insert), true, "", -1},
		{"no operation", changeset(), false, odata.CodeInvalidInput, -1},
		{"two changesets", strings.TrimSuffix(changeset(insert), "--batch_b--\r\n") + "--batch_b\r\nContent-Type: multipart/mixed; boundary=changeset_c\r\n\r\n--changeset_c--\r\n--batch_b--\r\n", false, odata.CodeInvalidInput, -1},
		{"request line", changeset(insert, request("POST", "", entity)), true, odata.CodeInvalidInput, 1},
		{"header line", changeset(request("POST http://h/devstoreaccount1/Tab HTTP/1.1", "No colon\r\n", entity)), true, odata.CodeInvalidInput, 0},
		{"not a URL", changeset(request("POST http://h/devstoreaccount1/%zz HTTP/1.1", "", entity)), true, odata.CodeInvalidURI, 0},
		{"another account", changeset(request("POST http://h/other/T HTTP/1.1", "", entity)), true, odata.CodeInvalidURI, 0},
		{"not a table", changeset(request("POST http://h/devstoreaccount1/Tab/x HTTP/1.1", "", entity)), true, odata.CodeInvalidURI, 0},
		{"a batch in a batch", changeset(request("POST http://h/devstoreaccount1/$batch HTTP/1.1", "", entity)), true, odata.CodeInvalidInput, 0},
		{"a query in a changeset", changeset(insert, request("GET http://h/devstoreaccount1/Tab() HTTP/1.1", "", "")), true, odata.CodeInvalidInput, 1},
		{"an unknown verb", changeset(request("HEAD http://h/devstoreaccount1/Tab() HTTP/1.1", "", "")), true, odata.CodeUnsupportedHTTPVerb, 0},
		{"a delete without If-Match", changeset(request("DELETE http://h/devstoreaccount1/Tab(PartitionKey='p',RowKey='1') HTTP/1.1", "", "")), true, odata.CodeMissingRequiredHeader, 0},
		{"an insert to an entity", changeset(request("POST http://h/devstoreaccount1/Tab(PartitionKey='p',RowKey='1') HTTP/1.1", "", entity)), true, odata.CodeInvalidURI, 0},
		{"an update of a table", changeset(request("PUT http://h/devstoreaccount1/Tab HTTP/1.1", "If-Match: *\r\n", entity)), true, odata.CodeInvalidURI, 0},
		{"an entity that is not JSON", changeset(insert, request("POST http://h/devstoreaccount1/Tab HTTP/1.1", "", "{")), true, odata.CodeInvalidInput, 1},
		{"an entity that is not JSON, bare LF", lf(changeset(insert, request("POST http://h/devstoreaccount1/Tab HTTP/1.1", "", "{"))), true, odata.CodeInvalidInput, 1},
		{"over 100 operations", changeset(many...), true, odata.CodeInvalidInput, 99},
	} {
		t.Run(tc.name, func(t *testing.T) {
			if _, cut := splitChangeset([]byte(tc.body), "batch_b", nil); cut != tc.cut {
				t.Errorf("cut in one pass: %v, want %v", cut, tc.cut)
			}
			req := httptest.NewRequest("POST", "/devstoreaccount1/$batch", strings.NewReader(tc.body))
			req.Header.Set("Content-Type", "multipart/mixed; boundary=batch_b")
			w := httptest.NewRecorder()
			h.ServeHTTP(w, req)
			body := w.Body.String()
			switch {
			case tc.code == "":
				if w.Code != 202 || strings.Contains(body, "odata.error") {
					t.Fatalf("%d %s, want the batch done", w.Code, body)
				}
			case tc.index < 0:
				if w.Code != tc.code.Status() || w.Header().Get("x-ms-error-code") != string(tc.code) {
					t.Fatalf("%d %s %s, want %d %s", w.Code, w.Header().Get("x-ms-error-code"), body, tc.code.Status(), tc.code)
				}
			default:
				want := fmt.Sprintf(`HTTP/1.1 %d`, tc.code.Status())
				if w.Code != 202 || !strings.Contains(body, want) || !strings.Contains(body, `"code":"`+string(tc.code)+`"`) || !strings.Contains(body, fmt.Sprintf(`"value":"%d:`, tc.index)) {
					t.Fatalf("%d %s, want 202 holding %s %s at operation %d", w.Code, body, want, tc.code, tc.index)
				}
			}
		})
	}
}
