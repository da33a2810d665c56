package storetest

import (
	"path/filepath"
	"testing"

	"github.com/tstable/tstable/backend"
	"github.com/tstable/tstable/remote"
	"github.com/tstable/tstable/store"
	"github.com/tstable/tstable/tstabletest"
)

func TestContractLocal(t *testing.T) {
	path := filepath.Join(t.TempDir(), "t.db")
	Run(t, "Local", func(t *testing.T) backend.Backend {
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
	Run(t, "Remote", func(t *testing.T) backend.Backend {
		b, err := remote.Open(remote.Config{ConnectionString: cs})
		if err != nil {
			t.Fatal(err)
		}
		return b
	})
}

// The contract through the Azure SDK for Go against tstable serve, started
// in-process: the remote backend over HTTP must behave as the local store.
func TestContractServe(t *testing.T) {
	s := tstabletest.NewServer(t)
	Run(t, "Serve", func(t *testing.T) backend.Backend {
		b, err := remote.Open(remote.Config{ConnectionString: s.ConnectionString()})
		if err != nil {
			t.Fatal(err)
		}
		return b
	})
}
