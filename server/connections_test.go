package server

import (
	"bufio"
	"context"
	"encoding/json"
	"io"
	"net"
	"net/http"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

// startBounded starts a server that allows every request, within bounds.
func startBounded(t *testing.T, bounds connBounds) *Running {
	t.Helper()
	r, err := Start(Config{Addr: "127.0.0.1:0", DBPath: filepath.Join(t.TempDir(), "t.db"), bounds: bounds})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { r.Shutdown(context.Background()) })
	return r
}

// dial opens a raw connection to r.
func dial(t *testing.T, r *Running) net.Conn {
	t.Helper()
	c, err := net.Dial("tcp", r.Addr().String())
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { c.Close() })
	return c
}

// answer reads one response from c (within a generous bound: the test
// fails rather than hangs), with its body and the service's error code.
func answer(t *testing.T, c net.Conn) (*http.Response, string, string) {
	t.Helper()
	c.SetReadDeadline(time.Now().Add(20 * time.Second))
	resp, err := http.ReadResponse(bufio.NewReader(c), nil)
	if err != nil {
		t.Fatalf("no answer: %v", err)
	}
	body, _ := io.ReadAll(resp.Body)
	var doc struct {
		Err struct {
			Code    string `json:"code"`
			Message struct {
				Value string `json:"value"`
			} `json:"message"`
		} `json:"odata.error"`
	}
	json.Unmarshal(body, &doc)
	return resp, doc.Err.Code, doc.Err.Message.Value
}

// closedByServer reports whether the server closed c (a read ends).
func closedByServer(c net.Conn, within time.Duration) bool {
	c.SetReadDeadline(time.Now().Add(within))
	_, err := c.Read(make([]byte, 1))
	return err == io.EOF || err != nil && !isTimeout(err)
}

const tableListRequest = "GET /devstoreaccount1/Tables HTTP/1.1\r\nHost: x\r\nAccept: application/json;odata=nometadata\r\nx-ms-version: 2019-02-02\r\n\r\n"

// A body that trickles in is cut when the request has not arrived whole
// within the time given one operation: 500 OperationTimedOut, as the
// service answers an operation past its time, and the connection closed.
func TestSlowBodyIsAnsweredOperationTimedOut(t *testing.T) {
	r := startBounded(t, connBounds{arrival: 400 * time.Millisecond, idle: time.Minute, conns: 16, headerBytes: 64 << 10})
	c := dial(t, r)
	io.WriteString(c, "POST /devstoreaccount1/Tables HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\nAccept: application/json;odata=nometadata\r\nContent-Length: 100\r\n\r\n{")
	go func() { // one byte every 100 ms: 10 s for the whole body
		for range 99 {
			time.Sleep(100 * time.Millisecond)
			if _, err := c.Write([]byte(" ")); err != nil {
				return
			}
		}
	}()
	start := time.Now()
	resp, code, msg := answer(t, c)
	if resp.StatusCode != 500 || code != "OperationTimedOut" || resp.Header.Get("x-ms-error-code") != "OperationTimedOut" {
		t.Errorf("a trickling body: %d %s %q, want 500 OperationTimedOut", resp.StatusCode, code, msg)
	}
	if !strings.HasPrefix(msg, "Operation could not be completed within the specified time.\n") || !strings.Contains(msg, "\ntstable: the request did not arrive whole") {
		t.Errorf("message %q is not the service's", msg)
	}
	if waited := time.Since(start); waited > 5*time.Second {
		t.Errorf("answered after %v, the bound being 400ms", waited)
	}
	if !closedByServer(c, 5*time.Second) {
		t.Error("the connection stays open after the refusal")
	}
}

// A kept-alive connection left idle is closed by the server.
func TestIdleConnectionIsClosed(t *testing.T) {
	r := startBounded(t, connBounds{arrival: 10 * time.Second, idle: 300 * time.Millisecond, conns: 16, headerBytes: 64 << 10})
	c := dial(t, r)
	io.WriteString(c, tableListRequest)
	if resp, code, _ := answer(t, c); resp.StatusCode != 200 {
		t.Fatalf("table list: %d %s", resp.StatusCode, code)
	}
	if !closedByServer(c, 10*time.Second) {
		t.Error("an idle connection is still open 10 s after the idle bound of 300ms")
	}
}

// Past the bound on connections, a new one closes the connection idle the
// longest; where none is idle, its request is answered 503 ServerBusy and
// it is closed. The connections within the bound are served throughout.
func TestConnectionsAreBounded(t *testing.T) {
	r := startBounded(t, connBounds{arrival: 10 * time.Second, idle: time.Minute, conns: 3, headerBytes: 64 << 10})
	var idle []net.Conn
	for range 3 {
		c := dial(t, r)
		io.WriteString(c, tableListRequest)
		if resp, code, _ := answer(t, c); resp.StatusCode != 200 {
			t.Fatalf("table list: %d %s", resp.StatusCode, code)
		}
		idle = append(idle, c)
		time.Sleep(20 * time.Millisecond) // an order of idleness
	}
	fourth := dial(t, r)
	io.WriteString(fourth, tableListRequest)
	if resp, code, _ := answer(t, fourth); resp.StatusCode != 200 {
		t.Fatalf("a fourth connection, three idle: %d %s, want it served", resp.StatusCode, code)
	}
	if !closedByServer(idle[0], 5*time.Second) {
		t.Error("the connection idle the longest was not closed for the fourth")
	}
	for _, c := range idle[1:] {
		if closedByServer(c, 50*time.Millisecond) {
			t.Error("a connection idle for less long was closed too")
		}
	}
	// Three connections that send nothing yet are not idle: a fourth is
	// refused.
	r2 := startBounded(t, connBounds{arrival: 10 * time.Second, idle: time.Minute, conns: 3, headerBytes: 64 << 10})
	for range 3 {
		dial(t, r2)
	}
	time.Sleep(100 * time.Millisecond)
	c := dial(t, r2)
	io.WriteString(c, tableListRequest)
	resp, code, msg := answer(t, c)
	if resp.StatusCode != 503 || code != "ServerBusy" {
		t.Errorf("a fourth connection, three waiting: %d %s %q, want 503 ServerBusy", resp.StatusCode, code, msg)
	}
	if !strings.HasPrefix(msg, "The server is currently unable to receive requests. Please retry your request.\n") || !strings.Contains(msg, "\ntstable: 3 connections are open") {
		t.Errorf("message %q is not the service's", msg)
	}
	if !closedByServer(c, 5*time.Second) {
		t.Error("the refused connection stays open")
	}
}

// Headers larger than the bound are answered in the service's error
// document (400 InvalidInput), not net/http's plain text 431 — up to 4 MB
// of headers.
func TestOversizeHeadersGetTheServicesErrorDocument(t *testing.T) {
	r := startBounded(t, serviceBounds)
	for _, size := range []int{100 << 10, 4 << 20} {
		c := dial(t, r)
		go io.WriteString(c, "GET /devstoreaccount1/Tables HTTP/1.1\r\nHost: x\r\nAccept: application/json\r\nx-ms-version: 2019-02-02\r\nX-Big: "+strings.Repeat("a", size)+"\r\n\r\n")
		resp, code, msg := answer(t, c)
		if resp.StatusCode != 400 || code != "InvalidInput" || !strings.Contains(resp.Header.Get("Content-Type"), "application/json") {
			t.Errorf("a header of %d bytes: %d %s %q (%s)", size, resp.StatusCode, code, msg, resp.Header.Get("Content-Type"))
		}
		if !strings.HasPrefix(msg, "One of the request inputs is not valid.\n") || !strings.Contains(msg, "\ntstable: the request headers are too large") {
			t.Errorf("a header of %d bytes: message %q", size, msg)
		}
	}
	c := dial(t, r)
	io.WriteString(c, tableListRequest)
	if resp, code, _ := answer(t, c); resp.StatusCode != 200 {
		t.Errorf("headers within the bound: %d %s", resp.StatusCode, code)
	}
}
