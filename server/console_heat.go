package server

import (
	"context"
	"net/http"
	"slices"
	"sync"
	"time"

	"github.com/tstable/tstable/backend"
	"github.com/tstable/tstable/design"
	"github.com/tstable/tstable/keyspace"
	"github.com/tstable/tstable/odata"
)

// heat counts, since the server started, the entities each partition of
// each table gave (read) and took (written), and the busiest second of
// each, to hold them against the service's scalability targets.
type heat struct {
	mu     sync.Mutex
	tables map[string]map[string]*partitionHeat
	// requests counts the account's requests in the current second, and
	// peak the most in one second.
	second   int64
	requests int64
	peak     int64
}

// partitionHeat is one partition's traffic.
type partitionHeat struct {
	Reads  int64 `json:"reads"`
	Writes int64 `json:"writes"`
	// Peak is the most entities it served in one second.
	Peak   int64 `json:"peak"`
	second int64
	inSec  int64
}

func newHeat() *heat { return &heat{tables: map[string]map[string]*partitionHeat{}} }

// add counts n entities read or written in partition pk of table.
func (h *heat) add(table, pk string, reads, writes int64) {
	now := time.Now().Unix()
	h.mu.Lock()
	defer h.mu.Unlock()
	t := h.tables[table]
	if t == nil {
		t = map[string]*partitionHeat{}
		h.tables[table] = t
	}
	p := t[pk]
	if p == nil {
		p = &partitionHeat{}
		t[pk] = p
	}
	p.Reads += reads
	p.Writes += writes
	if p.second != now {
		p.second, p.inSec = now, 0
	}
	p.inSec += reads + writes
	p.Peak = max(p.Peak, p.inSec)
}

// request counts one request to the account.
func (h *heat) request() {
	now := time.Now().Unix()
	h.mu.Lock()
	defer h.mu.Unlock()
	if h.second != now {
		h.second, h.requests = now, 0
	}
	h.requests++
	h.peak = max(h.peak, h.requests)
}

// heatBackend is the store with every entity read or written counted in
// the heat of its partition.
type heatBackend struct {
	backend.Backend
	h *heat
}

// KeyOrder is the store's.
func (b *heatBackend) KeyOrder() odata.Order { return backend.KeyOrderOf(b.Backend) }

func (b *heatBackend) Get(ctx context.Context, table, pk, rk string) (*odata.Entity, error) {
	e, err := b.Backend.Get(ctx, table, pk, rk)
	if err == nil {
		b.h.add(table, pk, 1, 0)
	}
	return e, err
}

// Query counts the entities it gives by runs of one partition (they come
// in key order), each run added at once when the next partition begins
// and when the query ends: one lock a partition a page, not one an entity.
func (b *heatBackend) Query(ctx context.Context, table string, req backend.QueryRequest, fn func(*odata.Entity) error) (*backend.QueryResult, error) {
	var pk string
	var run int64
	res, err := b.Backend.Query(ctx, table, req, func(e *odata.Entity) error {
		if run > 0 && e.PartitionKey != pk {
			b.h.add(table, pk, run, 0)
			run = 0
		}
		pk = e.PartitionKey
		run++
		return fn(e)
	})
	if run > 0 {
		b.h.add(table, pk, run, 0)
	}
	return res, err
}

func (b *heatBackend) Write(ctx context.Context, table string, op backend.Operation) (*odata.Entity, error) {
	e, err := b.Backend.Write(ctx, table, op)
	if err == nil && op.Entity != nil {
		b.h.add(table, op.Entity.PartitionKey, 0, 1)
	}
	b.h.request()
	return e, err
}

func (b *heatBackend) Batch(ctx context.Context, table string, ops []backend.Operation) ([]*odata.Entity, error) {
	out, err := b.Backend.Batch(ctx, table, ops)
	if err == nil && len(ops) > 0 && ops[0].Entity != nil {
		b.h.add(table, ops[0].Entity.PartitionKey, 0, int64(len(ops)))
	}
	b.h.request()
	return out, err
}

// hotPartition is a partition and its traffic, for the console.
type hotPartition struct {
	PartitionKey string `json:"partitionKey"`
	partitionHeat
	// Hot says it reached the share of the partition target that makes
	// it a bottleneck: its busiest second at half the target or more.
	Hot bool `json:"hot"`
}

// heatView is the heat of one table.
type heatView struct {
	Table           string         `json:"table"`
	Since           time.Time      `json:"since"`
	PartitionTarget int64          `json:"partitionTarget"` // entities a second
	AccountTarget   int64          `json:"accountTarget"`   // requests a second
	AccountPeak     int64          `json:"accountPeak"`
	Partitions      []hotPartition `json:"partitions"` // busiest first
	SVG             string         `json:"svg"`
	Advice          *design.Advice `json:"advice,omitempty"`
	Text            []string       `json:"text"`
}

// heatOf is the heat of table: its partitions by traffic, the key space
// with the partitions that took traffic flagged, and advise's proposals
// for the queries logged on it.
func (c *console) heatOf(r *http.Request, table string) (*heatView, error) {
	v := &heatView{Table: table, Since: c.started.UTC(), PartitionTarget: design.PartitionTarget, AccountTarget: design.AccountTarget, Partitions: []hotPartition{}, Text: []string{}}
	c.heat.mu.Lock()
	var busy []string
	for pk, p := range c.heat.tables[table] {
		v.Partitions = append(v.Partitions, hotPartition{PartitionKey: pk, partitionHeat: *p, Hot: p.Peak*2 >= design.PartitionTarget})
		busy = append(busy, pk)
	}
	v.AccountPeak = c.heat.peak
	c.heat.mu.Unlock()
	slices.SortFunc(v.Partitions, func(a, b hotPartition) int {
		return int((b.Reads + b.Writes) - (a.Reads + a.Writes))
	})
	for _, p := range v.Partitions {
		if p.Hot {
			v.Text = append(v.Text, "partition "+odata.Quote(p.PartitionKey)+" served "+keyspace.Thousands(p.Peak)+
				" entities in its busiest second: a partition serves about "+keyspace.Thousands(design.PartitionTarget)+" a second")
		}
	}
	if v.AccountPeak*2 >= design.AccountTarget {
		v.Text = append(v.Text, "the account took "+keyspace.Thousands(v.AccountPeak)+" requests in its busiest second: an account serves about "+keyspace.Thousands(design.AccountTarget)+" a second")
	}
	m, err := design.Partitions(r.Context(), c.raw, table)
	if err != nil {
		return nil, err
	}
	m.Flag(busy, func(pk, first, last string) bool {
		return odata.UTF16.Compare(pk, first) >= 0 && odata.UTF16.Compare(pk, last) <= 0
	})
	v.SVG = keyspace.SVG(m)
	var lines []design.QueryLine
	for i, e := range c.latest().Queries {
		if e.Table != table || e.Filter == "" {
			continue
		}
		if f, err := odata.ParseQueryFilter(e.Filter); err == nil {
			lines = append(lines, design.QueryLine{Line: i + 1, Text: e.Filter, Filter: f, Table: table})
		}
	}
	if len(lines) > 0 {
		if v.Advice, err = design.Advise(r.Context(), c.raw, table, &design.Workload{Queries: lines, Read: design.ReadSummary{Lines: len(lines), Queries: len(lines)}}); err != nil {
			return nil, err
		}
	}
	return v, nil
}
