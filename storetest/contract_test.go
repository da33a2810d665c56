package storetest

import (
	"path/filepath"
	"testing"

	"github.com/tstable/tstable/remote"
	"github.com/tstable/tstable/store"
)

func TestContractLocal(t *testing.T) {
	path := filepath.Join(t.TempDir(), "t.db")
	Run(t, "Local", func(t *testing.T) store.Backend {
		db, err := store.Open(path, nil)
		if err != nil {
			t.Fatal(err)
		}
		t.Cleanup(func() { db.Close() })
		return db
	})
}

func TestContractAzurite(t *testing.T) {
	NeedRemote(t)
	cs := StartAzurite(t)
	Run(t, "Remote", func(t *testing.T) store.Backend {
		b, err := remote.Open(remote.Config{ConnectionString: cs})
		if err != nil {
			t.Fatal(err)
		}
		return b
	})
}
