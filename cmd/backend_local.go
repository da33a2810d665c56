package cmd

import "github.com/tstable/tstable/store"

// The command line's storage is the local bbolt file.
func init() {
	openBackend = func(path string, readOnly bool) (store.Backend, error) {
		db, err := store.Open(path, &store.Options{ReadOnly: readOnly})
		if err != nil {
			return nil, err
		}
		return db, nil
	}
}
