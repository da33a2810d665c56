package cmd

import (
	"os"
	"path/filepath"

	"github.com/tstable/tstable/appdirs"
	"github.com/tstable/tstable/cmdspec"
	"github.com/tstable/tstable/odata"
	"github.com/tstable/tstable/remote"
	"github.com/tstable/tstable/server"
)

// Environment variables that choose the storage.
const (
	envConnectionString = "AZURE_STORAGE_CONNECTION_STRING"
	envDB               = "TSTABLE_DB"
	envWait             = "TSTABLE_WAIT"
)

// Target is where one run's storage is: a local database file, or a
// remote account when Remote is set.
type Target struct {
	Path   string
	Remote *remote.Config
	// Served is the URL of the tstable serve that holds the local file
	// Path; then Remote reaches the file through it.
	Served string
	// Named is set when --db or $TSTABLE_DB named Path, not the default:
	// then a file that is not there is not taken for one not made yet
	// (see Factory.needDatabase), nor is its folder made.
	Named bool
}

// IsRemote reports whether the target is a remote account.
func (t Target) IsRemote() bool { return t.Remote != nil }

// continuationKind is the kind of continuation token queries on t page
// by: the store's keys for a local file, served or not (so a token goes
// on across a server's start and stop), a service's own otherwise.
func (t Target) continuationKind() odata.ContinuationKind {
	if t.Remote == nil || t.Served != "" {
		return odata.KeyContinuation
	}
	return odata.ServiceContinuation
}

// describeKind says where tokens of a kind come from, for an error.
func describeKind(k odata.ContinuationKind) string {
	if k == odata.KeyContinuation {
		return "a local database file (served by tstable serve or not)"
	}
	return "a remote service (Azure Table Storage, Azurite or Cosmos DB), which alone understands it"
}

// Label names the target for people without opening it and without any
// secret: "local /abs/path/to.db" or "remote ACCOUNT (ENDPOINT)".
func (t Target) Label() string {
	if t.Remote == nil {
		return "local " + absPath(t.Path)
	}
	if t.Served != "" {
		return "local " + absPath(t.Path) + " (served at " + t.Served + ")"
	}
	account, endpoint, err := t.Remote.Where()
	if err != nil {
		return "remote (" + remote.Scrub(err.Error()) + ")"
	}
	return "remote " + account + " (" + endpoint + ")"
}

// resolveTarget decides the target from the global flags and the
// environment: --db, --connection-string or --account-url (one of them),
// else $AZURE_STORAGE_CONNECTION_STRING, else $TSTABLE_DB or the default
// file. --db with a remote flag is a usage error, and so is setting both
// variables with no flag to decide.
func (g *globalFlags) resolveTarget() (Target, error) { return g.resolveHeld(nil) }

// resolveHeld is resolveTarget in a shell that keeps a file open (kept,
// or nil): the file it holds is known to be served by no tstable serve
// without looking (see localTarget).
func (g *globalFlags) resolveHeld(kept *keptDB) (Target, error) {
	remoteFlag := g.conn != "" || g.accountURL != ""
	switch {
	case g.db != "" && remoteFlag:
		return Target{}, cmdspec.Usagef("tstable", "--db chooses the local database and --connection-string/--account-url a remote account; give one of them")
	case g.conn != "" && g.accountURL != "":
		return Target{}, cmdspec.Usagef("tstable", "give --connection-string or --account-url, not both")
	case g.conn != "":
		return Target{Remote: &remote.Config{ConnectionString: g.conn}}, nil
	case g.accountURL != "":
		return Target{Remote: &remote.Config{AccountURL: g.accountURL}}, nil
	case g.db != "":
		return namedTarget(g.db, kept), nil
	}
	if cs := os.Getenv(envConnectionString); cs != "" {
		if os.Getenv(envDB) != "" {
			return Target{}, cmdspec.Usagef("tstable", "both %s and %s are set; choose with --db or --connection-string", envDB, envConnectionString)
		}
		return Target{Remote: &remote.Config{ConnectionString: cs}}, nil
	}
	if p := os.Getenv(envDB); p != "" {
		return namedTarget(p, kept), nil
	}
	return localTarget(defaultDBPath(), kept), nil
}

// localTarget is the database file at path — reached through the tstable
// serve that holds it, when one does, so that the file's users never see
// it locked by the server. A file the shell holds open (kept) is served
// by none: a server holds its file locked for writing from before it
// names itself beside it until it stops, and the shell's lock on the file
// excludes that; so the address file is not read again on every line.
func localTarget(path string, kept *keptDB) Target {
	if kept.holds(path) {
		return Target{Path: path}
	}
	if s, ok := server.ServedAt(path); ok {
		return Target{Path: path, Remote: &remote.Config{ConnectionString: s.ConnectionString, TrustCertFile: s.CertFile, Served: true}, Served: s.URL}
	}
	return Target{Path: path}
}

// namedTarget is localTarget for a path --db or $TSTABLE_DB named.
func namedTarget(path string, kept *keptDB) Target {
	t := localTarget(path, kept)
	t.Named = true
	return t
}

// defaultDBPath is tstable.db in tstable's data folder (appdirs.Data), else
// in the current folder.
func defaultDBPath() string {
	d, err := appdirs.Data()
	if err != nil {
		return "tstable.db"
	}
	return filepath.Join(d, "tstable.db")
}

func absPath(p string) string {
	if a, err := filepath.Abs(p); err == nil {
		return a
	}
	return p
}
