package design

import (
	"context"

	"github.com/tstable/tstable/backend"
	"github.com/tstable/tstable/keyspace"
	"github.com/tstable/tstable/odata"
)

// KeySpace reads table once, in key order, and models its key space with
// what query q (planned as plan; nil: q's own plan) reads and returns in
// it: explain's picture, in the terminal and in serve's console.
func KeySpace(ctx context.Context, b backend.Backend, table string, q odata.Query, plan *odata.Plan) (*keyspace.Model, error) {
	o := backend.KeyOrderOf(b)
	if plan == nil {
		plan = odata.PlanQuery(q.Filter.In(o))
	}
	r := keyspace.NewReading(q, plan, o)
	kb := keyspace.NewBuilder(table, plan.Class.Text())
	_, err := b.Query(ctx, table, backend.QueryRequest{}, func(e *odata.Entity) error {
		kb.Add(e.PartitionKey, r.State(e))
		return nil
	})
	return kb.Model(), err
}

// Partitions reads table once and models its key space with no query in
// it: its partitions and their sizes (stats' picture, serve's console).
func Partitions(ctx context.Context, b backend.Backend, table string) (*keyspace.Model, error) {
	kb := keyspace.NewBuilder(table, "")
	_, err := b.Query(ctx, table, backend.QueryRequest{}, func(e *odata.Entity) error {
		kb.Add(e.PartitionKey, keyspace.Unread)
		return nil
	})
	return kb.Model(), err
}
