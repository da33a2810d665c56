package cmd

import (
	"errors"
	"io/fs"
	"os"

	"github.com/spf13/cobra"
	"github.com/tstable/tstable/backend"
	"github.com/tstable/tstable/odata"
)

// localFile is the database file a check or recover reads: the argument,
// else this run's local target.
func (f *Factory) localFile(c *cobra.Command, args []string) (string, error) {
	if len(args) > 0 {
		return args[0], databaseFile(args[0], c.Name())
	}
	t, err := f.Target()
	if err != nil {
		return "", err
	}
	if t.Served != "" {
		return "", odata.Errorf(odata.CodeDatabaseLocked, "database %s is held by tstable serve at %s: stop the server, then %s it", t.Path, t.Served, c.Name())
	}
	if t.IsRemote() {
		return "", usageErrorf(c, "%s reads a local database file; the service keeps its own storage", c.Name())
	}
	return t.Path, databaseFile(t.Path, c.Name())
}

// databaseFile refuses, for a command that reads a database file itself
// (what: check, recover, compact), a path where there is none.
func databaseFile(path, what string) error {
	st, err := os.Stat(path)
	switch {
	case errors.Is(err, fs.ErrNotExist):
		return odata.Errorf(odata.CodeResourceNotFound, "there is no database at %s to %s%s", path, what, closestDatabase(path))
	case err != nil:
		return backend.FileError(err, "cannot read database %s", path)
	case st.IsDir():
		return odata.Errorf(odata.CodeInvalidInput, "%s is a folder, not a database file: name the file to %s", path, what)
	}
	return nil
}
