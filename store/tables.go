package store

import (
	"context"
	"sort"
	"strings"

	"github.com/tstable/tstable/odata"
	bolt "go.etcd.io/bbolt"
)

func tableBucketName(name string) []byte { return []byte(tablePrefix + strings.ToLower(name)) }

// table returns the table's bucket, or TableNotFound.
func (o *op) table(tx *bolt.Tx, name string) (*bolt.Bucket, error) {
	bn := tableBucketName(name)
	if err := o.guardRoot(tx, bn); err != nil {
		return nil, err
	}
	if b := tx.Bucket(bn); b != nil {
		return b, nil
	}
	return nil, odata.Errorf(odata.CodeTableNotFound, "table %q does not exist (tstable table list shows the tables)", name)
}

// meta returns the bucket of the file's own records (catalogue, clock).
func (o *op) meta(tx *bolt.Tx) (*bolt.Bucket, error) {
	if err := o.guardRoot(tx, metaBucket); err != nil {
		return nil, err
	}
	m := tx.Bucket(metaBucket)
	if m == nil {
		return nil, o.noCatalogue()
	}
	return m, o.guardAll(tx, m)
}

// catalogue returns the table catalogue: lower-cased name → name as created.
func (o *op) catalogue(tx *bolt.Tx) (*bolt.Bucket, error) {
	m, err := o.meta(tx)
	if err != nil {
		return nil, err
	}
	c := m.Bucket(catalogueKey)
	if c == nil {
		return nil, o.noCatalogue()
	}
	return c, o.guardAll(tx, c)
}

func (o *op) noCatalogue() error {
	p := o.db.path
	return odata.Errorf(odata.CodeDatabaseDamaged, "database %s has no table catalogue: it was not written by tstable, or it is damaged (tstable check %s tells which)", p, p)
}

// CreateTable creates an empty table. Names are unique regardless of case;
// the case given here is kept.
func (db *DB) CreateTable(ctx context.Context, name string) error {
	if err := odata.ValidateTableName(name); err != nil {
		return err
	}
	return db.do(true, func(o *op) error {
		return o.update(func(tx *bolt.Tx) error {
			cat, err := o.catalogue(tx)
			if err != nil {
				return err
			}
			lower := strings.ToLower(name)
			if existing := cat.Get([]byte(lower)); existing != nil {
				return odata.Errorf(odata.CodeTableAlreadyExists, "table %q already exists (as %q)", name, string(existing))
			}
			bn := tableBucketName(name)
			if err := o.guardRoot(tx, bn); err != nil {
				return err
			}
			if _, err := tx.CreateBucket(bn); err != nil {
				return err
			}
			return cat.Put([]byte(lower), []byte(name))
		})
	})
}

// DeleteTable drops a table and all its entities in one transaction. Like
// the service, a missing table answers ResourceNotFound.
func (db *DB) DeleteTable(ctx context.Context, name string) error {
	return db.do(true, func(o *op) error {
		return o.update(func(tx *bolt.Tx) error {
			cat, err := o.catalogue(tx)
			if err != nil {
				return err
			}
			lower := []byte(strings.ToLower(name))
			if cat.Get(lower) == nil {
				return odata.Errorf(odata.CodeResourceNotFound, "table %q does not exist", name)
			}
			if b, err := o.table(tx, name); err == nil {
				// Dropping a bucket frees every page of its tree.
				if err := o.guardAll(tx, b); err != nil {
					return err
				}
				if err := tx.DeleteBucket(tableBucketName(name)); err != nil {
					return err
				}
			} else if !odata.IsCode(err, odata.CodeTableNotFound) {
				return err
			}
			return cat.Delete(lower)
		})
	})
}

// ListTables returns the table names as created, sorted case-insensitively.
func (db *DB) ListTables(ctx context.Context) ([]string, error) {
	var names []string
	err := db.do(false, func(o *op) error {
		return o.view(func(tx *bolt.Tx) error {
			if err := o.guardRoot(tx, metaBucket); err != nil {
				return err
			}
			if tx.Bucket(metaBucket) == nil {
				return nil // a new file opened for reading: no tables yet
			}
			cat, err := o.catalogue(tx)
			if err != nil {
				return err
			}
			return cat.ForEach(func(_, v []byte) error {
				names = append(names, string(v))
				return nil
			})
		})
	})
	sort.Slice(names, func(i, j int) bool { return strings.ToLower(names[i]) < strings.ToLower(names[j]) })
	return names, err
}
