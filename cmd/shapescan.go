package cmd

import (
	"github.com/tstable/tstable/design"
	"github.com/tstable/tstable/keyspace"
	"github.com/tstable/tstable/odata"
)

// shapeScan reads a table once for its stats and, when draw is set, the
// model of its key space, both from the same entities.
type shapeScan struct {
	stats *design.Stats
	keys  *keyspace.Builder
}

func newShapeScan(table string, draw bool) *shapeScan {
	s := &shapeScan{stats: design.NewStats()}
	if draw {
		s.keys = keyspace.NewBuilder(table, "")
	}
	return s
}

func (s *shapeScan) add(e *odata.Entity) {
	s.stats.Add(e)
	if s.keys != nil {
		s.keys.Add(e.PartitionKey, keyspace.Unread)
	}
}
