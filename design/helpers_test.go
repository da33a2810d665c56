package design

import (
	"fmt"
	"slices"
	"testing"

	"github.com/tstable/tstable/odata"
	"github.com/tstable/tstable/samples"
)

// sorted puts entities in key order, as a scan delivers them.
func sorted(ents []*odata.Entity) []*odata.Entity {
	slices.SortFunc(ents, func(a, b *odata.Entity) int {
		return odata.CompareKeys(odata.Key{PartitionKey: a.PartitionKey, RowKey: a.RowKey}, odata.Key{PartitionKey: b.PartitionKey, RowKey: b.RowKey})
	})
	return ents
}

// statsOf feeds ents (sorted first) to a fresh Stats.
func statsOf(ents []*odata.Entity) *Stats {
	s := NewStats()
	for _, e := range sorted(ents) {
		s.Add(e)
	}
	return s
}

// ent makes an entity with properties given as name, value pairs.
func ent(pk, rk string, props ...any) *odata.Entity {
	e := &odata.Entity{PartitionKey: pk, RowKey: rk}
	for i := 0; i+1 < len(props); i += 2 {
		e.Set(props[i].(string), props[i+1].(odata.Value))
	}
	return e
}

// sampleTable generates one table of a sample dataset in key order.
func sampleTable(t testing.TB, dataset, table string, size int) []*odata.Entity {
	t.Helper()
	d, ok := samples.Lookup(dataset)
	if !ok {
		t.Fatalf("no dataset %s", dataset)
	}
	for _, tb := range d.Tables(size, "") {
		if tb.Name == table {
			return samples.Collect(tb)
		}
	}
	t.Fatalf("dataset %s has no table %s", dataset, table)
	return nil
}

// byID returns the findings with one id.
func byID(fs []Finding, id string) []Finding {
	var out []Finding
	for _, f := range fs {
		if f.ID == id {
			out = append(out, f)
		}
	}
	return out
}

// one returns the single finding with id, failing otherwise.
func one(t *testing.T, fs []Finding, id string) Finding {
	t.Helper()
	got := byID(fs, id)
	if len(got) != 1 {
		t.Fatalf("want one %s finding, got %d in %s", id, len(got), ids(fs))
	}
	return got[0]
}

func ids(fs []Finding) string {
	var s []string
	for _, f := range fs {
		s = append(s, f.ID+"("+string(f.Severity)+")")
	}
	return fmt.Sprint(s)
}
