package cmd

import (
	"context"
	"fmt"
	"os"

	"github.com/tstable/tstable/remote"
	"github.com/tstable/tstable/store"
)

// Environment variables that choose the backend.
const (
	envConnectionString = "AZURE_STORAGE_CONNECTION_STRING"
	envDB               = "TSTABLE_DB"
)

// remoteConfig returns the remote account the global flags and environment
// choose, or nil for the local database. --db with --connection-string (or
// --account-url) is a usage error; a flag beats the environment; when
// TSTABLE_DB and AZURE_STORAGE_CONNECTION_STRING are both set and no flag
// decides, that is a usage error too.
func (f *Factory) remoteConfig() (*remote.Config, error) {
	remoteFlag := f.connFlag != "" || f.accountURLFlag != ""
	if f.dbFlag != "" && remoteFlag {
		return nil, &usageError{msg: "--db chooses the local database and --connection-string/--account-url a remote account; give one of them", path: "tstable"}
	}
	if f.connFlag != "" && f.accountURLFlag != "" {
		return nil, &usageError{msg: "give --connection-string or --account-url, not both", path: "tstable"}
	}
	switch {
	case f.connFlag != "":
		return &remote.Config{ConnectionString: f.connFlag}, nil
	case f.accountURLFlag != "":
		return &remote.Config{AccountURL: f.accountURLFlag}, nil
	case f.dbFlag != "":
		return nil, nil
	}
	cs := os.Getenv(envConnectionString)
	if cs == "" {
		return nil, nil
	}
	if os.Getenv(envDB) != "" {
		return nil, &usageError{msg: "both " + envDB + " and " + envConnectionString + " are set; choose with --db or --connection-string", path: "tstable"}
	}
	return &remote.Config{ConnectionString: cs}, nil
}

// openRemote connects to the account, runs fn and closes it.
func (f *Factory) withRemote(ctx context.Context, cfg *remote.Config, fn func(store.Backend) error) error {
	b, err := remote.Open(*cfg)
	if err != nil {
		return err
	}
	defer b.Close()
	return fn(b)
}

// BackendLabel names the storage in use for people: "local PATH" or
// "remote ACCOUNT (ENDPOINT)". It never contains a secret.
func (f *Factory) BackendLabel() string {
	cfg, err := f.remoteConfig()
	if err != nil || cfg == nil {
		return "local " + f.DBPath()
	}
	b, err := remote.Open(*cfg)
	if err != nil {
		return "remote (" + remote.Scrub(err.Error()) + ")"
	}
	return b.Describe()
}

// remoteAccount is the account's name for the shell's prompt, or "".
func (f *Factory) remoteAccount() string {
	cfg, err := f.remoteConfig()
	if err != nil || cfg == nil {
		return ""
	}
	b, err := remote.Open(*cfg)
	if err != nil {
		return "remote"
	}
	return fmt.Sprintf("remote %s", b.Account())
}
