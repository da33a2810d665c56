// Package loadtest runs the clients of a load test at once (readers and
// writers of one file, through serve or as processes of their own) until
// the time is up or one fails, and keeps what the writers were told was
// written, so that the test can read every acknowledged write back.
//
// A client's failure stops every client; Run reports each failure as the
// test's error. Everything here is safe to call from the clients'
// goroutines.
package loadtest

import (
	"fmt"
	"maps"
	"sync"
	"sync/atomic"
	"testing"
	"time"
)

// Load is one load test's clients and what they were told.
type Load struct {
	stop  atomic.Bool
	wg    sync.WaitGroup
	ops   atomic.Int64
	mu    sync.Mutex
	errs  []error
	acked map[string]string // "pk/rk" → its value after the last acknowledged write ("" deleted)
}

// New returns a load whose acknowledged writes start as seeded ("pk/rk" →
// value).
func New(seeded map[string]string) *Load {
	return &Load{acked: maps.Clone(seeded)}
}

// Loop runs fn(0), fn(1), … in a goroutine of its own until the load
// stops; an error from fn is who's failure, and stops the load.
func (l *Load) Loop(who string, fn func(i int) error) {
	l.wg.Add(1)
	go func() {
		defer l.wg.Done()
		for i := 0; !l.stop.Load(); i++ {
			if err := fn(i); err != nil {
				l.Fail(who, err)
				return
			}
			l.ops.Add(1)
		}
	}()
}

// Fail records who's failure and stops the load.
func (l *Load) Fail(who string, err error) {
	l.mu.Lock()
	l.errs = append(l.errs, fmt.Errorf("%s: %w", who, err))
	l.mu.Unlock()
	l.stop.Store(true)
}

// Ack records that a write of entity (pk, rk) was acknowledged, leaving
// value ("" for a delete).
func (l *Load) Ack(pk, rk, value string) {
	l.mu.Lock()
	l.acked[pk+"/"+rk] = value
	l.mu.Unlock()
}

// Run lets the clients work for d, or until one fails, waits for them to
// stop, and reports every failure as t's error. It returns how many calls
// of the clients' functions succeeded.
func (l *Load) Run(t testing.TB, d time.Duration) int64 {
	t.Helper()
	for end := time.Now().Add(d); time.Now().Before(end) && !l.stop.Load(); {
		time.Sleep(10 * time.Millisecond)
	}
	l.stop.Store(true)
	l.wg.Wait()
	for _, err := range l.errs {
		t.Error(err)
	}
	return l.ops.Load()
}

// Acked is every acknowledged write's last value, "pk/rk" → value ("" for
// a delete); call it after Run.
func (l *Load) Acked() map[string]string {
	l.mu.Lock()
	defer l.mu.Unlock()
	return maps.Clone(l.acked)
}

// ReadBack reports as t's errors every acknowledged write whose entity
// does not hold its value in got ("pk/rk" → value, as read after the
// load; a deleted entity is absent); call it after Run.
func (l *Load) ReadBack(t testing.TB, got map[string]string) {
	t.Helper()
	for k, v := range l.Acked() {
		if got[k] != v {
			t.Errorf("%s: the value is %q after the load, want %q as acknowledged", k, got[k], v)
		}
	}
}
