//go:build linux

package server_test

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"testing"

	"github.com/tstable/tstable/server"
)

// A write the disk has no room for is answered as the service answers an
// internal failure, 500 InternalError, with a message that says the disk
// is full and that nothing of the write is stored; the server goes on
// answering (a read, then a write once there is room).
func TestServeAnswersAFullDisk(t *testing.T) {
	if os.Geteuid() != 0 {
		t.Skip("mounting a small file system needs root")
	}
	dir := t.TempDir()
	if err := syscall.Mount("tmpfs", dir, "tmpfs", 0, "size=2m"); err != nil {
		t.Skipf("cannot mount a 2 MiB tmpfs on %s: %v", dir, err)
	}
	t.Cleanup(func() { syscall.Unmount(dir, 0) })
	r, err := server.Start(server.Config{Addr: "127.0.0.1:0", DBPath: filepath.Join(dir, "full.db")})
	if err != nil {
		t.Fatal(err)
	}
	defer r.Shutdown(context.Background())
	c := &client{t: t, url: r.URL()}
	c.createTable("Full")
	big := strings.Repeat("x", 30000)
	for i := range 200 {
		resp := c.do("POST", "/Full", []byte(fmt.Sprintf(`{"PartitionKey":"p","RowKey":"%03d","V":"%s"}`, i, big)))
		if resp.status == 201 {
			continue
		}
		if resp.status != 500 || resp.errorCode() != "InternalError" || resp.header.Get("x-ms-error-code") != "InternalError" ||
			!strings.Contains(resp.errorMessage(), "the disk is full (no space left on device); the transaction was rolled back and nothing of it is stored") {
			t.Fatalf("insert %d on a full disk: %d %s", i, resp.status, resp.body)
		}
		c.mustDo(200, "GET", "/Full(PartitionKey='p',RowKey='000')", nil)
		c.mustDo(404, "GET", fmt.Sprintf("/Full(PartitionKey='p',RowKey='%03d')", i), nil)
		c.mustDo(204, "DELETE", "/Full(PartitionKey='p',RowKey='000')", nil, "If-Match", "*")
		c.mustDo(201, "POST", "/Full", []byte(`{"PartitionKey":"p","RowKey":"small"}`))
		return
	}
	t.Fatal("200 inserts of 30 KB fit on a 2 MiB disk")
}
