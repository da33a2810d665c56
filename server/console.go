package server

import (
	"embed"
	"io/fs"
	"net/http"
	"strconv"
	"strings"
	"sync"
	"time"

	"github.com/tstable/tstable/backend"
	"github.com/tstable/tstable/design"
	"github.com/tstable/tstable/keyspace"
	"github.com/tstable/tstable/odata"
	"github.com/tstable/tstable/server/auth"
)

// The console is a page in the browser that tstable serve hosts at its
// root: the tables, their entities, a query box with the key-space
// picture, the log of the queries applications make, and the heat of a
// table's partitions. The page reads entities through the server's own
// Table API, signed with the account key the person enters (kept in the
// browser's session storage); the console's few endpoints of its own, under
// ConsolePrefix, are authorized as the Table API is.

//go:embed console
var consoleFiles embed.FS

// ConsolePrefix is where the console's files live: a path no account
// name can start (account names are letters and digits). Its endpoints
// that show data are under the account, /ACCOUNT/-/console/api/, where a
// request is signed as the Table API's are ("-" is no table's name).
const ConsolePrefix = "/-/console/"

// consoleCSP is the page's Content-Security-Policy: nothing from outside.
const consoleCSP = "default-src 'self'; img-src 'self' data:; frame-ancestors 'none'; base-uri 'none'; form-action 'self'"

// logSize is how many of the latest queries the console's log keeps.
const logSize = 200

// console is the state behind the console: the latest queries and the
// heat of the partitions since the server started.
type console struct {
	s       *Server
	next    http.Handler    // the Table API of every account served
	raw     backend.Backend // the store, its reads not counted as heat
	started time.Time
	noAuth  bool

	mu   sync.Mutex
	log  []LogEntry // the latest queries, oldest first
	seq  int64      // queries logged since the start
	heat *heat
}

// WithConsole is the server's handler with the console added at the
// root, every other request going to next (the Table API of every
// account served). noAuth says the server allows every request, so the
// page opens without asking for the key.
func (s *Server) WithConsole(noAuth bool, next http.Handler) http.Handler {
	c := &console{s: s, next: next, started: time.Now(), noAuth: noAuth, heat: newHeat()}
	if s.log == nil {
		s.log = &ExplainLog{}
	}
	s.log.watch = c.record
	c.raw = s.b
	s.b = &heatBackend{Backend: s.b, h: c.heat}
	return c
}

// ServeHTTP answers the console's requests and hands every other one to
// the Table API.
func (c *console) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	switch {
	case isConsolePage(r):
		c.page(w, r)
	case strings.HasPrefix(r.URL.Path, ConsolePrefix):
		c.serveConsole(w, r)
	case strings.HasPrefix(r.URL.Path, "/"+c.s.account+ConsolePrefix+"api/"):
		c.api(w, r, strings.TrimPrefix(r.URL.Path, "/"+c.s.account+ConsolePrefix+"api/"))
	default:
		c.next.ServeHTTP(w, r)
	}
}

// isConsolePage reports whether r asks for the console's page: a GET of
// the root from a browser, with none of the service's parameters and no
// signature (the service root with ?restype=service stays the API's).
func isConsolePage(r *http.Request) bool {
	if r.URL.Path != "/" || (r.Method != http.MethodGet && r.Method != http.MethodHead) {
		return false
	}
	q := r.URL.Query()
	if q.Has("restype") || q.Has("comp") || r.Header.Get("Authorization") != "" || q.Has("sig") {
		return false
	}
	return strings.Contains(r.Header.Get("Accept"), "text/html") || r.URL.RawQuery == "" || q.Has("table") || q.Has("view")
}

// page writes the console's HTML.
func (c *console) page(w http.ResponseWriter, r *http.Request) {
	b, _ := consoleFiles.ReadFile("console/index.html")
	c.headers(w, "text/html; charset=utf-8")
	w.Write(b)
}

func (c *console) headers(w http.ResponseWriter, ctype string) {
	h := w.Header()
	h.Set("Content-Type", ctype)
	h.Set("Content-Security-Policy", consoleCSP)
	h.Set("X-Content-Type-Options", "nosniff")
	h.Set("Referrer-Policy", "no-referrer")
	h.Set("Cache-Control", "no-store")
}

// serveConsole answers the console's files and endpoints.
func (c *console) serveConsole(w http.ResponseWriter, r *http.Request) {
	name := strings.TrimPrefix(r.URL.Path, ConsolePrefix)
	switch name {
	case "app.js", "app.css":
		b, err := fs.ReadFile(consoleFiles, "console/"+name)
		if err != nil {
			http.NotFound(w, r)
			return
		}
		ctype := "text/css; charset=utf-8"
		if strings.HasSuffix(name, ".js") {
			ctype = "text/javascript; charset=utf-8"
		}
		c.headers(w, ctype)
		w.Write(b)
	case "info":
		c.writeJSON(w, map[string]any{"account": c.s.account, "auth": !c.noAuth, "started": c.started.UTC()})
	default:
		c.headers(w, "text/plain; charset=utf-8")
		w.WriteHeader(http.StatusNotFound)
		w.Write([]byte("ConsoleNotFound: " + r.URL.Path + " is not a page of the console; open " + "/" + "\n"))
	}
}

// api answers an endpoint that shows data: only to a request the Table
// API would let read it.
func (c *console) api(w http.ResponseWriter, r *http.Request, name string) {
	switch name {
	case "tables", "explain", "log", "heat":
	default:
		writeError(w, r, errorf(odata.CodeInvalidURI, "%s is not an endpoint of the console: use tables, explain, log or heat", name))
		return
	}
	g, err := c.s.auth.Authorize(r)
	if err != nil {
		writeError(w, r, err)
		return
	}
	table := r.URL.Query().Get("table")
	op := auth.OpRead
	if table == "" {
		op = auth.OpQueryTables
	}
	if !g.Allows(op, table, "", "") {
		writeError(w, r, errorf(odata.CodeAuthorizationFailure, "the console needs a key that may read %s: enter the account key", orAll(table)))
		return
	}
	var v any
	switch name {
	case "tables":
		v, err = c.tables(r)
	case "explain":
		v, err = c.explain(r)
	case "log":
		v = c.latest()
	case "heat":
		v, err = c.heatOf(r, table)
	}
	if err != nil {
		writeError(w, r, err)
		return
	}
	c.writeJSON(w, v)
}

func orAll(table string) string {
	if table == "" {
		return "the account"
	}
	return "table " + table
}

func (c *console) writeJSON(w http.ResponseWriter, v any) {
	b, err := odata.MarshalJSON(v)
	if err != nil {
		http.Error(w, err.Error(), http.StatusInternalServerError)
		return
	}
	c.headers(w, "application/json")
	w.Write(b)
}

// tableSize is one table and its entities, for the console's list.
type tableSize struct {
	Name       string `json:"name"`
	Entities   int64  `json:"entities"`
	Partitions int64  `json:"partitions"`
}

// tables lists the tables with their sizes (each read once).
func (c *console) tables(r *http.Request) ([]tableSize, error) {
	names, err := c.raw.ListTables(r.Context())
	if err != nil {
		return nil, err
	}
	out := []tableSize{}
	for _, n := range names {
		m, err := design.Partitions(r.Context(), c.raw, n)
		if err != nil {
			return nil, err
		}
		out = append(out, tableSize{Name: n, Entities: m.Entities, Partitions: m.Partitions})
	}
	return out, nil
}

// explained is a query's explanation with its key-space picture.
type explained struct {
	Class    odata.QueryClass `json:"class"`
	Ranges   []string         `json:"ranges"`
	Scanned  int64            `json:"scanned"`
	Returned int64            `json:"returned"`
	Reason   string           `json:"reason"`
	Advice   string           `json:"advice"`
	SVG      string           `json:"svg"`
}

// explain runs ?table&filter&top as the Table API would and explains it,
// with the picture of the key space.
func (c *console) explain(r *http.Request) (*explained, error) {
	p := r.URL.Query()
	table := p.Get("table")
	var q odata.Query
	if f := p.Get("filter"); f != "" {
		flt, err := odata.ParseQueryFilter(f)
		if err != nil {
			return nil, err
		}
		q.Filter = flt
	}
	if t := p.Get("top"); t != "" {
		n, err := strconv.Atoi(t)
		if err != nil || odata.ParseTop(n) != nil {
			return nil, errorf(odata.CodeInvalidInput, "top must be a whole number from 1 to 1000; got %q", t)
		}
		q.Top = n
	}
	ctx := r.Context()
	res, err := c.raw.Query(ctx, table, backend.QueryRequest{Query: q}, func(*odata.Entity) error { return nil })
	if err != nil {
		return nil, err
	}
	m, err := design.KeySpace(ctx, c.raw, table, q, res.Plan)
	if err != nil {
		return nil, err
	}
	x := odata.Explain(res.Plan, res.Scanned, res.Returned, max(res.Requests, 1))
	return &explained{Class: x.Class, Ranges: x.Ranges, Scanned: x.Scanned, Returned: x.Returned, Reason: x.Reason, Advice: x.Advice, SVG: keyspace.SVG(m)}, nil
}

// record keeps a query the server answered, for the log.
func (c *console) record(x Explained) {
	e := LogEntry{Time: time.Now().UTC(), Table: x.Table, Filter: x.Filter, Class: x.Class,
		Scanned: x.Scanned, Returned: x.Returned, MS: float64(x.Elapsed.Microseconds()) / 1000}
	c.mu.Lock()
	defer c.mu.Unlock()
	c.seq++
	c.log = append(c.log, e)
	if len(c.log) > logSize {
		c.log = append(c.log[:0], c.log[len(c.log)-logSize:]...)
	}
	c.heat.request()
}

// logView is the log as the console shows it: the latest queries, newest
// first, and how many there were since the start.
type logView struct {
	Total   int64      `json:"total"`
	Queries []LogEntry `json:"queries"`
}

func (c *console) latest() logView {
	c.mu.Lock()
	defer c.mu.Unlock()
	v := logView{Total: c.seq, Queries: make([]LogEntry, 0, len(c.log))}
	for i := len(c.log) - 1; i >= 0; i-- {
		v.Queries = append(v.Queries, c.log[i])
	}
	return v
}

// allowsAll reports whether a lets every request through (--no-auth).
func allowsAll(a Authorizer) bool {
	_, ok := a.(AllowAll)
	return a == nil || ok
}

// ConsoleURL is the address of the console: the server's root.
func (r *Running) ConsoleURL() string {
	u := r.url
	if i := strings.Index(u, "://"); i >= 0 {
		if j := strings.IndexByte(u[i+3:], '/'); j >= 0 {
			return u[:i+3+j] + "/"
		}
	}
	return u + "/"
}

// ConsoleFS is the console's embedded files.
func ConsoleFS() fs.FS {
	sub, _ := fs.Sub(consoleFiles, "console")
	return sub
}
