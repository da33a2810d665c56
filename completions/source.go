package completions

import (
	"context"
	"sort"
	"strings"
	"sync"
	"time"

	"github.com/tstable/tstable/backend"
	"github.com/tstable/tstable/odata"
)

// Property is a property name seen in a table and the Edm types it had.
type Property struct {
	Name  string
	Types []odata.EdmType
}

// Source is what completion needs to know about the data. Implementations
// answer quickly and never fail: when storage cannot be read they return
// nothing, and completion offers what it knows without the data.
type Source interface {
	// Tables returns the table names as created.
	Tables(ctx context.Context) []string
	// Properties returns the user property names seen in a sample of table,
	// sorted by name.
	Properties(ctx context.Context, table string) []Property
	// PartitionKeys returns distinct PartitionKey values of table that start
	// with prefix, in key order, at most a screenful.
	PartitionKeys(ctx context.Context, table, prefix string) []string
	// RowKeys returns RowKey values of partition pk of table that start
	// with prefix, in key order, at most a screenful.
	RowKeys(ctx context.Context, table, pk, prefix string) []string
}

// ReadFunc opens storage for reading, runs fn and closes it again.
type ReadFunc func(ctx context.Context, fn func(backend.Backend) error) error

// Sizes of what Cache reads.
const (
	// SampleSize is how many entities, from the start of the table, are
	// read to learn its property names.
	SampleSize = 500
	// MaxPartitionKeys is how many PartitionKey values are offered at once.
	MaxPartitionKeys = 20
	// cacheTTL is how long an answer is reused when nothing was written.
	cacheTTL = 30 * time.Second
)

// Cache is a Source over a tstable backend. Answers are kept for a while
// and dropped by Invalidate, which the shell calls after every command
// that may have written.
type Cache struct {
	read ReadFunc
	now  func() time.Time

	mu     sync.Mutex
	tables *entry[[]string]
	props  map[string]*entry[[]Property]
	pks    map[string]*entry[[]string] // table NUL prefix
	rks    map[string]*entry[[]string] // table NUL pk NUL prefix
}

type entry[T any] struct {
	value T
	at    time.Time
}

// NewCache returns a Cache reading through read.
func NewCache(read ReadFunc) *Cache {
	return &Cache{read: read, now: time.Now, props: map[string]*entry[[]Property]{}, pks: map[string]*entry[[]string]{}, rks: map[string]*entry[[]string]{}}
}

// Invalidate forgets every cached answer.
func (c *Cache) Invalidate() {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.tables = nil
	clear(c.props)
	clear(c.pks)
	clear(c.rks)
}

func (c *Cache) fresh(at time.Time) bool { return c.now().Sub(at) < cacheTTL }

// Tables implements Source.
func (c *Cache) Tables(ctx context.Context) []string {
	c.mu.Lock()
	if e := c.tables; e != nil && c.fresh(e.at) {
		c.mu.Unlock()
		return e.value
	}
	c.mu.Unlock()
	var names []string
	err := c.read(ctx, func(b backend.Backend) error {
		var err error
		names, err = b.ListTables(ctx)
		return err
	})
	if err != nil {
		return nil
	}
	c.mu.Lock()
	c.tables = &entry[[]string]{names, c.now()}
	c.mu.Unlock()
	return names
}

// Properties implements Source: the names and types in the first
// SampleSize entities of the table.
func (c *Cache) Properties(ctx context.Context, table string) []Property {
	key := strings.ToLower(table)
	c.mu.Lock()
	if e := c.props[key]; e != nil && c.fresh(e.at) {
		c.mu.Unlock()
		return e.value
	}
	c.mu.Unlock()
	seen := map[string]map[odata.EdmType]bool{}
	err := c.read(ctx, func(b backend.Backend) error {
		_, err := b.Query(ctx, table, backend.QueryRequest{PageSize: SampleSize}, func(e *odata.Entity) error {
			for _, p := range e.Properties {
				ts := seen[p.Name]
				if ts == nil {
					ts = map[odata.EdmType]bool{}
					seen[p.Name] = ts
				}
				ts[p.Value.Type] = true
			}
			return nil
		})
		return err
	})
	if err != nil {
		return nil
	}
	props := make([]Property, 0, len(seen))
	for name, ts := range seen {
		p := Property{Name: name}
		for t := range ts {
			p.Types = append(p.Types, t)
		}
		sort.Slice(p.Types, func(i, j int) bool { return p.Types[i] < p.Types[j] })
		props = append(props, p)
	}
	sort.Slice(props, func(i, j int) bool { return props[i].Name < props[j].Name })
	c.mu.Lock()
	c.props[key] = &entry[[]Property]{props, c.now()}
	c.mu.Unlock()
	return props
}

// PartitionKeys implements Source. It reads one entity per partition,
// jumping from each partition to the next, so a large partition costs no
// more than a small one.
func (c *Cache) PartitionKeys(ctx context.Context, table, prefix string) []string {
	key := strings.ToLower(table) + "\x00" + prefix
	c.mu.Lock()
	if e := c.pks[key]; e != nil && c.fresh(e.at) {
		c.mu.Unlock()
		return e.value
	}
	c.mu.Unlock()
	var pks []string
	err := c.read(ctx, func(b backend.Backend) error {
		// Each step asks for the first entity past the last partition seen,
		// as a filter, so that the service answers it the same way.
		cond := "PartitionKey ge " + odata.Quote(prefix)
		for len(pks) < MaxPartitionKeys {
			flt, err := odata.ParseFilter(cond)
			if err != nil {
				return err
			}
			var got *odata.Entity
			q := odata.Query{Filter: flt, Select: []string{odata.PartitionKey}, Top: 1}
			if _, err := b.Query(ctx, table, backend.QueryRequest{PageSize: 1, Query: q}, func(e *odata.Entity) error {
				got = e
				return nil
			}); err != nil {
				return err
			}
			if got == nil || !strings.HasPrefix(got.PartitionKey, prefix) {
				return nil
			}
			pks = append(pks, got.PartitionKey)
			cond = "PartitionKey gt " + odata.Quote(got.PartitionKey)
		}
		return nil
	})
	if err != nil && len(pks) == 0 {
		return nil
	}
	c.mu.Lock()
	c.pks[key] = &entry[[]string]{pks, c.now()}
	c.mu.Unlock()
	return pks
}

// RowKeys implements Source: one query for the first RowKeys from prefix
// on in the partition.
func (c *Cache) RowKeys(ctx context.Context, table, pk, prefix string) []string {
	key := strings.ToLower(table) + "\x00" + pk + "\x00" + prefix
	c.mu.Lock()
	if e := c.rks[key]; e != nil && c.fresh(e.at) {
		c.mu.Unlock()
		return e.value
	}
	c.mu.Unlock()
	var rks []string
	err := c.read(ctx, func(b backend.Backend) error {
		flt, err := odata.ParseFilter("PartitionKey eq " + odata.Quote(pk) + " and RowKey ge " + odata.Quote(prefix))
		if err != nil {
			return err
		}
		q := odata.Query{Filter: flt, Select: []string{odata.RowKey}, Top: MaxPartitionKeys}
		_, err = b.Query(ctx, table, backend.QueryRequest{PageSize: MaxPartitionKeys, Query: q}, func(e *odata.Entity) error {
			if strings.HasPrefix(e.RowKey, prefix) {
				rks = append(rks, e.RowKey)
			}
			return nil
		})
		return err
	})
	if err != nil {
		return nil
	}
	c.mu.Lock()
	c.rks[key] = &entry[[]string]{rks, c.now()}
	c.mu.Unlock()
	return rks
}
