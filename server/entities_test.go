package server_test

import (
	"encoding/json"
	"fmt"
	"net/url"
	"strings"
	"sync"
	"testing"
)

// The three JSON shapes, as the service writes them.
func TestEntityFormats(t *testing.T) {
	c, _ := newClient(t)
	c.createTable("Shapes")
	ins := c.insert("Shapes", `{"PartitionKey":"p","RowKey":"r","Name":"Ann","Age":41,"Big@odata.type":"Edm.Int64","Big":"9007199254740993","Score":2.0,"When@odata.type":"Edm.DateTime","When":"2020-01-02T03:04:05Z"}`)
	etag := ins.header.Get("ETag")
	if !strings.HasPrefix(etag, `W/"datetime'`) || ins.header.Get("Location") == "" {
		t.Fatalf("insert headers: %v", ins.header)
	}
	var created map[string]any
	json.Unmarshal([]byte(ins.body), &created)
	if created["odata.etag"] != etag || created["Name"] != "Ann" {
		t.Errorf("201 body %s", ins.body)
	}
	ts := created["Timestamp"].(string)
	path := "/Shapes(PartitionKey='p',RowKey='r')"
	min := c.mustDo(200, "GET", path, nil).body
	wantMin := `{"odata.metadata":"` + c.url + `/$metadata#Shapes/@Element","odata.etag":` + jsonString(etag) +
		`,"PartitionKey":"p","RowKey":"r","Timestamp":"` + ts + `","Name":"Ann","Age":41,"Big@odata.type":"Edm.Int64","Big":"9007199254740993",` +
		`"Score":2.0,"When@odata.type":"Edm.DateTime","When":"2020-01-02T03:04:05Z"}`
	if min != wantMin {
		t.Errorf("minimalmetadata:\n%s\nwant\n%s", min, wantMin)
	}
	no := c.mustDo(200, "GET", path, nil, "Accept", "application/json;odata=nometadata")
	wantNo := `{"PartitionKey":"p","RowKey":"r","Timestamp":"` + ts + `","Name":"Ann","Age":41,"Big":"9007199254740993","Score":2.0,"When":"2020-01-02T03:04:05Z"}`
	if no.body != wantNo || !strings.Contains(no.header.Get("Content-Type"), "odata=nometadata") {
		t.Errorf("nometadata:\n%s\nwant\n%s", no.body, wantNo)
	}
	full := c.mustDo(200, "GET", path+"?$select=Age", nil, "Accept", "application/json;odata=fullmetadata").body
	wantFull := `{"odata.metadata":"` + c.url + `/$metadata#Shapes/@Element&$select=Age","odata.type":"devstoreaccount1.Shapes","odata.id":"` + c.url +
		`/Shapes(PartitionKey='p',RowKey='r')","odata.etag":` + jsonString(etag) + `,"odata.editLink":"Shapes(PartitionKey='p',RowKey='r')",` +
		`"Age":41}`
	if full != wantFull {
		t.Errorf("fullmetadata:\n%s\nwant\n%s", full, wantFull)
	}
	// $format overrides Accept.
	if r := c.mustDo(200, "GET", path+"?$format="+url.QueryEscape("application/json;odata=nometadata"), nil); r.body != wantNo {
		t.Errorf("$format: %s", r.body)
	}
}

func jsonString(s string) string { b, _ := json.Marshal(s); return string(b) }

// Prefer decides between 201 with the entity and 204 without it.
func TestPreferReturnNoContent(t *testing.T) {
	c, _ := newClient(t)
	r := c.mustDo(204, "POST", "/Tables", []byte(`{"TableName":"Quiet"}`), "Prefer", "return-no-content")
	if r.header.Get("Preference-Applied") != "return-no-content" || r.body != "" {
		t.Errorf("create table: %v %q", r.header, r.body)
	}
	r = c.mustDo(204, "POST", "/Quiet", []byte(`{"PartitionKey":"a","RowKey":"b"}`), "Prefer", "return-no-content")
	if r.header.Get("ETag") == "" || r.header.Get("Preference-Applied") != "return-no-content" {
		t.Errorf("insert: %v", r.header)
	}
	r = c.mustDo(201, "POST", "/Quiet", []byte(`{"PartitionKey":"a","RowKey":"c"}`), "Prefer", "return-content")
	if r.header.Get("Preference-Applied") != "return-content" || !strings.Contains(r.body, `"RowKey":"c"`) {
		t.Errorf("insert return-content: %v %s", r.header, r.body)
	}
}

// Update and merge without If-Match are upserts; with it they need the
// entity and its ETag. POST with X-HTTP-Method: MERGE is a merge.
func TestUpdateMergeUpsert(t *testing.T) {
	c, _ := newClient(t)
	c.createTable("Upserts")
	p := "/Upserts(PartitionKey='p',RowKey='r')"
	c.mustDo(404, "PUT", p, []byte(`{"A":1}`), "If-Match", "*")
	c.mustDo(204, "PUT", p, []byte(`{"A":1}`)) // insert or replace
	c.mustDo(204, "MERGE", p, []byte(`{"B":2}`))
	r := c.mustDo(204, "POST", p, []byte(`{"C":3}`), "X-HTTP-Method", "MERGE", "If-Match", "*")
	got := c.mustDo(200, "GET", p, nil, "Accept", "application/json;odata=nometadata").body
	if !strings.Contains(got, `"A":1,"B":2,"C":3`) {
		t.Errorf("after merges: %s", got)
	}
	c.mustDo(204, "PUT", p, []byte(`{"D":4}`), "If-Match", r.header.Get("ETag"))
	got = c.mustDo(200, "GET", p, nil, "Accept", "application/json;odata=nometadata").body
	if strings.Contains(got, `"A"`) || !strings.Contains(got, `"D":4`) {
		t.Errorf("after replace: %s", got)
	}
	c.mustDo(204, "DELETE", p, nil, "If-Match", "*")
	c.mustDo(404, "GET", p, nil)
}

// Keys with quotes, spaces, percent signs and non-ASCII characters travel
// in the URL doubled and percent-encoded, and come back as written.
func TestKeysInURLs(t *testing.T) {
	c, _ := newClient(t)
	c.createTable("Keys")
	for _, k := range []string{"O'Brien", "a b", "100%", "Zoë ✓", "", "''", "a,b=c"} {
		body, _ := json.Marshal(map[string]string{"PartitionKey": k, "RowKey": k, "V": k})
		c.insert("Keys", string(body))
		esc := url.PathEscape(strings.ReplaceAll(k, "'", "''"))
		for _, p := range []string{
			"/Keys(PartitionKey='" + esc + "',RowKey='" + esc + "')",
			"/Keys(PartitionKey=%27" + esc + "%27,RowKey=%27" + esc + "%27)",
			"/Keys(RowKey='" + esc + "',PartitionKey='" + esc + "')",
		} {
			r := c.mustDo(200, "GET", p, nil)
			var e map[string]any
			json.Unmarshal([]byte(r.body), &e)
			if e["V"] != k {
				t.Errorf("GET %s: %s", p, r.body)
			}
		}
	}
}

// A query answers at most 1000 entities a page (and at most $top), with
// the continuation headers, and explains itself in headers.
func TestQueryPages(t *testing.T) {
	c, _ := newClient(t)
	c.createTable("Many")
	for b := 0; b < 25; b++ {
		var ops []string
		for i := 0; i < 100; i++ {
			ops = append(ops, fmt.Sprintf("POST /Many\nPrefer: return-no-content\n\n{\"PartitionKey\":\"p%d\",\"RowKey\":\"%04d\",\"N\":%d}", b%3, b*100+i, b*100+i))
		}
		ct, body := batchBody(c.url, ops)
		if r := c.do("POST", "/$batch", body, "Content-Type", ct); r.status != 202 || strings.Contains(r.body, "odata.error") {
			t.Fatalf("batch: %d %s", r.status, r.body)
		}
	}
	count := func(body string) int {
		var doc struct {
			Value []json.RawMessage `json:"value"`
		}
		json.Unmarshal([]byte(body), &doc)
		return len(doc.Value)
	}
	path := "/Many()"
	var sizes []int
	for {
		r := c.mustDo(200, "GET", path, nil)
		sizes = append(sizes, count(r.body))
		if r.header.Get("x-tstable-query-class") != "table-scan" || r.header.Get("x-tstable-returned") != fmt.Sprint(sizes[len(sizes)-1]) ||
			!strings.HasPrefix(r.header.Get("Server-Timing"), "app;dur=") {
			t.Errorf("explain headers: %v", r.header)
		}
		pk := r.header.Get("x-ms-continuation-NextPartitionKey")
		if pk == "" {
			break
		}
		path = "/Many()?NextPartitionKey=" + url.QueryEscape(pk) + "&NextRowKey=" + url.QueryEscape(r.header.Get("x-ms-continuation-NextRowKey"))
	}
	if fmt.Sprint(sizes) != "[1000 1000 500]" {
		t.Errorf("page sizes %v, want [1000 1000 500]", sizes)
	}
	r := c.mustDo(200, "GET", "/Many()?$top=7&$filter="+url.QueryEscape("PartitionKey eq 'p1' and N ge 100"), nil)
	if count(r.body) != 7 || r.header.Get("x-ms-continuation-NextPartitionKey") == "" ||
		r.header.Get("x-tstable-query-class") != "partition-scan" || r.header.Get("x-tstable-scanned") != "7" {
		t.Errorf("$top 7 on a partition: %d entities, headers %v", count(r.body), r.header)
	}
	r = c.mustDo(200, "GET", "/Many()?$filter="+url.QueryEscape("PartitionKey eq 'p0' and RowKey eq '0003'"), nil)
	if count(r.body) != 1 || r.header.Get("x-tstable-query-class") != "point" || r.header.Get("x-tstable-scanned") != "1" {
		t.Errorf("point query: %s %v", r.body, r.header)
	}
}

// Query Tables filters on TableName and pages with NextTableName.
func TestQueryTables(t *testing.T) {
	c, _ := newClient(t)
	for _, n := range []string{"Alpha", "beta", "Gamma", "delta", "Epsilon"} {
		c.createTable(n)
	}
	names := func(body string) string {
		var doc struct {
			Value []struct{ TableName string } `json:"value"`
		}
		json.Unmarshal([]byte(body), &doc)
		var out []string
		for _, v := range doc.Value {
			out = append(out, v.TableName)
		}
		return strings.Join(out, " ")
	}
	var all []string
	path := "/Tables?$top=2"
	for {
		r := c.mustDo(200, "GET", path, nil)
		all = append(all, names(r.body))
		next := r.header.Get("x-ms-continuation-NextTableName")
		if next == "" {
			break
		}
		path = "/Tables?$top=2&NextTableName=" + url.QueryEscape(next)
	}
	if got := strings.Join(all, " | "); got != "Alpha beta | delta Epsilon | Gamma" {
		t.Errorf("pages %q", got)
	}
	r := c.mustDo(200, "GET", "/Tables?$filter="+url.QueryEscape("TableName ge 'a' and TableName lt 'e'"), nil)
	if got := names(r.body); got != "beta delta" {
		t.Errorf("filtered %q", got)
	}
	c.mustDo(204, "DELETE", "/Tables('beta')", nil)
	c.mustDo(200, "GET", "/Tables('Alpha')", nil)
}

// Concurrent writers holding the same ETag: exactly one succeeds.
func TestConcurrentIfMatchOneWinner(t *testing.T) {
	c, _ := newClient(t)
	c.createTable("Race")
	for round := 0; round < 5; round++ {
		p := fmt.Sprintf("/Race(PartitionKey='p',RowKey='%d')", round)
		r := c.mustDo(204, "PUT", p, []byte(`{"N":0}`))
		etag := r.header.Get("ETag")
		const writers = 16
		var wg sync.WaitGroup
		statuses := make(chan int, writers)
		for w := 0; w < writers; w++ {
			wg.Add(1)
			go func(w int) {
				defer wg.Done()
				method := "PUT"
				if w%2 == 1 {
					method = "MERGE"
				}
				statuses <- c.do(method, p, []byte(fmt.Sprintf(`{"N":%d}`, w+1)), "If-Match", etag).status
			}(w)
		}
		wg.Wait()
		close(statuses)
		won, lost := 0, 0
		for s := range statuses {
			switch s {
			case 204:
				won++
			case 412:
				lost++
			default:
				t.Errorf("status %d", s)
			}
		}
		if won != 1 || lost != writers-1 {
			t.Errorf("round %d: %d succeeded and %d got 412; want exactly one success", round, won, lost)
		}
	}
}
