package cmd

import (
	"fmt"
	"io"
	"net"
	"os"
	"path/filepath"
	"strconv"
	"strings"

	"github.com/spf13/cobra"
	"github.com/tstable/tstable/server"
)

// envAzuriteAccounts names the accounts Azurite serves, and serve with it:
// name:key1[:key2];name:key1[:key2];…
const envAzuriteAccounts = "AZURITE_ACCOUNTS"

// locationFile is the database file in the folder of -l/--location.
const locationFile = "tstable.db"

// azuriteFlags are the options of azurite-table that serve takes, with
// their meaning, so that a script starting Azurite's table service starts
// tstable unchanged.
type azuriteFlags struct {
	tableHost, tablePort, location, debugFile, pwd string
	inMemory, silent, loose, skipAPIVersionCheck   bool
	disableProductStyleURL, disableTelemetry       bool
}

// bind declares the options on c.
func (az *azuriteFlags) bind(c *cobra.Command) {
	fs := c.Flags()
	fs.StringVar(&az.tableHost, "tableHost", "", "Azurite's: the `host` to listen on (default 127.0.0.1); with --tablePort, instead of --addr")
	fs.StringVar(&az.tablePort, "tablePort", "", "Azurite's: the `port` to listen on (default 10002; 0 picks a free one)")
	fs.StringVarP(&az.location, "location", "l", "", "Azurite's: keep the database in `DIR` (DIR/"+locationFile+", made when missing), instead of --db")
	fs.BoolVar(&az.inMemory, "inMemoryPersistence", false, "Azurite's: start empty and keep nothing after the server stops (a file in memory, /dev/shm where there is one, removed at exit)")
	fs.BoolVarP(&az.silent, "silent", "s", false, "Azurite's: no line on standard error for each query")
	fs.StringVarP(&az.debugFile, "debug", "d", "", "Azurite's: also write each query's line to `FILE` (appended)")
	fs.StringVar(&az.pwd, "pwd", "", "Azurite's: the `password` of a PFX (PKCS #12) certificate given with --cert, which then needs no --key")
	fs.BoolVarP(&az.loose, "loose", "L", false, "Azurite's: accepted; tstable already ignores headers and parameters it does not use, as the service does")
	fs.BoolVar(&az.skipAPIVersionCheck, "skipApiVersionCheck", false, "Azurite's: take any x-ms-version (else one the service would refuse is refused)")
	fs.BoolVar(&az.disableProductStyleURL, "disableProductStyleUrl", false, "Azurite's: accepted; tstable serves path-style URLs only (http://HOST:PORT/ACCOUNT/...)")
	fs.BoolVar(&az.disableTelemetry, "disableTelemetry", false, "Azurite's: accepted; tstable sends no telemetry")
}

// addr is the address to listen on: --addr, or --tableHost and --tablePort
// with Azurite's defaults for the one not given.
func (az azuriteFlags) addr(c *cobra.Command, addr string) (string, error) {
	if az.tableHost == "" && az.tablePort == "" {
		return addr, nil
	}
	if c.Flags().Changed("addr") {
		return "", usageErrorf(c, "--addr and --tableHost/--tablePort say the same: give one or the other")
	}
	host, port := az.tableHost, az.tablePort
	if host == "" {
		host = "127.0.0.1"
	}
	if port == "" {
		port = "10002"
	}
	if n, err := strconv.Atoi(port); err != nil || n < 0 || n > 65535 {
		return "", usageErrorf(c, "--tablePort %q is not a port: give a number from 0 to 65535", port)
	}
	return net.JoinHostPort(host, port), nil
}

// dbPath is the database to serve when -l or --inMemoryPersistence
// chooses it ("" when neither does: --db's), and what removes it at the
// end (for --inMemoryPersistence, the folder made for it).
func (az azuriteFlags) dbPath(c *cobra.Command) (path string, cleanup func(), err error) {
	nothing := func() {}
	switch {
	case az.location == "" && !az.inMemory:
		return "", nothing, nil
	case c.Flag("db").Changed || c.Flag("connection-string").Changed || c.Flag("account-url").Changed:
		return "", nothing, usageErrorf(c, "--location and --inMemoryPersistence choose the database: leave out --db (and a remote account)")
	case az.location != "" && az.inMemory:
		return "", nothing, usageErrorf(c, "--location keeps the database in a folder, --inMemoryPersistence keeps nothing: give one or the other")
	case az.location != "":
		if err := os.MkdirAll(az.location, 0o755); err != nil {
			return "", nothing, fmt.Errorf("cannot make the folder of --location %s: %w", az.location, err)
		}
		return filepath.Join(az.location, locationFile), nothing, nil
	}
	dir, err := os.MkdirTemp(memoryDir(), "tstable-inmemory-")
	if err != nil {
		return "", nothing, fmt.Errorf("cannot make a folder for --inMemoryPersistence in %s: %w", memoryDir(), err)
	}
	return filepath.Join(dir, locationFile), func() { os.RemoveAll(dir) }, nil
}

// memoryDir is where --inMemoryPersistence keeps its file: /dev/shm, a
// file system in memory, where the system has it; else the temporary
// folder (the file is removed at exit either way).
func memoryDir() string {
	if st, err := os.Stat("/dev/shm"); err == nil && st.IsDir() {
		if f, err := os.CreateTemp("/dev/shm", ".tstable-probe-"); err == nil {
			f.Close()
			os.Remove(f.Name())
			return "/dev/shm"
		}
	}
	return os.TempDir()
}

// notes says, once, what the options that mean nothing to tstable do.
func (az azuriteFlags) notes(w io.Writer) {
	if az.loose {
		fmt.Fprintln(w, "--loose: accepted; tstable has no strict mode to relax: it ignores headers and query parameters it does not use, as the service does (what it still refuses, the service refuses too)")
	}
	if az.disableProductStyleURL {
		fmt.Fprintln(w, "--disableProductStyleUrl: accepted; tstable serves path-style URLs only, so the account is always the path's first segment")
	}
	if az.disableTelemetry {
		fmt.Fprintln(w, "--disableTelemetry: accepted; tstable sends no telemetry")
	}
}

// azuriteAccount is one account of AZURITE_ACCOUNTS.
type azuriteAccount struct {
	name string
	keys []string
}

// parseAzuriteAccounts reads AZURITE_ACCOUNTS: name:key1[:key2] entries
// separated by semicolons, as Azurite reads it.
func parseAzuriteAccounts(v string) ([]azuriteAccount, error) {
	var accounts []azuriteAccount
	seen := map[string]bool{}
	for _, entry := range strings.Split(v, ";") {
		entry = strings.TrimSpace(entry)
		if entry == "" {
			continue
		}
		parts := strings.Split(entry, ":")
		name := parts[0]
		if !validAccountName(name) {
			return nil, fmt.Errorf("%s: account name %q is not valid: 3 to 24 lower-case letters and digits, as the service's", envAzuriteAccounts, name)
		}
		if seen[name] {
			return nil, fmt.Errorf("%s names account %s twice: give each account once, with its keys", envAzuriteAccounts, name)
		}
		seen[name] = true
		keys := parts[1:]
		if len(keys) == 0 || len(keys) > 2 || slicesHasEmpty(keys) {
			return nil, fmt.Errorf("%s: account %s needs one or two keys, as name:key1[:key2]", envAzuriteAccounts, name)
		}
		accounts = append(accounts, azuriteAccount{name: name, keys: keys})
	}
	if len(accounts) == 0 {
		return nil, fmt.Errorf("%s names no account: give name:key1[:key2];…, or unset it", envAzuriteAccounts)
	}
	return accounts, nil
}

func slicesHasEmpty(s []string) bool {
	for _, v := range s {
		if v == "" {
			return true
		}
	}
	return false
}

// validAccountName applies the service's rule for account names.
func validAccountName(name string) bool {
	if len(name) < 3 || len(name) > 24 {
		return false
	}
	for _, c := range name {
		if (c < 'a' || c > 'z') && (c < '0' || c > '9') {
			return false
		}
	}
	return true
}

// serveAccounts sets cfg's accounts from AZURITE_ACCOUNTS: the first is
// the account of the address file and of the plain table names, the
// others are served beside it, each with its own tables.
func (fl serveFlags) serveAccounts(c *cobra.Command, env string, cfg *server.Config) error {
	if fl.account != "" || fl.accountKey != "" {
		return usageErrorf(c, "%s and --account/--account-key both name the account: use one or the other", envAzuriteAccounts)
	}
	accounts, err := parseAzuriteAccounts(env)
	if err != nil {
		return usageErrorf(c, "%v", err)
	}
	for i, a := range accounts {
		authz, err := fl.accountAuthorizer(c, envAzuriteAccounts+": account "+a.name, a.name, a.keys)
		if err != nil {
			return err
		}
		if i == 0 {
			cfg.Account, cfg.Key, cfg.Authorizer = a.name, a.keys[0], authz
			continue
		}
		cfg.Accounts = append(cfg.Accounts, server.Account{Name: a.name, Key: a.keys[0], Authorizer: authz})
	}
	return nil
}
