package cmd

import (
	"context"
	"encoding/json"
	"path/filepath"
	"strings"
	"testing"

	"github.com/tstable/tstable/server"
)

// servedDB is the seeded People database, held by tstable serve on a
// free loopback port until the test ends.
func servedDB(t *testing.T) (string, *server.Running) {
	t.Helper()
	db := filepath.Join(t.TempDir(), "t.db")
	seed(t, db)
	srv, err := server.Start(server.Config{Addr: "127.0.0.1:0", DBPath: db})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { srv.Shutdown(context.Background()) })
	return db, srv
}

// While tstable serve holds a database, the command line on the same --db
// goes through the server: no DatabaseLocked, the same answers, and the
// server's scanned count in explanations.
func TestCommandsGoThroughTheServerHoldingTheFile(t *testing.T) {
	db, srv := servedDB(t)

	out, errOut, st := run(context.Background(), db, "", "query", "People", "--filter", "PartitionKey eq 'Sales'", "--explain", "-o", "json")
	if st != 0 {
		t.Fatalf("query on a served file: exit %d\n%s", st, errOut)
	}
	var got struct {
		Value   []map[string]any
		Explain struct {
			Class   string
			Scanned int64
		}
	}
	if err := json.Unmarshal([]byte(out), &got); err != nil || len(got.Value) == 0 || got.Explain.Class != "partition-scan" || got.Explain.Scanned != int64(len(got.Value)) {
		t.Errorf("query through the server: %v\n%s", err, out)
	}
	mustRun(t, db, "", "upsert", "People", `{"PartitionKey":"Sales","RowKey":"00099","Age":5}`)
	if out := mustRun(t, db, "", "get", "People", "Sales", "00099", "-o", "json"); !strings.Contains(out, `"Age":5`) {
		t.Errorf("get after upsert through the server: %s", out)
	}
	if out := mustRun(t, db, "", "status", "-o", "json"); !strings.Contains(out, `"backend":"served"`) || !strings.Contains(out, srv.URL()) {
		t.Errorf("status of a served file: %s", out)
	}
	if _, errOut, st := run(context.Background(), db, "", "serve", "--addr", "127.0.0.1:0"); st != ExitFailed || !strings.Contains(errOut, "already served at "+srv.URL()) {
		t.Errorf("a second serve: exit %d, %s", st, errOut)
	}
}
