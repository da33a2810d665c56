package server

import (
	"fmt"
	"io"
	"strconv"
	"sync"
	"time"

	"github.com/tstable/tstable/odata"
)

// Explained is one query as the server ran it.
type Explained struct {
	Method   string
	Table    string
	Filter   string
	Class    odata.QueryClass
	Scanned  int64
	Returned int64
	Elapsed  time.Duration
}

// Text renders the query as one line for people:
//
//	query Orders "Status eq 'open'" · table scan · scanned 120000 · returned 14 · 38 ms
func (x Explained) Text() string {
	verb := "query"
	if x.Method != "" && x.Method != "GET" {
		verb = x.Method
	}
	filter := "(no filter)"
	if x.Filter != "" {
		filter = strconv.Quote(x.Filter)
	}
	return fmt.Sprintf("%s %s %s · %s · scanned %d · returned %d · %s",
		verb, x.Table, filter, x.Class.Text(), x.Scanned, x.Returned, formatMillis(x.Elapsed))
}

// formatMillis writes a duration in milliseconds, with a decimal below 10.
func formatMillis(d time.Duration) string {
	ms := float64(d) / float64(time.Millisecond)
	if ms < 10 {
		return strconv.FormatFloat(ms, 'f', 1, 64) + " ms"
	}
	return strconv.FormatFloat(ms, 'f', 0, 64) + " ms"
}

// LogEntry is one line of the JSON query log (serve --log FILE), the shape
// tstable advise --queries reads.
type LogEntry struct {
	Time     time.Time        `json:"time"`
	Table    string           `json:"table"`
	Filter   string           `json:"filter"`
	Class    odata.QueryClass `json:"class"`
	Scanned  int64            `json:"scanned"`
	Returned int64            `json:"returned"`
	MS       float64          `json:"ms"`
}

// ExplainLog writes each query served: a line of text for people and,
// when JSON is set, one JSON object a line. Either writer may be nil. It
// is safe for concurrent use; a nil *ExplainLog writes nothing.
type ExplainLog struct {
	mu    sync.Mutex
	Text  io.Writer
	JSON  io.Writer
	watch func(Explained) // the console's log, when it is served
}

// Write logs one query.
func (l *ExplainLog) Write(x Explained) {
	if l != nil && l.watch != nil {
		l.watch(x)
	}
	if l == nil || (l.Text == nil && l.JSON == nil) {
		return
	}
	var js []byte
	if l.JSON != nil {
		js, _ = odata.MarshalJSON(LogEntry{Time: time.Now().UTC(), Table: x.Table, Filter: x.Filter, Class: x.Class,
			Scanned: x.Scanned, Returned: x.Returned, MS: float64(x.Elapsed.Microseconds()) / 1000})
		js = append(js, '\n')
	}
	l.mu.Lock()
	defer l.mu.Unlock()
	if l.Text != nil {
		io.WriteString(l.Text, x.Text()+"\n")
	}
	if js != nil {
		l.JSON.Write(js)
	}
}

func timeSince(t time.Time) time.Duration { return time.Since(t) }
