package store

import (
	"context"
	"sort"
	"strings"

	"github.com/tstable/tstable/odata"
	bolt "go.etcd.io/bbolt"
)

func tableBucketName(name string) []byte { return []byte(tablePrefix + strings.ToLower(name)) }

// tableBucket returns the table's bucket, or TableNotFound.
func tableBucket(tx *bolt.Tx, name string) (*bolt.Bucket, error) {
	if b := tx.Bucket(tableBucketName(name)); b != nil {
		return b, nil
	}
	return nil, odata.Errorf(odata.CodeTableNotFound, "table %q does not exist (tstable table list shows the tables)", name)
}

func catalogue(tx *bolt.Tx) *bolt.Bucket {
	if m := tx.Bucket(metaBucket); m != nil {
		return m.Bucket(catalogueKey)
	}
	return nil
}

// CreateTable creates an empty table. Names are unique regardless of case;
// the case given here is kept.
func (db *DB) CreateTable(ctx context.Context, name string) error {
	if err := odata.ValidateTableName(name); err != nil {
		return err
	}
	return db.bolt.Update(func(tx *bolt.Tx) error {
		cat := catalogue(tx)
		lower := strings.ToLower(name)
		if existing := cat.Get([]byte(lower)); existing != nil {
			return odata.Errorf(odata.CodeTableAlreadyExists, "table %q already exists (as %q)", name, string(existing))
		}
		if _, err := tx.CreateBucket(tableBucketName(name)); err != nil {
			return err
		}
		return cat.Put([]byte(lower), []byte(name))
	})
}

// DeleteTable drops a table and all its entities in one transaction. Like
// the service, a missing table answers ResourceNotFound.
func (db *DB) DeleteTable(ctx context.Context, name string) error {
	return db.bolt.Update(func(tx *bolt.Tx) error {
		cat := catalogue(tx)
		lower := []byte(strings.ToLower(name))
		if cat.Get(lower) == nil {
			return odata.Errorf(odata.CodeResourceNotFound, "table %q does not exist", name)
		}
		if err := tx.DeleteBucket(tableBucketName(name)); err != nil {
			return err
		}
		return cat.Delete(lower)
	})
}

// ListTables returns the table names as created, sorted case-insensitively.
func (db *DB) ListTables(ctx context.Context) ([]string, error) {
	var names []string
	err := db.bolt.View(func(tx *bolt.Tx) error {
		cat := catalogue(tx)
		if cat == nil {
			return nil
		}
		return cat.ForEach(func(_, v []byte) error {
			names = append(names, string(v))
			return nil
		})
	})
	sort.Slice(names, func(i, j int) bool { return strings.ToLower(names[i]) < strings.ToLower(names[j]) })
	return names, err
}
