package server_test

import (
	"encoding/xml"
	"fmt"
	"regexp"
	"strings"
	"testing"
)

// messageShape is an error message as serve writes it: the service's
// sentence (after a batch operation's "N:"), the RequestId and Time lines
// as the service writes them, then tstable's own line.
var messageShape = regexp.MustCompile(`^([^\n]+)\nRequestId:([^\n]+)\nTime:\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{7}Z\ntstable: ([^\n]+)$`)

// Every refused request answers the service's status and code, with the
// service's error headers, and changes nothing.
func TestRefusedRequestsChangeNothing(t *testing.T) {
	c, _ := newClient(t)
	c.createTable("Orders")
	first := c.insert("Orders", `{"PartitionKey":"p","RowKey":"1","Status":"open"}`)
	etag := first.header.Get("ETag")
	c.mustDo(204, "PUT", "/Orders(PartitionKey='p',RowKey='1')", []byte(`{"Status":"closed"}`), "If-Match", etag)

	batchOf := func(n int, pk func(i int) string, payload func(i int) string) (string, []byte) {
		var ops []string
		for i := 0; i < n; i++ {
			ops = append(ops, "POST /Orders\nPrefer: return-no-content\n\n"+fmt.Sprintf(`{"PartitionKey":%q,"RowKey":"b%03d"%s}`, pk(i), i, payload(i)))
		}
		return batchBody(c.url, ops)
	}
	same := func(int) string { return "p" }
	none := func(int) string { return "" }
	ct101, body101 := batchOf(101, same, none)
	ctParts, bodyParts := batchOf(3, func(i int) string { return fmt.Sprintf("p%d", i) }, none)
	big := strings.Repeat("x", 30000) // 60 KB as UTF-16
	ctBig, bodyBig := batchOf(80, same, func(int) string { return `,"A":"` + big + `"` })
	ctMissing, bodyMissing := batchBody(c.url, []string{"POST /Nowhere\n\n{\"PartitionKey\":\"p\",\"RowKey\":\"x\"}"})
	ctDup, bodyDup := batchBody(c.url, []string{
		"POST /Orders\n\n{\"PartitionKey\":\"p\",\"RowKey\":\"d\"}",
		"POST /Orders\n\n{\"PartitionKey\":\"p\",\"RowKey\":\"d\"}",
	})
	ctExists, bodyExists := batchBody(c.url, []string{
		"POST /Orders\n\n{\"PartitionKey\":\"p\",\"RowKey\":\"new\"}",
		"POST /Orders\n\n{\"PartitionKey\":\"p\",\"RowKey\":\"1\"}",
	})
	ctStale, bodyStale := batchBody(c.url, []string{
		"POST /Orders\n\n{\"PartitionKey\":\"p\",\"RowKey\":\"new\"}",
		"PUT /Orders(PartitionKey='p',RowKey='1')\nIf-Match: " + etag + "\n\n{\"Status\":\"x\"}",
	})
	ctGone, bodyGone := batchBody(c.url, []string{
		"POST /Orders\n\n{\"PartitionKey\":\"p\",\"RowKey\":\"new\"}",
		"DELETE /Orders(PartitionKey='p',RowKey='gone')\nIf-Match: *\n\n",
	})
	ctStale0, bodyStale0 := batchBody(c.url, []string{"PUT /Orders(PartitionKey='p',RowKey='1')\nIf-Match: " + etag + "\n\n{\"Status\":\"x\"}"})
	ctGone0, bodyGone0 := batchBody(c.url, []string{"DELETE /Orders(PartitionKey='p',RowKey='gone')\nIf-Match: *\n\n"})
	hugeValue := `{"PartitionKey":"p","RowKey":"h","A":"` + strings.Repeat("y", 5<<20) + `"}`
	var tooBig strings.Builder
	tooBig.WriteString(`{"PartitionKey":"p","RowKey":"big"`)
	for i := 0; i < 20; i++ {
		fmt.Fprintf(&tooBig, `,"P%d":"%s"`, i, big)
	}
	tooBig.WriteString("}")

	cases := []struct {
		name    string
		method  string
		path    string
		body    string
		headers []string
		status  int
		code    string
		message string // a part of the message
	}{
		{"malformed JSON", "POST", "/Orders", `{"PartitionKey":"p","RowKey":"2",`, nil, 400, "InvalidInput", "at byte"},
		{"unknown odata.type", "POST", "/Orders", `{"PartitionKey":"p","RowKey":"2","A@odata.type":"Edm.Decimal","A":"1"}`, nil, 400, "InvalidInput", `"A"`},
		{"empty odata.type", "POST", "/Orders", `{"PartitionKey":"p","RowKey":"2","A@odata.type":""}`, nil, 400, "InvalidInput", `unknown @odata.type ""`},
		{"nested object", "POST", "/Orders", `{"PartitionKey":"p","RowKey":"2","A":{"b":1}}`, nil, 400, "InvalidInput", "nested"},
		{"bad key", "POST", "/Orders", `{"PartitionKey":"p/q","RowKey":"2"}`, nil, 400, "OutOfRangeInput", "PartitionKey"},
		{"bad $filter", "GET", "/Orders()?$filter=Status%20eq", "", nil, 400, "InvalidInput", "column 10"},
		{"bad $select", "GET", "/Orders()?$select=a-b", "", nil, 400, "InvalidInput", "$select"},
		{"$top out of range", "GET", "/Orders()?$top=1001", "", nil, 400, "InvalidQueryParameterValue", "$top"},
		{"$top negative", "GET", "/Orders()?$top=-1", "", nil, 400, "InvalidQueryParameterValue", "$top"},
		{"Int32 literal overflow", "GET", "/Orders()?$filter=N%20eq%202147483648", "", nil, 400, "InvalidInput", "2147483648L"},
		{"forged continuation", "GET", "/Orders()?NextPartitionKey=abc", "", nil, 400, "InvalidInput", "continuation"},
		{"missing table insert", "POST", "/Nowhere", `{"PartitionKey":"p","RowKey":"2"}`, nil, 404, "TableNotFound", "Nowhere"},
		{"missing table query", "GET", "/Nowhere()", "", nil, 404, "TableNotFound", "Nowhere"},
		{"missing table delete", "DELETE", "/Tables('Nowhere')", "", nil, 404, "ResourceNotFound", "Nowhere"},
		{"missing entity", "GET", "/Orders(PartitionKey='p',RowKey='zz')", "", nil, 404, "ResourceNotFound", "zz"},
		{"existing entity", "POST", "/Orders", `{"PartitionKey":"p","RowKey":"1"}`, nil, 409, "EntityAlreadyExists", ""},
		{"existing table", "POST", "/Tables", `{"TableName":"orders"}`, nil, 409, "TableAlreadyExists", ""},
		{"bad table name", "POST", "/Tables", `{"TableName":"a-b"}`, nil, 400, "InvalidResourceName", ""},
		{"stale ETag", "PUT", "/Orders(PartitionKey='p',RowKey='1')", `{"Status":"x"}`, []string{"If-Match", etag}, 412, "UpdateConditionNotSatisfied", ""},
		{"stale ETag merge", "MERGE", "/Orders(PartitionKey='p',RowKey='1')", `{"Status":"x"}`, []string{"If-Match", etag}, 412, "UpdateConditionNotSatisfied", ""},
		{"stale ETag delete", "DELETE", "/Orders(PartitionKey='p',RowKey='1')", "", []string{"If-Match", etag}, 412, "UpdateConditionNotSatisfied", ""},
		{"weak ETag never met", "PUT", "/Orders(PartitionKey='p',RowKey='1')", `{"Status":"x"}`, []string{"If-Match", `W/"wrong"`}, 412, "UpdateConditionNotSatisfied", ""},
		{"weak ETag never met, lower case", "DELETE", "/Orders(PartitionKey='p',RowKey='1')", "", []string{"If-Match", `w/"wrong"`}, 412, "UpdateConditionNotSatisfied", ""},
		{"strong ETag", "MERGE", "/Orders(PartitionKey='p',RowKey='1')", `{"Status":"x"}`, []string{"If-Match", `"wrong"`}, 400, "InvalidInput", "not an ETag"},
		{"delete without If-Match", "DELETE", "/Orders(PartitionKey='p',RowKey='1')", "", nil, 400, "MissingRequiredHeader", "If-Match"},
		{"insert without PartitionKey", "POST", "/Orders", `{"RowKey":"2"}`, nil, 400, "PropertiesNeedValue", "PartitionKey"},
		{"insert without RowKey", "POST", "/Orders", `{"PartitionKey":"p","A":1}`, nil, 400, "PropertiesNeedValue", "RowKey"},
		{"Atom body", "POST", "/Orders", `<entry/>`, []string{"Content-Type", "application/atom+xml"}, 415, "AtomFormatNotSupported", "JSON"},
		{"Atom only", "GET", "/Orders()", "", []string{"Accept", "application/atom+xml"}, 415, "AtomFormatNotSupported", "JSON"},
		{"oversize body", "POST", "/Orders", hugeValue, nil, 413, "RequestBodyTooLarge", ""},
		{"entity over 1 MiB", "POST", "/Orders", tooBig.String(), nil, 400, "EntityTooLarge", "1 MiB"},
		{"invalid x-ms-version", "POST", "/Tables", `{"TableName":"Versioned"}`, []string{"x-ms-version", "invalid"}, 400, "InvalidHeaderValue", "x-ms-version"},
		{"unpublished x-ms-version", "GET", "/Orders()", "", []string{"x-ms-version", "2019-02-03"}, 400, "InvalidHeaderValue", "x-ms-version"},
		{"wrong account", "GET", "//other/Tables", "", nil, 400, "InvalidUri", "devstoreaccount1"},
		{"bad entity path", "GET", "/Orders(PartitionKey='p')", "", nil, 400, "InvalidUri", "RowKey"},
		{"bad verb", "PATCH", "/Tables", "", nil, 405, "UnsupportedHttpVerb", ""},
		{"batch over 4 MiB", "POST", "/$batch", string(bodyBig), []string{"Content-Type", ctBig}, 413, "RequestBodyTooLarge", "4 MiB"},
		{"batch not multipart", "POST", "/$batch", `{}`, nil, 400, "InvalidInput", "multipart/mixed"},
	}
	before := c.snapshot("Orders")
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			c.t = t
			r := c.do(tc.method, tc.path, []byte(tc.body), tc.headers...)
			if r.status != tc.status || r.errorCode() != tc.code {
				t.Fatalf("%d %s, want %d %s", r.status, r.body, tc.status, tc.code)
			}
			if got := r.header.Get("x-ms-error-code"); got != tc.code {
				t.Errorf("x-ms-error-code %q, want %q", got, tc.code)
			}
			for _, h := range []string{"x-ms-request-id", "x-ms-version", "Date"} {
				if r.header.Get(h) == "" {
					t.Errorf("no %s header", h)
				}
			}
			msg := r.errorMessage()
			m := messageShape.FindStringSubmatch(msg)
			if m == nil || m[2] != r.header.Get("x-ms-request-id") {
				t.Fatalf("message %q: want the service's sentence, RequestId %s and Time, then tstable's line", msg, r.header.Get("x-ms-request-id"))
			}
			if !strings.Contains(m[3], tc.message) {
				t.Errorf("message %q: want %q in tstable's line", msg, tc.message)
			}
		})
	}
	c.t = t
	// Refused operations inside a batch: 202 with the failing operation's
	// response, its index first in the message.
	batches := []struct {
		name, ct string
		body     []byte
		status   string
		code     string
		index    string
	}{
		{"two partitions", ctParts, bodyParts, "HTTP/1.1 400", "CommandsInBatchActOnDifferentPartitions", `"value":"1:`},
		{"missing table", ctMissing, bodyMissing, "HTTP/1.1 404", "TableNotFound", `"value":"0:`},
		{"same entity twice", ctDup, bodyDup, "HTTP/1.1 400", "InvalidDuplicateRow", `"value":"1:`},
		{"entity exists", ctExists, bodyExists, "HTTP/1.1 409", "EntityAlreadyExists", `"value":"1:`},
		// As the service answers a changeset of 101 operations: operation 99.
		{"over 100 operations", ct101, body101, "HTTP/1.1 400", "InvalidInput", `"value":"99:`},
		// A condition not met and a missing entity come without an index at
		// operation 0, as the service writes them, and with one after.
		{"stale ETag", ctStale, bodyStale, "HTTP/1.1 412", "UpdateConditionNotSatisfied", `"value":"1:`},
		{"missing entity", ctGone, bodyGone, "HTTP/1.1 404", "ResourceNotFound", `"value":"1:`},
		{"stale ETag first", ctStale0, bodyStale0, "HTTP/1.1 412", "UpdateConditionNotSatisfied", `"value":"The update condition specified in the request was not satisfied.\n`},
		{"missing entity first", ctGone0, bodyGone0, "HTTP/1.1 404", "ResourceNotFound", `"value":"The specified resource does not exist.\n`},
	}
	for _, tc := range batches {
		t.Run("batch "+tc.name, func(t *testing.T) {
			c.t = t
			r := c.do("POST", "/$batch", tc.body, "Content-Type", tc.ct)
			if r.status != 202 || !strings.Contains(r.body, tc.status) || !strings.Contains(r.body, `"code":"`+tc.code+`"`) || !strings.Contains(r.body, tc.index) {
				t.Fatalf("%d\n%s\nwant 202 holding %s %s %s", r.status, r.body, tc.status, tc.code, tc.index)
			}
		})
	}
	c.t = t
	if after := c.snapshot("Orders"); after != before {
		t.Errorf("refused requests changed the table:\nbefore %s\nafter  %s", before, after)
	}
	if r := c.mustDo(200, "GET", "/Tables", nil); strings.Contains(r.body, "Nowhere") {
		t.Errorf("a refused request created a table: %s", r.body)
	}
}

// A table before Tables (/ACCOUNT/TABLE/Tables, which a client sends when
// its service endpoint ends in a table's name) is answered as the live
// service answers it: Create Table 400 PropertiesNeedValue, Delete Table
// 400 InvalidInput, Query Tables 501 NotImplemented (found against the
// service; testdata/replay holds no such request). Nothing is created or
// deleted, and the message says what to give the client instead.
func TestTableBeforeTables(t *testing.T) {
	c, _ := newClient(t)
	c.createTable("Orders")
	cases := []struct {
		method, path, body string
		status             int
		code               string
	}{
		{"POST", "/Orders/Tables", `{"TableName":"Other"}`, 400, "PropertiesNeedValue"},
		{"DELETE", "/Orders/Tables('Orders')", "", 400, "InvalidInput"},
		{"GET", "/Orders/Tables", "", 501, "NotImplemented"},
		// Other shapes stay what they were: no resource.
		{"GET", "/Orders/Tables('Orders')", "", 400, "InvalidUri"},
		{"PUT", "/Orders/Tables", "", 400, "InvalidUri"},
		{"GET", "/Orders/Other", "", 400, "InvalidUri"},
	}
	for _, tc := range cases {
		t.Run(tc.method+" "+tc.path, func(t *testing.T) {
			c.t = t
			var body []byte
			if tc.body != "" {
				body = []byte(tc.body)
			}
			r := c.do(tc.method, tc.path, body)
			if r.status != tc.status || r.errorCode() != tc.code || r.header.Get("x-ms-error-code") != tc.code {
				t.Fatalf("%d %s, want %d %s", r.status, r.body, tc.status, tc.code)
			}
			if tc.code != "InvalidUri" && !strings.Contains(r.errorMessage(), `the path puts the table "Orders" before Tables`) {
				t.Errorf("message %q: want it to say the table is before Tables", r.errorMessage())
			}
		})
	}
	c.t = t
	if r := c.mustDo(200, "GET", "/Tables", nil); !strings.Contains(r.body, `"TableName":"Orders"`) || strings.Contains(r.body, "Other") {
		t.Errorf("the tables after the refused requests: %s", r.body)
	}
}

// The first line of an error's message is the service's sentence for its
// code and case, as the recordings hold it (the recording named beside
// each; TestReplayRealService compares them all), in JSON, in a batch's
// response and in XML.
func TestServiceSentences(t *testing.T) {
	c, _ := newClient(t)
	c.createTable("Orders")
	c.insert("Orders", `{"PartitionKey":"p","RowKey":"1"}`)
	var ops []string
	for i := 0; i < 101; i++ {
		ops = append(ops, fmt.Sprintf("POST /Orders\n\n{\"PartitionKey\":\"p\",\"RowKey\":\"b%03d\"}", i))
	}
	ct101, body101 := batchBody(c.url, ops)
	cases := []struct {
		name, method, path, body string
		headers                  []string
		first                    string
	}{
		// test_table_aad.test_aad_delete_entities#3
		{"missing entity", "GET", "/Orders(PartitionKey='p',RowKey='zz')", "", nil, "The specified resource does not exist."},
		// test_retry.test_retry_on_server_error#1
		{"existing table", "POST", "/Tables", `{"TableName":"orders"}`, nil, "The table specified already exists."},
		// test_table_entity.test_query_invalid_filter#6
		{"filter syntax", "GET", "/Orders()?$filter=aaa%20bbb%20ccc", "", nil, "Syntax error at position 7 in 'aaa bbb ccc'."},
		// test_table_entity.test_insert_entity_missing_pk#1
		{"no PartitionKey", "POST", "/Orders", `{"RowKey":"2"}`, nil, "The values are not specified for all properties in the entity."},
		// test_table_entity.test_insert_entity_conflict#2
		{"existing entity", "POST", "/Orders", `{"PartitionKey":"p","RowKey":"1"}`, nil, "The specified entity already exists."},
		// test_table_batch.test_batch_too_many_ops#2
		{"101 operations", "POST", "/$batch", string(body101), []string{"Content-Type", ct101}, "99:The batch request operation exceeds the maximum 100 changes per change set."},
		// test_table_aad.test_aad_access_policy_error#0 (XML)
		{"ACL of a missing table", "GET", "/Nowhere?comp=acl", "", nil, "The specified resource does not exist."},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			c.t = t
			r := c.do(tc.method, tc.path, []byte(tc.body), tc.headers...)
			msg := r.errorMessage()
			if strings.Contains(r.body, "<m:message") {
				var doc struct {
					Message string `xml:"message"`
				}
				if err := xml.Unmarshal([]byte(r.body), &doc); err != nil {
					t.Fatalf("%s: %v", r.body, err)
				}
				msg = doc.Message
				if !strings.Contains(r.body, ".\nRequestId:") {
					t.Errorf("%s: want the message's lines ended with plain newlines, as the service writes them", r.body)
				}
			} else if strings.HasPrefix(r.header.Get("Content-Type"), "multipart/mixed") {
				_, part, _ := strings.Cut(r.body, "\r\n\r\n{")
				part, _, _ = strings.Cut("{"+part, "\r\n")
				msg = response{body: part}.errorMessage()
			}
			if first, _, _ := strings.Cut(msg, "\n"); first != tc.first {
				t.Errorf("first line %q, want %q (the whole: %q)", first, tc.first, msg)
			}
			if !strings.Contains(msg, "\nRequestId:"+r.header.Get("x-ms-request-id")+"\nTime:") || !strings.Contains(msg, "\ntstable: ") {
				t.Errorf("message %q: want the RequestId and Time lines, then tstable's", msg)
			}
		})
	}
}
