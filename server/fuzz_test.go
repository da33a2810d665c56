package server_test

import (
	"bytes"
	"net/http"
	"net/http/httptest"
	"net/url"
	"path/filepath"
	"strings"
	"testing"

	"github.com/tstable/tstable/server"
	"github.com/tstable/tstable/store"
)

// FuzzRequests posts random bodies (entities, batches, table names,
// filters, paths, ACLs, service properties, $select lists) at the server:
// it never fails with a 5xx or a panic, and every refusal is the service's
// error with its code, in JSON or, for the XML operations, in XML.
func FuzzRequests(f *testing.F) {
	seeds := []struct {
		kind byte
		body string
	}{
		{0, `{"PartitionKey":"p","RowKey":"r","A":1,"B@odata.type":"Edm.Int64","B":"5"}`},
		{0, `{"PartitionKey":"p","RowKey":"r","A@odata.type":"Edm.Guid","A":"not a guid"}`},
		{0, `{"PartitionKey":"p","RowKey":"r","A":1e400}`},
		{1, `{"A":"x","Timestamp":"2020-01-01T00:00:00Z"}`},
		{2, `{"B":true}`},
		{3, "--batch_b\r\nContent-Type: multipart/mixed; boundary=changeset_c\r\n\r\n--changeset_c\r\nContent-Type: application/http\r\n\r\nPOST http://h/devstoreaccount1/Fuzz HTTP/1.1\r\nContent-Type: application/json\r\n\r\n{\"PartitionKey\":\"p\",\"RowKey\":\"x\"}\r\n--changeset_c--\r\n--batch_b--\r\n"},
		{3, "--batch_b\r\nContent-Type: multipart/mixed; boundary=changeset_c\r\n\r\n--changeset_c\r\n\r\nDELETE http://h/devstoreaccount1/Fuzz(PartitionKey='p',RowKey='x') HTTP/1.1\r\nIf-Match: *\r\n\r\n\r\n--changeset_c--\r\n--batch_b--\r\n"},
		{3, "--batch_b\r\n\r\n--batch_b--"},
		{4, `{"TableName":"Fuzz2"}`},
		{5, `PartitionKey eq 'p' and (A gt 1 or not B)`},
		{5, `A eq datetime'2020-13-01T00:00:00Z'`},
		{6, `Fuzz(PartitionKey='a''b',RowKey='%41')`},
		{3, "--batch_b\r\nContent-Type: application/http\r\nContent-Transfer-Encoding: binary\r\n\r\nGET http://h/devstoreaccount1/Fuzz(PartitionKey='p',RowKey='x') HTTP/1.1\r\nAccept: application/json;odata=nometadata\r\n--batch_b--\r\n"},
		{7, `<SignedIdentifiers><SignedIdentifier><Id>a</Id><AccessPolicy><Start>2021-06-08T02:10:09Z</Start><Expiry>2021-06-08</Expiry><Permission>ra</Permission></AccessPolicy></SignedIdentifier><SignedIdentifier><Id>b</Id><AccessPolicy /></SignedIdentifier></SignedIdentifiers>`},
		{7, `<SignedIdentifiers><SignedIdentifier><Id>a</Id><AccessPolicy><Start>yesterday</Start></AccessPolicy></SignedIdentifier></SignedIdentifiers>`},
		{8, `<StorageServiceProperties><Cors><CorsRule><AllowedOrigins>*</AllowedOrigins><AllowedMethods>GET</AllowedMethods><AllowedHeaders>x-ms-*,a</AllowedHeaders><ExposedHeaders>*</ExposedHeaders><MaxAgeInSeconds>5</MaxAgeInSeconds></CorsRule></Cors></StorageServiceProperties>`},
		{8, `<StorageServiceProperties><Logging><Version>1.0</Version><Delete>true</Delete><RetentionPolicy><Enabled>true</Enabled><Days>0</Days></RetentionPolicy></Logging></StorageServiceProperties>`},
		{9, `A, B,PartitionKey,Timestamp`},
		{9, `*`},
	}
	for _, s := range seeds {
		f.Add(s.kind, []byte(s.body))
	}
	db, err := store.Open(filepath.Join(f.TempDir(), "fuzz.db"), nil)
	if err != nil {
		f.Fatal(err)
	}
	f.Cleanup(func() { db.Close() })
	h := server.New(db, server.Options{})
	create := httptest.NewRequest("POST", "/devstoreaccount1/Tables", strings.NewReader(`{"TableName":"Fuzz"}`))
	h.ServeHTTP(httptest.NewRecorder(), create)

	f.Fuzz(func(t *testing.T, kind byte, body []byte) {
		var req *http.Request
		xmlOp := false
		switch kind % 10 {
		case 0:
			req = httptest.NewRequest("POST", "/devstoreaccount1/Fuzz", bytes.NewReader(body))
		case 1:
			req = httptest.NewRequest("PUT", "/devstoreaccount1/Fuzz(PartitionKey='p',RowKey='r')", bytes.NewReader(body))
		case 2:
			req = httptest.NewRequest("MERGE", "/devstoreaccount1/Fuzz(PartitionKey='p',RowKey='r')", bytes.NewReader(body))
			req.Header.Set("If-Match", "*")
		case 3:
			req = httptest.NewRequest("POST", "/devstoreaccount1/$batch", bytes.NewReader(body))
			req.Header.Set("Content-Type", "multipart/mixed; boundary=batch_b")
		case 4:
			req = httptest.NewRequest("POST", "/devstoreaccount1/Tables", bytes.NewReader(body))
		case 5:
			req = httptest.NewRequest("GET", "/devstoreaccount1/Fuzz()?$filter="+url.QueryEscape(string(body)), nil)
		case 6:
			req = httptest.NewRequest("GET", "/devstoreaccount1/"+url.PathEscape(string(body)), nil)
		case 7:
			req, xmlOp = httptest.NewRequest("PUT", "/devstoreaccount1/Fuzz?comp=acl", bytes.NewReader(body)), true
		case 8:
			req, xmlOp = httptest.NewRequest("PUT", "/devstoreaccount1/?restype=service&comp=properties", bytes.NewReader(body)), true
		case 9:
			req = httptest.NewRequest("GET", "/devstoreaccount1/Fuzz()?$select="+url.QueryEscape(string(body)), nil)
		}
		if k := kind % 10; k <= 4 && k != 3 {
			req.Header.Set("Content-Type", "application/json")
		}
		w := httptest.NewRecorder()
		h.ServeHTTP(w, req)
		if w.Code >= 500 {
			t.Fatalf("%s %s: %d %s", req.Method, req.URL, w.Code, w.Body)
		}
		form := `"odata.error"`
		if xmlOp {
			form = "<m:error"
		}
		if w.Code >= 400 && (w.Header().Get("x-ms-error-code") == "" || !strings.Contains(w.Body.String(), form)) {
			t.Fatalf("%s %s: %d without the service's error: %s", req.Method, req.URL, w.Code, w.Body)
		}
	})
}
