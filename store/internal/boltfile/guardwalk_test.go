package boltfile

import (
	"math/rand"
	"testing"
)

// reach tells a page reached before from a new one, while the pages are
// few and once they are many (in runs and scattered).
func TestGuardWalkReach(t *testing.T) {
	rng := rand.New(rand.NewSource(1))
	var ids []uint64
	for i := uint64(0); i < 3000; i++ {
		ids = append(ids, 2+i) // a run, as a compacted tree's leaves
	}
	for i := 0; i < 3000; i++ {
		ids = append(ids, uint64(rng.Int63n(1<<40))) // scattered, some far apart
	}
	seen := map[uint64]bool{}
	var w guardWalk
	for n, id := range ids {
		if got := w.reach(id); got != seen[id] {
			t.Fatalf("reach(%d), the %dth: %v, want %v", id, n, got, seen[id])
		}
		seen[id] = true
	}
	for _, id := range []uint64{2, 17, 18, 511, 512, 3001, ids[4000]} {
		if !w.reach(id) {
			t.Fatalf("page %d reached again is not reported", id)
		}
	}
}
