package server_test

import (
	"encoding/json"
	"strings"
	"testing"
)

// Answers as the service gives them, where an emulator or an earlier
// reading of the docs differed (each case names its source in docs/serve.md).

// rowKeys lists the RowKeys of a query's answer, in order.
func rowKeys(t *testing.T, body string) []string {
	t.Helper()
	var doc struct {
		Value []struct{ RowKey string } `json:"value"`
	}
	if err := json.Unmarshal([]byte(body), &doc); err != nil {
		t.Fatalf("query body %q: %v", body, err)
	}
	keys := []string{}
	for _, v := range doc.Value {
		keys = append(keys, v.RowKey)
	}
	return keys
}

// $filter=true and $filter=false are filters (Azurite#1573), alone and
// inside a larger one; a blank $filter is none; $top=0 answers no entity
// and no continuation (Azurite#1428), for entities and tables alike.
func TestConstantFiltersAndTopZero(t *testing.T) {
	c, _ := newClient(t)
	c.createTable("Flags")
	c.insert("Flags", `{"PartitionKey":"p","RowKey":"1"}`)
	c.insert("Flags", `{"PartitionKey":"p","RowKey":"2"}`)
	for _, tc := range []struct {
		query string
		want  string
	}{
		{"$filter=true", "1,2"},
		{"$filter=false", ""},
		{"$filter=", "1,2"},
		{"$filter=%20%20", "1,2"},
		{"$filter=(true%20and%20RowKey%20eq%20'1')%20and%20(false%20or%20PartitionKey%20eq%20'p')", "1"},
		{"$top=0", ""},
		{"$top=0&$filter=RowKey%20eq%20'1'", ""},
	} {
		r := c.mustDo(200, "GET", "/Flags()?"+tc.query, nil)
		if got := strings.Join(rowKeys(t, r.body), ","); got != tc.want {
			t.Errorf("%s: rows %q, want %q", tc.query, got, tc.want)
		}
		if r.header.Get("x-ms-continuation-NextPartitionKey") != "" {
			t.Errorf("%s: a continuation, %v", tc.query, r.header)
		}
	}
	r := c.mustDo(200, "GET", "/Tables?$top=0", nil)
	if strings.Contains(r.body, "Flags") || r.header.Get("x-ms-continuation-NextTableName") != "" {
		t.Errorf("tables with $top=0: %v %s", r.header, r.body)
	}
	r = c.mustDo(200, "GET", "/Tables?$filter=true", nil)
	if !strings.Contains(r.body, `"TableName":"Flags"`) {
		t.Errorf("tables with $filter=true: %s", r.body)
	}
	// $top=0 still needs the table.
	if r := c.do("GET", "/Nowhere()?$top=0", nil); r.status != 404 || r.errorCode() != "TableNotFound" {
		t.Errorf("$top=0 on a missing table: %d %s", r.status, r.body)
	}
}

// Edm.Boolean sent as the string "true" or "false", as Storage Explorer
// and the az CLI send it, is stored as a Boolean (Azurite#1259).
func TestBooleanSentAsString(t *testing.T) {
	c, _ := newClient(t)
	c.createTable("Bools")
	c.insert("Bools", `{"PartitionKey":"p","RowKey":"1","On@odata.type":"Edm.Boolean","On":"true","Off@odata.type":"Edm.Boolean","Off":"false"}`)
	r := c.mustDo(200, "GET", "/Bools(PartitionKey='p',RowKey='1')", nil, "Accept", "application/json;odata=nometadata")
	if !strings.HasSuffix(r.body, `"On":true,"Off":false}`) {
		t.Errorf("stored: %s", r.body)
	}
	r = c.mustDo(200, "GET", "/Bools()?$filter=On%20eq%20true%20and%20Off%20eq%20false", nil)
	if got := rowKeys(t, r.body); len(got) != 1 {
		t.Errorf("filtered as Booleans: %s", r.body)
	}
}

// $select returns only what it names, beside odata.etag: the keys and
// Timestamp only when named, a named property the entity lacks as null,
// and odata.metadata says the selection (the service's answer, which the
// Azure SDK for Python's test_get_entity_with_select asserts; Azurite#2535
// for the null).
func TestSelectProjection(t *testing.T) {
	c, _ := newClient(t)
	c.createTable("Sel")
	ins := c.insert("Sel", `{"PartitionKey":"p","RowKey":"r","age":39,"ratio":3.1,"sex":"male"}`)
	etag := jsonString(ins.header.Get("ETag"))
	path := "/Sel(PartitionKey='p',RowKey='r')"
	for _, tc := range []struct{ query, accept, want string }{
		{"$select=age%2Cratio", "", `{"odata.metadata":"` + c.url + `/$metadata#Sel/@Element&$select=age,ratio","odata.etag":` + etag + `,"age":39,"ratio":3.1}`},
		{"$select=ratio,%20missing", "", `{"odata.metadata":"` + c.url + `/$metadata#Sel/@Element&$select=ratio,%20missing","odata.etag":` + etag + `,"ratio":3.1,"missing":null}`},
		{"$select=RowKey,age", "application/json;odata=nometadata", `{"RowKey":"r","age":39}`},
		{"$select=age,Timestamp,PartitionKey", "application/json;odata=nometadata", `{"PartitionKey":"p","Timestamp":` + jsonString(ins.header.Get("ETag")[12:len(ins.header.Get("ETag"))-2]) + `,"age":39}`},
	} {
		hdr := []string{}
		if tc.accept != "" {
			hdr = []string{"Accept", tc.accept}
		}
		got := c.mustDo(200, "GET", path+"?"+tc.query, nil, hdr...).body
		if tc.accept != "" {
			got = strings.ReplaceAll(got, "%3A", ":")
			tc.want = strings.ReplaceAll(tc.want, "%3A", ":")
		}
		if got != tc.want {
			t.Errorf("get with %s:\n%s\nwant\n%s", tc.query, got, tc.want)
		}
	}
	r := c.mustDo(200, "GET", "/Sel()?$select=age,sex", nil)
	want := `{"odata.metadata":"` + c.url + `/$metadata#Sel&$select=age,sex","value":[{"odata.etag":` + etag + `,"age":39,"sex":"male"}]}`
	if r.body != want {
		t.Errorf("query with $select:\n%s\nwant\n%s", r.body, want)
	}
}

// Update, merge and their upserts write the entity the URL names: keys in
// the body that differ are ignored, as the service ignores them (the Azure
// SDK for Python's recording of a PartitionKey with quotes sends the body
// keys doubled once more than the URL's, and reads back the URL's entity).
func TestURLKeysWinOverBodyKeys(t *testing.T) {
	c, _ := newClient(t)
	c.createTable("Keys")
	c.mustDo(204, "PUT", "/Keys(PartitionKey='a''b',RowKey='1')", []byte(`{"PartitionKey":"a''''b","RowKey":"9","V":1}`))
	c.mustDo(204, "MERGE", "/Keys(PartitionKey='a''b',RowKey='1')", []byte(`{"PartitionKey":"other","W":2}`))
	c.mustDo(204, "PATCH", "/Keys(PartitionKey='a''b',RowKey='2')", []byte(`{"RowKey":"x","V":3}`))
	ct, body := batchBody(c.url, []string{"PUT /Keys(PartitionKey='a''b',RowKey='3')\n\n{\"PartitionKey\":\"zz\",\"RowKey\":\"zz\",\"V\":4}"})
	if r := c.do("POST", "/$batch", body, "Content-Type", ct); r.status != 202 || !strings.Contains(r.body, "HTTP/1.1 204") {
		t.Fatalf("batch: %d %s", r.status, r.body)
	}
	got := c.snapshot("Keys")
	for _, want := range []string{`"PartitionKey":"a'b","RowKey":"1"`, `"V":1,"W":2`, `"RowKey":"2"`, `"RowKey":"3"`} {
		if !strings.Contains(got, want) {
			t.Errorf("table lacks %s:\n%s", want, got)
		}
	}
	if n := strings.Count(got, "\n") + 1; n != 3 || strings.Contains(got, `"RowKey":"9"`) || strings.Contains(got, "zz") {
		t.Errorf("the body's keys made entities of their own:\n%s", got)
	}
}

// A table's ACL as the service keeps it: a policy that sets nothing comes
// back without its AccessPolicy, Start and Expiry with seven fractional
// digits; the ACL of a missing table is ResourceNotFound, in the service's
// XML error form; a retention past 365 days is InvalidXmlDocument; the
// properties come back in the service's element order.
func TestACLAndPropertiesAsTheServiceWritesThem(t *testing.T) {
	c, _ := newClient(t)
	c.createTable("Acl")
	xmlCT := []string{"Content-Type", "application/xml"}
	c.mustDo(204, "PUT", "/Acl?comp=acl", []byte(`<SignedIdentifiers><SignedIdentifier><Id>null</Id></SignedIdentifier>`+
		`<SignedIdentifier><Id>empty</Id><AccessPolicy /></SignedIdentifier>`+
		`<SignedIdentifier><Id>full</Id><AccessPolicy><Start>2021-06-08T02:10:09Z</Start><Expiry>2021-06-08T03:10:09.5Z</Expiry><Permission>r</Permission></AccessPolicy></SignedIdentifier></SignedIdentifiers>`), xmlCT...)
	got := c.mustDo(200, "GET", "/Acl?comp=acl", nil).body
	want := `<SignedIdentifiers><SignedIdentifier><Id>null</Id></SignedIdentifier><SignedIdentifier><Id>empty</Id></SignedIdentifier>` +
		`<SignedIdentifier><Id>full</Id><AccessPolicy><Start>2021-06-08T02:10:09.0000000Z</Start><Expiry>2021-06-08T03:10:09.5000000Z</Expiry><Permission>r</Permission></AccessPolicy></SignedIdentifier></SignedIdentifiers>`
	if !strings.HasSuffix(got, want) {
		t.Errorf("ACL:\n%s\nwant\n%s", got, want)
	}
	for _, method := range []string{"GET", "PUT"} {
		r := c.do(method, "/Nowhere?comp=acl", nil, xmlCT...)
		if r.status != 404 || r.header.Get("x-ms-error-code") != "ResourceNotFound" ||
			!strings.Contains(r.body, `<m:error xmlns:m="http://schemas.microsoft.com/ado/2007/08/dataservices/metadata"><m:code>ResourceNotFound</m:code><m:message xml:lang="en-US">`) {
			t.Errorf("%s ACL of a missing table: %d %v %s", method, r.status, r.header, r.body)
		}
	}
	r := c.do("PUT", "//devstoreaccount1/?restype=service&comp=properties", []byte(`<StorageServiceProperties><MinuteMetrics><Version>1.0</Version><Enabled>true</Enabled>`+
		`<IncludeAPIs>true</IncludeAPIs><RetentionPolicy><Enabled>true</Enabled><Days>366</Days></RetentionPolicy></MinuteMetrics></StorageServiceProperties>`), xmlCT...)
	if r.status != 400 || r.header.Get("x-ms-error-code") != "InvalidXmlDocument" {
		t.Errorf("retention of 366 days: %d %s", r.status, r.body)
	}
	c.mustDo(202, "PUT", "//devstoreaccount1/?restype=service&comp=properties", []byte(`<StorageServiceProperties>`+
		`<Logging><Version>1.0</Version><Delete>true</Delete><Read>false</Read><Write>true</Write><RetentionPolicy><Enabled>true</Enabled><Days>365</Days></RetentionPolicy></Logging>`+
		`<Cors><CorsRule><AllowedOrigins>www.xyz.com</AllowedOrigins><AllowedMethods>GET,PUT</AllowedMethods><AllowedHeaders>x-ms-meta-data*,x-ms-meta-xyz</AllowedHeaders>`+
		`<ExposedHeaders>x-ms-meta-source*,x-ms-meta-abc</ExposedHeaders><MaxAgeInSeconds>500</MaxAgeInSeconds></CorsRule></Cors></StorageServiceProperties>`), xmlCT...)
	got = c.mustDo(200, "GET", "//devstoreaccount1/?restype=service&comp=properties", nil).body
	for _, want := range []string{
		`<Logging><Version>1.0</Version><Read>false</Read><Write>true</Write><Delete>true</Delete><RetentionPolicy><Enabled>true</Enabled><Days>365</Days></RetentionPolicy></Logging>`,
		`<CorsRule><AllowedMethods>GET,PUT</AllowedMethods><AllowedOrigins>www.xyz.com</AllowedOrigins><AllowedHeaders>x-ms-meta-xyz,x-ms-meta-data*</AllowedHeaders>` +
			`<ExposedHeaders>x-ms-meta-abc,x-ms-meta-source*</ExposedHeaders><MaxAgeInSeconds>500</MaxAgeInSeconds></CorsRule>`,
	} {
		if !strings.Contains(got, want) {
			t.Errorf("properties:\n%s\nlack\n%s", got, want)
		}
	}
}

// A batch answers each operation with the headers the service answers
// it with: an insert its Location (and DataServiceId when answered 204),
// an update or merge its ETag only, a delete neither; outside a batch,
// DataServiceId comes only with Prefer: return-no-content.
func TestBatchAnswerHeaders(t *testing.T) {
	c, _ := newClient(t)
	c.createTable("Hdr")
	c.insert("Hdr", `{"PartitionKey":"p","RowKey":"old"}`)
	c.insert("Hdr", `{"PartitionKey":"p","RowKey":"gone"}`)
	ct, body := batchBody(c.url, []string{
		"POST /Hdr\nPrefer: return-no-content\n\n{\"PartitionKey\":\"p\",\"RowKey\":\"a\"}",
		"POST /Hdr\n\n{\"PartitionKey\":\"p\",\"RowKey\":\"b\"}",
		"MERGE /Hdr(PartitionKey='p',RowKey='old')\nIf-Match: *\n\n{\"X\":1}",
		"DELETE /Hdr(PartitionKey='p',RowKey='gone')\nIf-Match: *\n\n",
	})
	r := c.mustDo(202, "POST", "/$batch", body, "Content-Type", ct)
	parts := strings.Split(r.body, "HTTP/1.1 ")[1:]
	if len(parts) != 4 {
		t.Fatalf("%d responses:\n%s", len(parts), r.body)
	}
	for i, want := range []struct{ has, lacks []string }{
		{[]string{"204", "Dataserviceid:", "Location:", "Etag:", "Preference-Applied: return-no-content", "Dataserviceversion: 3.0;"}, nil},
		{[]string{"201", "Location:", "Etag:", "Content-Type: application/json"}, []string{"Dataserviceid:"}},
		{[]string{"204", "Etag:", "Dataserviceversion: 1.0;"}, []string{"Location:", "Dataserviceid:"}},
		{[]string{"204", "Dataserviceversion: 1.0;"}, []string{"Location:", "Dataserviceid:", "Etag:"}},
	} {
		for _, h := range want.has {
			if !strings.Contains(parts[i], h) {
				t.Errorf("response %d lacks %q:\n%s", i, h, parts[i])
			}
		}
		for _, h := range want.lacks {
			if strings.Contains(parts[i], h) {
				t.Errorf("response %d has %q:\n%s", i, h, parts[i])
			}
		}
	}
	ins := c.mustDo(201, "POST", "/Hdr", []byte(`{"PartitionKey":"p","RowKey":"c"}`))
	quiet := c.mustDo(204, "POST", "/Hdr", []byte(`{"PartitionKey":"p","RowKey":"d"}`), "Prefer", "return-no-content")
	if ins.header.Get("DataServiceId") != "" || ins.header.Get("Location") == "" || quiet.header.Get("DataServiceId") != quiet.header.Get("Location") {
		t.Errorf("insert headers: %v / %v", ins.header, quiet.header)
	}
}

// A batch may hold one query, outside any changeset (the entity group
// transactions doc): it is answered 202, the query's answer inside.
func TestBatchHoldingOneQuery(t *testing.T) {
	c, _ := newClient(t)
	c.createTable("BQuery")
	c.insert("BQuery", `{"PartitionKey":"p","RowKey":"1","N":1}`)
	query := func(target string) response {
		body := "--batch_q\r\nContent-Type: application/http\r\nContent-Transfer-Encoding: binary\r\n\r\n" +
			"GET " + c.url + target + " HTTP/1.1\r\nAccept: application/json;odata=nometadata\r\n--batch_q--\r\n"
		return c.mustDo(202, "POST", "/$batch", []byte(body), "Content-Type", "multipart/mixed; boundary=batch_q")
	}
	for _, tc := range []struct{ target, status, body string }{
		{"/BQuery(PartitionKey='p',RowKey='1')", "HTTP/1.1 200 OK", `"RowKey":"1"`},
		{"/BQuery(PartitionKey='p',RowKey='2')", "HTTP/1.1 404 Not Found", `"code":"ResourceNotFound"`},
		{"/BQuery()?$filter=N%20eq%201", "HTTP/1.1 200 OK", `{"value":[{"PartitionKey":"p","RowKey":"1"`},
	} {
		r := query(tc.target)
		if !strings.Contains(r.body, tc.status) || !strings.Contains(r.body, tc.body) || !strings.HasPrefix(r.header.Get("Content-Type"), "multipart/mixed; boundary=batchresponse_") {
			t.Errorf("%s: %v\n%s", tc.target, r.header, r.body)
		}
	}
	// A write outside a changeset is refused.
	body := "--batch_q\r\nContent-Type: application/http\r\nContent-Transfer-Encoding: binary\r\n\r\n" +
		"DELETE " + c.url + "/BQuery(PartitionKey='p',RowKey='1') HTTP/1.1\r\nIf-Match: *\r\n\r\n\r\n--batch_q--\r\n"
	if r := c.do("POST", "/$batch", []byte(body), "Content-Type", "multipart/mixed; boundary=batch_q"); r.status != 400 || r.errorCode() != "InvalidInput" {
		t.Errorf("a write outside a changeset: %d %s", r.status, r.body)
	}
}

// A published x-ms-version is echoed; one later than tstable knows is
// taken too (an SDK newer than tstable); others are refused (in the
// refused requests' test).
func TestVersionsTaken(t *testing.T) {
	c, _ := newClient(t)
	for _, v := range []string{"2019-02-02", "2020-12-06", "2099-01-01"} {
		if r := c.mustDo(200, "GET", "/Tables", nil, "x-ms-version", v); r.header.Get("x-ms-version") != v {
			t.Errorf("%s answered as %s", v, r.header.Get("x-ms-version"))
		}
	}
}

// An entity's Location escapes its keys as the service's does: every
// byte but the unreserved ones and the (doubled) quote percent-encoded.
func TestLocationEscapesKeysAsTheService(t *testing.T) {
	c, _ := newClient(t)
	c.createTable("Esc")
	r := c.insert("Esc", `{"PartitionKey":":@","RowKey":"+,$= &'x"}`)
	want := c.url + "/Esc(PartitionKey='%3A%40',RowKey='%2B%2C%24%3D%20%26''x')"
	if got := r.header.Get("Location"); got != want {
		t.Errorf("Location %s, want %s", got, want)
	}
}
