package store

import (
	"bytes"
	"fmt"
	"testing"
	"time"

	"github.com/tstable/tstable/backend"
	"github.com/tstable/tstable/odata"
)

// A long read of a file opened for reading lets a writer that waits for
// the file in: the writer, waiting less than the read lasts, writes while
// the read goes on, and the read still delivers every key once, in order,
// on the serial scan (entities) and on the parallel one (JSON lines).
func TestLongReadStepsAsideForAWaitingWriter(t *testing.T) {
	if !waitersSeen {
		t.Skip("this system does not show a process waiting for the file")
	}
	const n = 60_000
	for _, lines := range []bool{false, true} {
		t.Run(fmt.Sprintf("lines=%v", lines), func(t *testing.T) {
			db, path := benchTable(t, n)
			db.Close()
			r, err := Open(path, &Options{ReadOnly: true})
			if err != nil {
				t.Fatal(err)
			}
			defer r.Close()
			wrote := make(chan error, 1)
			writeDone := make(chan time.Time, 1)
			var last []byte
			var got int
			seen := func(key []byte) {
				if bytes.Compare(key, last) <= 0 && got > 0 {
					t.Fatalf("key %q after %q: not once and in order", key, last)
				}
				last = append(last[:0], key...)
				if got++; got == 1000 {
					go func() { // a writer comes while the read holds the file
						w, err := Open(path, &Options{Wait: time.Second})
						if err == nil {
							_, err = w.Write(ctx, "Bench", backend.Operation{Kind: backend.OpInsert, Entity: ent("zz-during", "r", prop("Age", odata.Int32(1)))})
							w.Close()
						}
						writeDone <- time.Now()
						wrote <- err
					}()
				}
				if got%500 == 0 {
					time.Sleep(20 * time.Millisecond) // the read lasts about 2.4 s
				}
			}
			req := backend.QueryRequest{}
			var res *backend.QueryResult
			if lines {
				f, ferr := odata.ParseFilter("Age ge 0")
				if ferr != nil {
					t.Fatal(ferr)
				}
				req.Query.Filter = f
				res, err = r.QueryJSONL(ctx, "Bench", req, func(b []byte, k int) error {
					for _, line := range bytes.Split(bytes.TrimSuffix(b, []byte("\n")), []byte("\n")) {
						e, err := odata.DecodeEntityJSON(line)
						if err != nil {
							return err
						}
						seen([]byte(e.PartitionKey + "\x00" + e.RowKey))
					}
					return nil
				})
			} else {
				res, err = r.Query(ctx, "Bench", req, func(e *odata.Entity) error {
					seen([]byte(e.PartitionKey + "\x00" + e.RowKey))
					return nil
				})
			}
			ended := time.Now()
			if err != nil {
				t.Fatal(err)
			}
			if werr := <-wrote; werr != nil {
				t.Fatalf("the writer waiting for the long read: %v", werr)
			}
			if at := <-writeDone; !at.Before(ended) {
				t.Errorf("the writer wrote only after the read ended")
			}
			if got != n+1 || res.Returned != int64(got) {
				t.Errorf("the read delivered %d entities and counted %d returned; want the table's %d and the one written while it read", got, res.Returned, n)
			}
			if res.Scanned != res.Returned {
				t.Errorf("scanned %d, returned %d: every key is scanned once", res.Scanned, res.Returned)
			}
		})
	}
}
