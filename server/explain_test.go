package server_test

import (
	"bytes"
	"strings"
	"testing"

	"github.com/tstable/tstable/odata"
	"github.com/tstable/tstable/server"
)

// The JSON query log writes <, > and & as they are, as the service writes
// JSON, so a filter in it reads as it was sent.
func TestExplainLogWritesJSONAsTheServiceDoes(t *testing.T) {
	var js bytes.Buffer
	l := &server.ExplainLog{JSON: &js}
	l.Write(server.Explained{Table: "Orders", Filter: "Note eq 'a<b & c>d'", Class: odata.ClassTableScan})
	if got := js.String(); !strings.Contains(got, `"filter":"Note eq 'a<b & c>d'"`) {
		t.Errorf("log line: %s", got)
	}
}
