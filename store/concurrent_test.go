package store

import (
	"errors"
	"fmt"
	"io"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/tstable/tstable/backend"
	"github.com/tstable/tstable/odata"
)

// Readers and writers on one DB at once, as serve's clients use it: point
// gets, pages followed by their continuation, filtered scans on several
// cores and exports beside inserts, deletes, merges, batches and loads.
// No call may fail, and every write that was acknowledged must be read
// back. (Reads that began right after a commit once shared the writer's
// id, and the guard judged them by the free-page list the writer began
// from: "page N is in use but also on the list of free pages".)
func TestReadersBesideWritersSeeNoDamage(t *testing.T) {
	d := 2 * time.Second
	if testing.Short() || raceEnabled {
		d = 500 * time.Millisecond
	}
	db, _ := openTemp(t)
	newTable(t, db, "Load")
	for i := range 3000 {
		mustWrite(t, db, "Load", backend.OpInsert, ent("p", fmt.Sprintf("%05d", i), prop("N", odata.Int32(int32(i)))))
	}
	var (
		stop  atomic.Bool
		wg    sync.WaitGroup
		mu    sync.Mutex
		acked = map[string]bool{} // key → present after the last acknowledged write
		errs  = make(chan error, 64)
	)
	fail := func(who string, err error) {
		select {
		case errs <- fmt.Errorf("%s: %w", who, err):
		default:
		}
		stop.Store(true)
	}
	ack := func(k string, present bool) { mu.Lock(); acked[k] = present; mu.Unlock() }
	loop := func(who string, fn func(i int) error) {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for i := 0; !stop.Load(); i++ {
				if err := fn(i); err != nil {
					fail(who, err)
					return
				}
			}
		}()
	}

	for w := range 2 {
		loop(fmt.Sprintf("writer %d", w), func(i int) error {
			k := fmt.Sprintf("w%d-%06d", w, i)
			if _, err := db.Write(ctx, "Load", backend.Operation{Kind: backend.OpInsert, Entity: ent("q", k, prop("N", odata.Int32(int32(i))))}); err != nil {
				return err
			}
			ack("q/"+k, true)
			switch i % 4 {
			case 1:
				if _, err := db.Write(ctx, "Load", backend.Operation{Kind: backend.OpDelete, IfMatch: "*", Entity: ent("q", k)}); err != nil {
					return err
				}
				ack("q/"+k, false)
			case 2:
				if _, err := db.Write(ctx, "Load", backend.Operation{Kind: backend.OpMerge, IfMatch: "*", Entity: ent("q", k, prop("M", odata.String("m")))}); err != nil {
					return err
				}
			}
			return nil
		})
	}
	loop("batcher", func(i int) error {
		var ops []backend.Operation
		for j := range 20 {
			ops = append(ops, backend.Operation{Kind: backend.OpInsertOrReplace, Entity: ent(fmt.Sprintf("b%04d", i), fmt.Sprintf("%03d", j))})
		}
		if _, err := db.Batch(ctx, "Load", ops); err != nil {
			return err
		}
		ack(fmt.Sprintf("b%04d/019", i), true)
		return nil
	})
	loop("loader", func(i int) error {
		n := 0
		src := func() (*odata.Entity, error) {
			if n == 500 {
				return nil, io.EOF
			}
			n++
			return ent(fmt.Sprintf("l%04d", i), fmt.Sprintf("%04d", n)), nil
		}
		if _, err := db.Load(ctx, "Load", backend.OpInsertOrMerge, src, backend.LoadOptions{}); err != nil {
			return err
		}
		ack(fmt.Sprintf("l%04d/0500", i), true)
		return nil
	})
	loop("stager", func(i int) error { // into an empty table in key order: staged
		name := fmt.Sprintf("Staged%d", i%4)
		if i >= 4 {
			if err := db.DeleteTable(ctx, name); err != nil {
				return err
			}
		}
		if err := db.CreateTable(ctx, name); err != nil {
			return err
		}
		n := 0
		src := func() (*odata.Entity, error) {
			if n == 2000 {
				return nil, io.EOF
			}
			n++
			return ent("s", fmt.Sprintf("%05d", n)), nil
		}
		res, err := db.Load(ctx, name, backend.OpInsert, src, backend.LoadOptions{})
		if err == nil && res.Written != 2000 {
			err = fmt.Errorf("staged load wrote %d of 2000", res.Written)
		}
		return err
	})
	loop("getter", func(i int) error {
		_, err := db.Get(ctx, "Load", "p", fmt.Sprintf("%05d", i%3000))
		return err
	})
	loop("pager", func(int) error {
		req := backend.QueryRequest{PageSize: 200}
		for {
			res, err := db.Query(ctx, "Load", req, func(*odata.Entity) error { return nil })
			if err != nil || res.Next == nil {
				return err
			}
			req.Start = res.Next
		}
	})
	loop("scanner", func(i int) error {
		f, err := odata.ParseFilter(fmt.Sprintf("N ge %d", i%3000))
		if err != nil {
			return err
		}
		if i%2 == 0 {
			_, err = db.Query(ctx, "Load", backend.QueryRequest{Query: odata.Query{Filter: f}}, func(*odata.Entity) error { return nil })
		} else {
			_, err = db.QueryJSONL(ctx, "Load", backend.QueryRequest{}, func([]byte, int) error { return nil })
		}
		return err
	})

	for end := time.Now().Add(d); time.Now().Before(end) && !stop.Load(); {
		time.Sleep(10 * time.Millisecond)
	}
	stop.Store(true)
	wg.Wait()
	close(errs)
	for err := range errs {
		t.Error(err)
	}
	for k, present := range acked {
		pk, rk, _ := cutKey(k)
		_, err := db.Get(ctx, "Load", pk, rk)
		var oe *odata.Error
		switch {
		case present && err != nil:
			t.Errorf("acknowledged %s is not readable: %v", k, err)
		case !present && !(errors.As(err, &oe) && oe.Code == odata.CodeResourceNotFound):
			t.Errorf("acknowledged delete of %s: get says %v", k, err)
		}
	}
	if len(acked) == 0 {
		t.Fatal("no write was acknowledged")
	}
}

// cutKey splits "pk/rk".
func cutKey(k string) (pk, rk string, ok bool) {
	for i := len(k) - 1; i >= 0; i-- {
		if k[i] == '/' {
			return k[:i], k[i+1:], true
		}
	}
	return k, "", false
}
