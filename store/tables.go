package store

import (
	"context"
	"sort"
	"strings"

	"github.com/tstable/tstable/odata"
	"github.com/tstable/tstable/store/internal/values"
)

// CreateTable creates an empty table. Names are unique regardless of case;
// the case given here is kept.
func (db *DB) CreateTable(ctx context.Context, name string) error {
	if err := odata.ValidateTableName(name); err != nil {
		return err
	}
	return db.do(true, func(o *op) error {
		return o.update(func(t *gtx) error {
			cat, err := t.catalogue()
			if err != nil {
				return err
			}
			lower := []byte(strings.ToLower(name))
			if existing, err := cat.get(lower); err != nil || existing != nil {
				if err == nil {
					err = odata.Errorf(odata.CodeTableAlreadyExists, "table %q already exists (as %q)", name, string(existing))
				}
				return err
			}
			b, err := t.createTop(values.TableBucket(name))
			if err != nil {
				return err
			}
			if t.layout().Mapped() {
				if err := newIncarnation(t, b); err != nil {
					return err
				}
			}
			return cat.put(lower, []byte(name))
		})
	})
}

// DeleteTable drops a table and all its entities in one transaction. Like
// the service, a missing table answers ResourceNotFound.
func (db *DB) DeleteTable(ctx context.Context, name string) error {
	return db.do(true, func(o *op) error {
		return o.update(func(t *gtx) error {
			cat, err := t.catalogue()
			if err != nil {
				return err
			}
			lower := []byte(strings.ToLower(name))
			if v, err := cat.get(lower); err != nil || v == nil {
				if err == nil {
					err = odata.Errorf(odata.CodeResourceNotFound, "table %q does not exist", name)
				}
				return err
			}
			if err := t.deleteTable(values.TableBucket(name)); err != nil {
				return err
			}
			return cat.del(lower)
		})
	})
}

// ListTables returns the table names as created, sorted case-insensitively.
func (db *DB) ListTables(ctx context.Context) ([]string, error) {
	var names []string
	err := db.do(false, func(o *op) error {
		names = names[:0]
		return o.view(func(t *gtx) error {
			if m, err := t.top(values.MetaBucket); err != nil || m == nil {
				return err // none: a new file opened for reading, with no tables yet
			}
			cat, err := t.catalogue()
			if err != nil {
				return err
			}
			return cat.forEach(func(_, v []byte) error {
				names = append(names, string(v))
				return nil
			})
		})
	})
	sort.Slice(names, func(i, j int) bool { return strings.ToLower(names[i]) < strings.ToLower(names[j]) })
	return names, err
}
