package cmd

import (
	"context"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"

	"github.com/spf13/cobra"
	"github.com/tstable/tstable/iostreams"
	"github.com/tstable/tstable/odata"
	"github.com/tstable/tstable/store"
)

// Factory is what every command of one tree shares: its streams, the
// global flags, and the way to reach storage. Commands open the backend
// per run and close it when they end, so the shell never holds the
// database's lock between commands.
type Factory struct {
	IO *iostreams.IOStreams

	dbFlag         string
	outputFlag     string
	connFlag       string
	accountURLFlag string
}

// Opener opens the storage at path. readOnly opens an existing file for
// reading only, so that several readers can share it.
type Opener func(path string, readOnly bool) (store.Backend, error)

// openBackend opens the local database; backend_local.go sets it to the
// bbolt store. Tests may replace it.
var openBackend Opener

// DBPath returns the database file: --db, else $TSTABLE_DB, else
// $XDG_DATA_HOME/tstable/tstable.db, else ~/.local/share/tstable/tstable.db.
func (f *Factory) DBPath() string {
	if f.dbFlag != "" {
		return f.dbFlag
	}
	if p := os.Getenv("TSTABLE_DB"); p != "" {
		return p
	}
	return defaultDBPath()
}

func defaultDBPath() string {
	if d := os.Getenv("XDG_DATA_HOME"); d != "" && filepath.IsAbs(d) {
		return filepath.Join(d, "tstable", "tstable.db")
	}
	home, err := os.UserHomeDir()
	if err != nil {
		return filepath.Join(".", "tstable.db")
	}
	return filepath.Join(home, ".local", "share", "tstable", "tstable.db")
}

// displayDefaultDB is the default as help shows it.
func displayDefaultDB() string {
	return "$XDG_DATA_HOME/tstable/tstable.db or ~/.local/share/tstable/tstable.db"
}

// Output formats.
const (
	FormatTable = "table"
	FormatJSON  = "json"
	FormatJSONL = "jsonl"
	FormatCSV   = "csv"
)

// Format returns the output format: -o when given (checked), else table
// when standard output is a terminal and jsonl when it is not.
func (f *Factory) Format(c *cobra.Command) (string, error) {
	switch f.outputFlag {
	case "":
		if f.IO.OutTTY {
			return FormatTable, nil
		}
		return FormatJSONL, nil
	case FormatTable, FormatJSON, FormatJSONL, FormatCSV:
		return f.outputFlag, nil
	}
	return "", usageErrorf(c, "unknown output format %q; use table, json, jsonl or csv", f.outputFlag)
}

// errNoDatabase is returned by Read when the database file does not exist.
var errNoDatabase = errors.New("no database file")

// Read opens the database read-only, runs fn and closes it. When the file
// does not exist, it returns a TableNotFound error naming table (or
// errNoDatabase when table is "").
func (f *Factory) Read(ctx context.Context, table string, fn func(store.Backend) error) error {
	if cfg, err := f.remoteConfig(); err != nil || cfg != nil {
		if err != nil {
			return err
		}
		return f.withRemote(ctx, cfg, fn)
	}
	path := f.DBPath()
	if _, err := os.Stat(path); errors.Is(err, fs.ErrNotExist) {
		if table == "" {
			return errNoDatabase
		}
		return f.mustExist(table)
	}
	return f.with(path, true, fn)
}

// mustExist returns Read's TableNotFound error when there is no database
// file, without opening it: a delete needs no new file.
func (f *Factory) mustExist(table string) error {
	if cfg, err := f.remoteConfig(); err != nil || cfg != nil {
		return err
	}
	path := f.DBPath()
	if _, err := os.Stat(path); errors.Is(err, fs.ErrNotExist) {
		return odata.Errorf(odata.CodeTableNotFound, "table %q does not exist: there is no database at %s yet (create the table with: tstable table create %s)", table, path, table)
	}
	return nil
}

// Write opens the database for writing (creating the file and its folder
// on first use), runs fn and closes it.
func (f *Factory) Write(ctx context.Context, fn func(store.Backend) error) error {
	if cfg, err := f.remoteConfig(); err != nil || cfg != nil {
		if err != nil {
			return err
		}
		return f.withRemote(ctx, cfg, fn)
	}
	path := f.DBPath()
	if dir := filepath.Dir(path); dir != "" {
		if err := os.MkdirAll(dir, 0o755); err != nil {
			return fmt.Errorf("cannot create the database folder: %w", err)
		}
	}
	return f.with(path, false, fn)
}

func (f *Factory) with(path string, readOnly bool, fn func(store.Backend) error) (err error) {
	if openBackend == nil {
		return errors.New("internal: this build has no local storage backend")
	}
	b, err := openBackend(path, readOnly)
	if err != nil {
		if odata.CodeOf(err) != "" {
			return err
		}
		return fmt.Errorf("cannot open the database %s: %w", path, err)
	}
	defer func() {
		if cerr := b.Close(); cerr != nil && err == nil {
			err = fmt.Errorf("closing the database %s: %w", path, cerr)
		}
	}()
	return fn(b)
}
