// Command replayfacts turns HTTP recordings of the Azure Table service
// (vcrpy YAML cassettes, as the Azure SDK for Python kept them from its
// live tests) into the facts server's replay test reads: one JSON line per
// interaction, in recording order, in a file per test module.
//
//	go run ./scripts/replayfacts -in RECORDINGS_DIR -out server/testdata/replay
//
// Only cassettes answered by the storage service itself (Server:
// Windows-Azure-Table) are read; those of the Cosmos DB Table API are
// left out. Of each interaction it keeps what decides the service's
// answer and what a client reads of it (see fact); hosts become {base},
// account names in odata.type become {account}. Each fact also says how
// it is compared (mode), with the reason when it is compared less than in
// full: some answers show the state of the recording's account (other
// tables, its role assignments, its replica) rather than the service's
// behaviour.
package main

import (
	"bytes"
	"encoding/json"
	"flag"
	"fmt"
	"log"
	"os"
	"path/filepath"
	"regexp"
	"sort"
	"strings"
	"time"

	"gopkg.in/yaml.v3"
)

// cassette is a vcrpy recording.
type cassette struct {
	Interactions []struct {
		Request struct {
			Body    any                 `yaml:"body"`
			Headers map[string][]string `yaml:"headers"`
			Method  string              `yaml:"method"`
			URI     string              `yaml:"uri"`
		} `yaml:"request"`
		Response struct {
			Body struct {
				String any `yaml:"string"`
			} `yaml:"body"`
			Headers map[string]any `yaml:"headers"` // a list (requests) or a string (aiohttp)
			Status  struct {
				Code int `yaml:"code"`
			} `yaml:"status"`
		} `yaml:"response"`
	} `yaml:"interactions"`
}

// fact is one interaction as the replay test reads it.
type fact struct {
	Rec       string            `json:"rec"`                 // the recording: module.test
	At        string            `json:"at"`                  // when it was sent (RFC 3339), for the clock a SAS is checked against
	Method    string            `json:"method"`              //
	Target    string            `json:"target"`              // path and query, the host removed
	Secondary bool              `json:"secondary,omitempty"` // sent to the secondary endpoint
	Header    map[string]string `json:"header,omitempty"`    // the request headers that matter
	Body      string            `json:"body,omitempty"`      //
	Status    int               `json:"status"`              // the service's answer
	ResHeader map[string]string `json:"resHeader,omitempty"`
	ResBody   string            `json:"resBody,omitempty"`
	Mode      string            `json:"mode"`          // full, tables, status, sent (not compared) or skip (not sent)
	Why       string            `json:"why,omitempty"` // why it is not compared in full
}

// Request headers that change the service's answer.
var requestHeaders = []string{"Accept", "Content-Type", "Prefer", "If-Match", "DataServiceVersion",
	"MaxDataServiceVersion", "x-ms-version", "X-HTTP-Method", "Origin", "Access-Control-Request-Method", "Access-Control-Request-Headers"}

// Response headers a client reads.
var responseHeaders = []string{"Content-Type", "ETag", "Location", "DataServiceId", "Preference-Applied", "x-ms-error-code",
	"x-ms-continuation-NextTableName", "x-ms-continuation-NextPartitionKey", "x-ms-continuation-NextRowKey",
	"Access-Control-Allow-Origin", "Access-Control-Expose-Headers"}

var (
	hostRE    = regexp.MustCompile(`https://([a-z0-9_]+?)(-secondary)?\.table\.core\.windows\.net`)
	accountRE = regexp.MustCompile(`"odata\.type":"[a-z0-9_]+\.`)
)

func main() {
	in := flag.String("in", "", "the folder of recordings (sdk/tables/azure-data-tables/tests/recordings)")
	out := flag.String("out", "server/testdata/replay", "the folder of facts to write")
	flag.Parse()
	if *in == "" {
		log.Fatal("give -in: the folder of the recordings")
	}
	files, err := filepath.Glob(filepath.Join(*in, "*.yaml"))
	if err != nil {
		log.Fatal(err)
	}
	sort.Strings(files)
	byModule := map[string][]fact{}
	for _, f := range files {
		facts, err := read(f)
		if err != nil {
			log.Fatalf("%s: %v", f, err)
		}
		if facts == nil {
			continue
		}
		mod, _, _ := strings.Cut(filepath.Base(f), ".")
		byModule[mod] = append(byModule[mod], facts...)
	}
	if err := os.MkdirAll(*out, 0o755); err != nil {
		log.Fatal(err)
	}
	for mod, facts := range byModule {
		var b bytes.Buffer
		enc := json.NewEncoder(&b)
		enc.SetEscapeHTML(false)
		for _, f := range facts {
			if err := enc.Encode(f); err != nil {
				log.Fatal(err)
			}
		}
		if err := os.WriteFile(filepath.Join(*out, mod+".jsonl"), b.Bytes(), 0o644); err != nil {
			log.Fatal(err)
		}
		fmt.Printf("%s: %d interactions\n", mod, len(facts))
	}
}

// read turns one cassette into facts; nil when the storage service did not
// answer it.
func read(path string) ([]fact, error) {
	raw, err := os.ReadFile(path)
	if err != nil {
		return nil, err
	}
	var c cassette
	if err := yaml.Unmarshal(raw, &c); err != nil {
		return nil, err
	}
	if len(c.Interactions) == 0 || !strings.Contains(header(c.Interactions[0].Response.Headers, "server"), "Windows-Azure-Table") {
		return nil, nil
	}
	rec := strings.TrimSuffix(filepath.Base(path), ".yaml")
	var facts []fact
	st := &recordingState{created: map[string]bool{}}
	for _, it := range c.Interactions {
		f := fact{Rec: rec, Method: it.Request.Method, Status: it.Response.Status.Code, Mode: "full"}
		f.At = sentAt(it.Request.Headers)
		m := hostRE.FindStringSubmatch(it.Request.URI)
		if m == nil {
			return nil, fmt.Errorf("uri %q has no table service host", it.Request.URI)
		}
		f.Secondary = m[2] != ""
		f.Target = strings.TrimPrefix(it.Request.URI, m[0])
		f.Header = pick(requestHeaders, func(name string) string {
			for k, v := range it.Request.Headers {
				if strings.EqualFold(k, name) && len(v) > 0 {
					return v[0]
				}
			}
			return ""
		})
		f.Body = normalize(text(it.Request.Body))
		f.ResHeader = pick(responseHeaders, func(name string) string { return normalize(header(it.Response.Headers, name)) })
		f.ResBody = normalize(strings.TrimPrefix(text(it.Response.Body.String), "\ufeff"))
		classify(&f, st)
		facts = append(facts, f)
	}
	return facts, nil
}

// recordingState is what classify knows of the interactions before.
type recordingState struct {
	created  map[string]bool // tables created (lower-cased)
	propsSet bool            // service properties set
}

var namedTableRE = regexp.MustCompile(`^/Tables\('([^']*)'\)$`)

// classify says how a fact is compared: in full, unless its answer shows
// the recording account's state rather than the service's behaviour.
func classify(f *fact, st *recordingState) {
	path, query, _ := strings.Cut(f.Target, "?")
	if f.Method == "POST" && path == "/Tables" {
		var doc struct{ TableName string }
		json.Unmarshal([]byte(f.Body), &doc)
		name := strings.ToLower(doc.TableName)
		if f.Status == 409 && !st.created[name] {
			f.Mode, f.Why = "sent", "the table was left in the account by an earlier run"
		}
		st.created[name] = true
		return
	}
	if m := namedTableRE.FindStringSubmatch(path); m != nil && f.Method == "DELETE" && f.Status == 204 && !st.created[strings.ToLower(m[1])] {
		f.Mode, f.Why = "skip", "deletes a table another test left in the account"
		return
	}
	switch {
	case f.Status == 403 && strings.Contains(f.Rec, "_aad"):
		f.Mode, f.Why = "skip", "refused by the role assignments of the recording's Microsoft Entra identity, which is account state"
	case f.Method == "GET" && path == "/Tables":
		f.Mode, f.Why = "tables", "the account held other tables: only the tables this recording created are compared"
	case strings.Contains(query, "comp=stats"):
		f.Mode, f.Why = "status", "the replica's state and last sync time are the account's"
	case strings.Contains(query, "comp=properties") && f.Method == "PUT" && f.Status < 300:
		st.propsSet = true
	case strings.Contains(query, "comp=properties") && f.Method == "GET" && !st.propsSet:
		f.Mode, f.Why = "status", "the properties of the account before this recording set any are the account's"
	}
}

// pick returns the named values get finds, under the names as given.
func pick(names []string, get func(string) string) map[string]string {
	out := map[string]string{}
	for _, n := range names {
		if v := get(n); v != "" {
			out[n] = v
		}
	}
	if len(out) == 0 {
		return nil
	}
	return out
}

// header reads a response header, a list (requests) or a string (aiohttp).
func header(h map[string]any, name string) string {
	for k, v := range h {
		if !strings.EqualFold(k, name) {
			continue
		}
		switch v := v.(type) {
		case string:
			return v
		case []any:
			if len(v) > 0 {
				return fmt.Sprint(v[0])
			}
		}
	}
	return ""
}

// text is a body as recorded: null, a string or bytes.
func text(v any) string {
	switch v := v.(type) {
	case nil:
		return ""
	case string:
		return v
	case []byte:
		return string(v)
	}
	return fmt.Sprint(v)
}

// normalize replaces the recording's hosts with {base} and its account
// names in odata.type with {account}.
func normalize(s string) string {
	s = hostRE.ReplaceAllString(s, "{base}")
	return accountRE.ReplaceAllString(s, `"odata.type":"{account}.`)
}

// sentAt is the request's Date (or x-ms-date) in RFC 3339.
func sentAt(h map[string][]string) string {
	for _, name := range []string{"x-ms-date", "Date"} {
		for k, v := range h {
			if strings.EqualFold(k, name) && len(v) > 0 {
				if t, err := time.Parse(time.RFC1123, v[0]); err == nil {
					return t.UTC().Format(time.RFC3339)
				}
			}
		}
	}
	return ""
}
