package server_test

import (
	"bufio"
	"context"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/tstable/tstable/backend"
	"github.com/tstable/tstable/odata"
	"github.com/tstable/tstable/server"
	"github.com/tstable/tstable/store"
)

// TestServeChildProcess is not a test: it is the server process that
// TestCommittedWritesSurviveKill starts (and kills).
func TestServeChildProcess(t *testing.T) {
	path := os.Getenv("TSTABLE_SERVE_CHILD_DB")
	if path == "" {
		t.Skip("run by TestCommittedWritesSurviveKill")
	}
	r, err := server.Start(server.Config{Addr: "127.0.0.1:0", DBPath: path})
	if err != nil {
		fmt.Println("error:", err)
		os.Exit(1)
	}
	fmt.Println(r.URL())
	select {}
}

// A write the server answered is on disk: killing the server with
// SIGKILL right after loses nothing, and the address file it leaves names
// a dead process, which ReadAddress ignores.
func TestCommittedWritesSurviveKill(t *testing.T) {
	path := filepath.Join(t.TempDir(), "kill.db")
	cmd := exec.Command(os.Args[0], "-test.run=^TestServeChildProcess$")
	cmd.Env = append(os.Environ(), "TSTABLE_SERVE_CHILD_DB="+path)
	out, err := cmd.StdoutPipe()
	if err != nil {
		t.Fatal(err)
	}
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	defer cmd.Process.Kill()
	line, err := bufio.NewReader(out).ReadString('\n')
	if err != nil || !strings.HasPrefix(line, "http://") {
		t.Fatalf("the server process said %q (%v)", line, err)
	}
	c := &client{t: t, url: strings.TrimSpace(line)}
	c.createTable("Durable")
	c.insert("Durable", `{"PartitionKey":"p","RowKey":"single","N":1}`)
	var ops []string
	for i := 0; i < 50; i++ {
		ops = append(ops, fmt.Sprintf("POST /Durable\nPrefer: return-no-content\n\n{\"PartitionKey\":\"p\",\"RowKey\":\"b%02d\"}", i))
	}
	ct, body := batchBody(c.url, ops)
	if r := c.do("POST", "/$batch", body, "Content-Type", ct); r.status != 202 || strings.Contains(r.body, "odata.error") {
		t.Fatalf("batch: %d %s", r.status, r.body)
	}
	c.mustDo(204, "MERGE", "/Durable(PartitionKey='p',RowKey='single')", []byte(`{"N":2}`), "If-Match", "*")
	if err := cmd.Process.Kill(); err != nil {
		t.Fatal(err)
	}
	cmd.Wait()

	if _, _, ok := server.ReadAddress(path); ok {
		t.Error("ReadAddress names a killed server")
	}
	db, err := store.Open(path, nil)
	if err != nil {
		t.Fatalf("reopen after kill: %v", err)
	}
	defer db.Close()
	e, err := db.Get(context.Background(), "Durable", "p", "single")
	if err != nil {
		t.Fatalf("the single insert was lost: %v", err)
	}
	if v, _ := e.Get("N"); v.Int != 2 {
		t.Errorf("the merge was lost: N = %+v", v)
	}
	n := 0
	db.Query(context.Background(), "Durable", backend.QueryRequest{}, func(*odata.Entity) error { n++; return nil })
	if n != 51 {
		t.Errorf("%d entities after the kill, want 51", n)
	}
}
