package keyspace

import "github.com/tstable/tstable/odata"

// Reading says what a query does to each entity of a table met in key
// order: read it (it lies in one of the plan's key ranges) and return it
// (the filter matches), until $top entities are returned; after that it
// reads nothing more. It is the query's own plan and filter applied to
// the keys, so the picture agrees with what the store reads.
type Reading struct {
	ranges   []odata.KeyRange
	filter   *odata.Filter
	order    odata.Order
	top      int64
	returned int64
}

// NewReading is how query q, planned as p, reads a table whose keys are
// in order o. A nil plan is the plan of q's filter.
func NewReading(q odata.Query, p *odata.Plan, o odata.Order) *Reading {
	f := q.Filter.In(o)
	if p == nil {
		p = odata.PlanQuery(f)
	}
	return &Reading{ranges: p.Ranges, filter: f, order: o, top: int64(q.Top)}
}

// State is what the query does to e, the next entity in key order.
func (r *Reading) State(e *odata.Entity) State {
	if r.top > 0 && r.returned >= r.top {
		return Unread
	}
	k := odata.Key{PartitionKey: e.PartitionKey, RowKey: e.RowKey}
	in := false
	for _, kr := range r.ranges {
		if kr.ContainsIn(k, r.order) {
			in = true
			break
		}
	}
	if !in {
		return Unread
	}
	if !r.filter.Match(e) {
		return Scanned
	}
	r.returned++
	return Returned
}
