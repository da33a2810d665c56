// Package samples generates tstable's sample datasets: small, deterministic
// tables built in the binary (no network, no files) that show a good and a
// bad table design side by side. Every generator is seeded, so a dataset of
// a given size is the same on every machine and in every run.
package samples

import (
	"iter"
	"math/rand/v2"
	"slices"
	"strings"

	"github.com/tstable/tstable/odata"
)

// Dataset is one sample: a name, what it shows, its default size, and the
// tables it fills.
type Dataset struct {
	Name        string
	Summary     string
	DefaultSize int
	// SizeUnit says what Size counts ("employees", "events", "orders").
	SizeUnit string
	tables   func(size int) []Table
}

// Table is one generated table: its default name and its entities.
type Table struct {
	Name string
	// Entities yields the table's entities. They need not come in key
	// order; a store sorts them.
	Entities iter.Seq[*odata.Entity]
}

// Tables returns the dataset's tables for size (DefaultSize when size ≤ 0).
// name, when not empty, renames them: a one-table dataset takes it as is,
// a dataset of several tables uses it as a prefix in place of its own
// common stem ("Logs" in LogsByDate and LogsSpread).
func (d Dataset) Tables(size int, name string) []Table {
	if size <= 0 {
		size = d.DefaultSize
	}
	ts := d.tables(size)
	if name == "" {
		return ts
	}
	if len(ts) == 1 {
		ts[0].Name = name
		return ts
	}
	stem := commonPrefix(ts)
	for i := range ts {
		ts[i].Name = name + strings.TrimPrefix(ts[i].Name, stem)
	}
	return ts
}

func commonPrefix(ts []Table) string {
	p := ts[0].Name
	for _, t := range ts[1:] {
		for !strings.HasPrefix(t.Name, p) {
			p = p[:len(p)-1]
		}
	}
	return p
}

// List returns the datasets, by name.
func List() []Dataset {
	ds := []Dataset{employees(), logs(), orders(), bad()}
	slices.SortFunc(ds, func(a, b Dataset) int { return strings.Compare(a.Name, b.Name) })
	return ds
}

// Lookup finds a dataset by name.
func Lookup(name string) (Dataset, bool) {
	for _, d := range List() {
		if d.Name == name {
			return d, true
		}
	}
	return Dataset{}, false
}

// Names returns the dataset names, for completion.
func Names() []string {
	var out []string
	for _, d := range List() {
		out = append(out, d.Name)
	}
	return out
}

// Collect generates every entity of t in key order (for tests and small
// sizes: it holds the whole table in memory).
func Collect(t Table) []*odata.Entity {
	var out []*odata.Entity
	for e := range t.Entities {
		out = append(out, e)
	}
	slices.SortFunc(out, func(a, b *odata.Entity) int {
		return odata.CompareKeys(odata.Key{PartitionKey: a.PartitionKey, RowKey: a.RowKey}, odata.Key{PartitionKey: b.PartitionKey, RowKey: b.RowKey})
	})
	return out
}

// newRand returns the generator of one dataset: the same seed gives the
// same dataset everywhere.
func newRand(seed uint64) *rand.Rand {
	return rand.New(rand.NewPCG(seed, 0x7374_7461_626c_65)) // "tstable"
}

// pick returns one element of xs.
func pick[T any](r *rand.Rand, xs []T) T { return xs[r.IntN(len(xs))] }

// digits is the number of decimal digits of n (at least min).
func digits(n, least int) int {
	d := 1
	for n >= 10 {
		n /= 10
		d++
	}
	return max(d, least)
}
