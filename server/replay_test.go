package server

import (
	"bufio"
	"bytes"
	"encoding/json"
	"encoding/xml"
	"fmt"
	"net/http"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"testing"
	"time"

	"github.com/tstable/tstable/server/auth"
	"github.com/tstable/tstable/store"
)

// The replay test sends the requests the Azure SDK for Python once sent to
// the real Table service in its live tests, recorded with the service's
// answers (testdata/replay, written by scripts/replayfacts; docs/serve.md says
// where the recordings come from), to tstable serve, recording by
// recording, each on a new empty database, and compares each answer with
// the service's: the status, the error code, the headers a client reads
// and the body, once what legitimately differs is made equal (ETags and
// times, request ids, the host). Of an error's message, its first line is
// compared: a batch operation's "N:" index and the service's sentence (the
// RequestId and Time lines, and tstable's own line after them, are not).
//
// Every difference must be listed, with its reason, in
// testdata/replay/differences.txt (and docs/serve.md); a difference not listed,
// or a listed one that no longer occurs, fails the test.

// fact is one recorded interaction (see scripts/replayfacts).
type fact struct {
	Rec       string            `json:"rec"`
	At        string            `json:"at"`
	Method    string            `json:"method"`
	Target    string            `json:"target"`
	Secondary bool              `json:"secondary"`
	Header    map[string]string `json:"header"`
	Body      string            `json:"body"`
	Status    int               `json:"status"`
	ResHeader map[string]string `json:"resHeader"`
	ResBody   string            `json:"resBody"`
	Mode      string            `json:"mode"`
	Why       string            `json:"why"`
}

// id names a fact in reports and in differences.txt: its recording and
// its place in it (from 0).
func (f fact) id(i int) string { return fmt.Sprintf("%s#%d", f.Rec, i) }

func TestReplayRealService(t *testing.T) {
	recs := readFacts(t)
	known := readKnownDifferences(t)
	var got []string
	counts := map[string]int{}
	total := 0
	for _, rec := range recs {
		diffs, c := replayRecording(t, rec)
		got = append(got, diffs...)
		for k, v := range c {
			counts[k] += v
		}
		total += len(rec)
	}
	seen := checkKnown(t, got, known)
	t.Logf("replayed %d recordings, %d interactions: %d compared in full, %d by their tables, %d by status, %d sent and not compared, %d not sent (account state); %d answered as the service did, %d differently (all listed in differences.txt when the test passes)",
		len(recs), total, counts["full"], counts["tables"], counts["status"], counts["sent"], counts["skip"],
		total-counts["skip"]-counts["sent"]-len(seen), len(seen))
}

// checkKnown fails the test for each difference differences.txt does not
// list, and for each one it lists that no longer occurs; it returns the
// interactions that differ.
func checkKnown(t *testing.T, diffs []string, known map[string]string) map[string]bool {
	seen := map[string]bool{}
	for _, d := range diffs {
		id, _, _ := strings.Cut(d, " ")
		seen[id] = true
		if why, ok := known[id]; !ok {
			t.Errorf("differs from the service: %s", d)
		} else if testing.Verbose() {
			t.Logf("known difference (%s): %s", why, d)
		}
	}
	for id, why := range known {
		if !seen[id] {
			t.Errorf("%s is listed in testdata/replay/differences.txt (%s) but answers as the service now: remove it", id, why)
		}
	}
	return seen
}

// readFacts reads every recording, in order.
func readFacts(t *testing.T) [][]fact {
	files, err := filepath.Glob(filepath.Join("testdata", "replay", "*.jsonl"))
	if err != nil || len(files) == 0 {
		t.Fatalf("no facts in testdata/replay: %v", err)
	}
	sort.Strings(files)
	var recs [][]fact
	for _, name := range files {
		b, err := os.ReadFile(name)
		if err != nil {
			t.Fatal(err)
		}
		sc := bufio.NewScanner(bytes.NewReader(b))
		sc.Buffer(nil, 16<<20)
		for sc.Scan() {
			var f fact
			if err := json.Unmarshal(sc.Bytes(), &f); err != nil {
				t.Fatalf("%s: %v", name, err)
			}
			if n := len(recs); n > 0 && recs[n-1][0].Rec == f.Rec {
				recs[n-1] = append(recs[n-1], f)
			} else {
				recs = append(recs, []fact{f})
			}
		}
	}
	return recs
}

// readKnownDifferences reads differences.txt: "ID  reason" a line, # for
// comments.
func readKnownDifferences(t *testing.T) map[string]string {
	b, err := os.ReadFile(filepath.Join("testdata", "replay", "differences.txt"))
	if os.IsNotExist(err) {
		return map[string]string{}
	}
	if err != nil {
		t.Fatal(err)
	}
	known := map[string]string{}
	for _, line := range strings.Split(string(b), "\n") {
		line = strings.TrimSpace(line)
		if line == "" || strings.HasPrefix(line, "#") {
			continue
		}
		id, why, _ := strings.Cut(line, " ")
		known[id] = strings.TrimSpace(why)
	}
	return known
}

// replayRecording sends one recording's requests to a new server and
// returns its differences and how many facts were compared each way.
func replayRecording(t *testing.T, rec []fact) ([]string, map[string]int) {
	var now time.Time
	srv := New(newReplayBackend(t), Options{Authorizer: replayAuthorizer{v: auth.New(DefaultAccount, mustDecodeKey(t)), now: &now}})
	r := &replayer{t: t, srv: srv, etags: map[string]string{}, tokens: map[string]string{}, created: map[string]bool{}, props: map[string]bool{}}
	var diffs []string
	counts := map[string]int{}
	for i, f := range rec {
		counts[f.Mode]++
		if f.Mode == "skip" {
			continue
		}
		now, _ = time.Parse(time.RFC3339, f.At)
		r.noteCreated(f)
		r.noteSet(f)
		res := r.send(f)
		if f.Mode == "sent" {
			r.learn(f, res)
			continue
		}
		for _, d := range r.compare(f, res) {
			diffs = append(diffs, f.id(i)+" "+f.Method+" "+f.Target+": "+d)
		}
	}
	return diffs, counts
}

// replayer holds what one recording's replay has learnt: the ETags and
// continuation tokens tstable answered for the service's, and the tables
// the recording created.
type replayer struct {
	t       *testing.T
	srv     *Server
	etags   map[string]string // the service's ETag → tstable's
	tokens  map[string]string // the service's continuation token → tstable's
	created map[string]bool   // tables created, lower-cased
	props   map[string]bool   // the service properties' elements the recording set
}

// noteSet remembers the elements of the service properties a recording
// set: the others are the account's, from before.
func (r *replayer) noteSet(f fact) {
	if f.Method != http.MethodPut || !strings.Contains(f.Target, "comp=properties") || f.Status >= 300 {
		return
	}
	var p serviceProperties
	xml.Unmarshal([]byte(f.Body), &p)
	for name, set := range map[string]bool{"Logging": p.Logging != nil, "HourMetrics": p.HourMetrics != nil, "MinuteMetrics": p.MinuteMetrics != nil, "Cors": p.Cors != nil} {
		if set {
			r.props[name] = true
		}
	}
}

// ownProperties keeps of a properties document the elements the
// recording set.
func (r *replayer) ownProperties(body string) string {
	var p serviceProperties
	if err := xml.Unmarshal([]byte(strings.TrimPrefix(body, "\ufeff")), &p); err != nil {
		return body
	}
	if !r.props["Logging"] {
		p.Logging = nil
	}
	if !r.props["HourMetrics"] {
		p.HourMetrics = nil
	}
	if !r.props["MinuteMetrics"] {
		p.MinuteMetrics = nil
	}
	if !r.props["Cors"] {
		p.Cors = nil
	}
	b, _ := xml.Marshal(p)
	return string(b)
}

// noteCreated remembers the table a Create Table request names.
func (r *replayer) noteCreated(f fact) {
	if f.Method != http.MethodPost || f.Target != "/Tables" {
		return
	}
	var doc struct{ TableName string }
	json.Unmarshal([]byte(f.Body), &doc)
	r.created[strings.ToLower(doc.TableName)] = true
}

// replayBase is the service root the replay's requests are sent to.
const replayBase = "http://127.0.0.1:10002/" + DefaultAccount

// send sends a fact's request, as the SDK sent it, to the server.
func (r *replayer) send(f fact) *replayResponse {
	base := replayBase
	if f.Secondary {
		base += "-secondary"
	}
	target := r.signSAS(f.At, r.mapTokens(f.Target))
	body := strings.ReplaceAll(f.Body, "{base}", replayBase)
	body = r.mapETags(body)
	req, err := http.NewRequest(f.Method, base+target, strings.NewReader(body))
	if err != nil {
		r.t.Fatalf("%s: %v", f.Rec, err)
	}
	req.RequestURI = strings.TrimPrefix(base, "http://127.0.0.1:10002") + target
	for k, v := range f.Header {
		if k == "If-Match" {
			v = r.mapETags(v)
		}
		req.Header.Set(k, v)
	}
	if body == "" {
		req.ContentLength = 0
	}
	w := newRecorder()
	r.srv.ServeHTTP(w, req)
	return &replayResponse{status: w.status, header: w.header, body: w.body.String()}
}

// mapETags replaces the service's ETags in s with tstable's.
func (r *replayer) mapETags(s string) string {
	for theirs, ours := range r.etags {
		s = strings.ReplaceAll(s, theirs, ours)
	}
	return s
}

// replayResponse is the server's answer.
type replayResponse struct {
	status int
	header http.Header
	body   string
}

// recorder is a minimal http.ResponseWriter.
type recorder struct {
	status int
	header http.Header
	body   bytes.Buffer
}

func newRecorder() *recorder { return &recorder{header: http.Header{}} }

func (w *recorder) Header() http.Header { return w.header }
func (w *recorder) WriteHeader(s int) {
	if w.status == 0 {
		w.status = s
	}
}
func (w *recorder) Write(b []byte) (int, error) {
	if w.status == 0 {
		w.status = 200
	}
	return w.body.Write(b)
}

func mustDecodeKey(t *testing.T) []byte {
	k, err := auth.DecodeKey(DevelopmentKey)
	if err != nil {
		t.Fatal(err)
	}
	return k
}

// newReplayBackend opens a new database for one recording.
func newReplayBackend(t *testing.T) *store.DB {
	db, err := store.Open(filepath.Join(t.TempDir(), "replay.db"), nil)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { db.Close() })
	return db
}

// replayAuthorizer authorizes a request that carries a SAS as the service
// would have at the time it was recorded, and every other one (the
// recordings keep no signatures) as the account key would.
type replayAuthorizer struct {
	v   *auth.Verifier
	now *time.Time
}

func (a replayAuthorizer) Authorize(r *http.Request) (Grant, error) {
	if !strings.Contains(r.URL.RawQuery, "sig=") {
		return allowAll{}, nil
	}
	g, err := a.v.Authorize(r, *a.now)
	if err != nil {
		return nil, err
	}
	return keyGrant{g}, nil
}
