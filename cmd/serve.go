package cmd

import (
	"context"
	"fmt"
	"io"
	"os"
	"os/signal"
	"syscall"
	"time"

	"github.com/spf13/cobra"
	"github.com/tstable/tstable/backend"
	"github.com/tstable/tstable/cmdspec"
	"github.com/tstable/tstable/odata"
	"github.com/tstable/tstable/server"
	"github.com/tstable/tstable/server/auth"
)

// serveFlags are tstable serve's flags.
type serveFlags struct {
	addr, account, accountKey, logFile string
	noAuth, corsAnyOrigin              bool
	tls                                bool   // a self-signed certificate kept with tstable's state
	certFile, keyFile                  string // a certificate of the user's
	oauth                              string // "" or "basic"
	az                                 azuriteFlags
}

func newServeCmd(f *Factory) *cobra.Command {
	var fl serveFlags
	c := &cobra.Command{
		Use:   "serve",
		Short: "Serve the database over the Table service's REST API, for the Azure SDKs and Storage Explorer",
		Long: `Serve the database as the Azure Table service, path-style like the
emulators: http://ADDR/ACCOUNT/Tables, /ACCOUNT/TABLE(), /ACCOUNT/$batch.
The Azure SDKs, Storage Explorer and plain HTTP clients work against it
with the emulator's connection string; the connection string is printed at
start.

HTTPS: --tls serves it with a self-signed certificate for localhost,
127.0.0.1 and ::1, made on first use and kept in $XDG_STATE_HOME/tstable/tls
(~/.local/state/tstable/tls; on Windows %LOCALAPPDATA%\tstable\tls),
reused until it is about to expire (825 days, the longest macOS
trusts); --cert FILE --key FILE serve a PEM
certificate of your own instead. The server prints the certificate's path
(a line "certificate: PATH") and how to make Node.js, Python and the
system trust it; the URL and connection string it prints are https://.

The database stays open (and locked) while the server runs; its address is
written beside it (PATH.serve) and removed when the server stops: other
tstable commands on the same --db go through the server, over HTTPS too.
Ctrl-C or SIGTERM lets requests in flight finish, then closes the file.

Every query is explained as it is served: a line on standard error (table,
filter, query class, entities scanned and returned, time), and the headers
x-tstable-query-class, x-tstable-scanned and x-tstable-returned on the
response. --log FILE also writes those lines as JSON, one object a line,
which tstable advise TABLE --queries FILE reads.

Requests are authenticated as the service does it, with the account's key:
Shared Key and Shared Key Lite signatures (the SDKs sign with the key of
their connection string) and account and table SAS, over HTTP and HTTPS.
The account is devstoreaccount1 with the emulator's published key unless
--account and --account-key say otherwise; --no-auth allows every request.

CORS is answered as the service answers it: by the rules set with Set
Table Service Properties (the SDKs' setProperties, Storage Explorer's CORS
settings); with none, a browser's preflight is refused. For a browser app
on a local dev server, --cors-any-origin answers every origin, method and
header instead, whatever the rules.

Microsoft Entra ID tokens (a TokenCredential, DefaultAzureCredential):
--oauth basic, over HTTPS only, takes a bearer token that is a well-formed
JWT, within its exp and nbf (5 minutes' clock skew), for a storage audience
(https://storage.azure.com, its application id, the account's
ACCOUNT.table.core.windows.net or its URL on this server) and from an Entra
ID issuer (https://sts.windows.net/TENANT/ or
https://login.microsoftonline.com/TENANT/v2.0). Its SIGNATURE IS NOT
CHECKED (there is no network, and no identity provider's keys), nor its
tenant, scopes or roles: any such token grants the whole account, so this
is for running code written for Entra ID, not for security. Refused tokens
get the service's answers: 403 AuthenticationFailed, or from version
2019-12-12 on 401 InvalidAuthenticationInfo with a WWW-Authenticate bearer
challenge; a bearer token over plain HTTP is refused.

Azurite's table options are taken with their meaning, so that a script or
CI step starting azurite-table starts tstable unchanged: --tableHost and
--tablePort (for --addr), -l/--location DIR (the file DIR/tstable.db, for
--db), --inMemoryPersistence (a file in memory, removed when the server
stops, also on Ctrl-C or SIGTERM), -s/--silent (no line per query),
-d/--debug FILE (those lines also to FILE), --cert with --key or a PFX
with --pwd, --oauth basic, --skipApiVersionCheck (any x-ms-version);
--loose, --disableProductStyleUrl and --disableTelemetry are accepted
and said to mean nothing here. AZURITE_ACCOUNTS=name:key1[:key2];… serves
those accounts instead of devstoreaccount1, each with its keys and its own
tables in the one file: the first account's tables keep their names, the
others' are stored as xNNnameTABLE (NN the length of the account's name),
which is what tstable table list on the file shows.`,
		Example: `  tstable serve
  tstable serve --db orders.db --addr 127.0.0.1:10002 --log queries.jsonl
  tstable serve --tls --oauth basic        # https, for apps using a TokenCredential
  tstable serve --cert cert.pem --key key.pem
  tstable advise Orders --db orders.db --queries queries.jsonl
  tstable serve --tableHost 127.0.0.1 --tablePort 10002 --inMemoryPersistence -s   # as azurite-table`,
		RunE: func(c *cobra.Command, args []string) error { return runServe(c, f, fl) },
	}
	c.Flags().StringVar(&fl.addr, "addr", "127.0.0.1:10002", "`host:port` to listen on (port 0 picks a free one)")
	c.Flags().StringVar(&fl.account, "account", "", "account `name` in the paths (default devstoreaccount1)")
	c.Flags().StringVar(&fl.accountKey, "account-key", "", "the account's `base64` key (default the emulator's well-known key)")
	c.Flags().BoolVar(&fl.noAuth, "no-auth", false, "allow every request, signed or not")
	c.Flags().BoolVar(&fl.corsAnyOrigin, "cors-any-origin", false, "answer CORS for any origin, method and header, whatever the account's CORS rules (for a browser app on a local dev server)")
	c.Flags().StringVar(&fl.logFile, "log", "", "also write each query as a JSON line to `FILE` (for tstable advise --queries)")
	c.Flags().BoolVar(&fl.tls, "tls", false, "serve HTTPS with tstable's self-signed certificate for localhost, 127.0.0.1 and ::1")
	c.Flags().StringVar(&fl.certFile, "cert", "", "serve HTTPS with the PEM certificate in `FILE` (with --key), or a PFX (with --pwd)")
	c.Flags().StringVar(&fl.keyFile, "key", "", "the PEM private key of --cert, in `FILE`")
	c.Flags().StringVar(&fl.oauth, "oauth", "", "take Microsoft Entra ID bearer tokens: `basic` (HTTPS only; signatures are not checked)")
	fl.az.bind(c)
	cmdspec.NotInShell(c) // it runs until stopped
	cmdspec.Args(c)
	return c
}

// runServe serves the target database until it is stopped.
func runServe(c *cobra.Command, f *Factory, fl serveFlags) error {
	addr, err := fl.az.addr(c, fl.addr)
	if err != nil {
		return err
	}
	fl.addr = addr
	// Ctrl-C and SIGTERM stop the server from here on, and stay caught
	// until the file of --inMemoryPersistence is removed: a second one
	// (from a launcher passing on what its process group got too) cannot
	// end the process before that.
	ctx, stopSignals := signal.NotifyContext(c.Context(), os.Interrupt, syscall.SIGTERM)
	defer stopSignals()
	path, cleanup, err := fl.az.dbPath(c)
	if err != nil {
		return err
	}
	defer cleanup()
	if path == "" {
		if path, err = servedPath(c, f); err != nil {
			return err
		}
	}
	cfg := server.Config{Addr: fl.addr, DBPath: path, CORSAnyOrigin: fl.corsAnyOrigin, AnyVersion: fl.az.skipAPIVersionCheck}
	if env := os.Getenv(envAzuriteAccounts); env != "" {
		err = fl.serveAccounts(c, env, &cfg)
	} else {
		cfg.Account, cfg.Key, cfg.Authorizer, err = fl.authorizer(c)
	}
	if err != nil {
		return err
	}
	tlsInfo, err := fl.serveTLS(c, &cfg)
	if err != nil {
		return err
	}
	if tlsInfo != nil && tlsInfo.temporary {
		defer os.Remove(tlsInfo.file)
	}
	fl.az.notes(f.printer.NoteWriter())
	log := &server.ExplainLog{}
	if !fl.az.silent {
		log.Text = f.printer.NoteWriter()
	}
	if fl.az.debugFile != "" {
		df, err := os.OpenFile(fl.az.debugFile, os.O_CREATE|os.O_APPEND|os.O_WRONLY, 0o644)
		if err != nil {
			return backend.FileError(err, "cannot open the debug log %s", fl.az.debugFile)
		}
		defer df.Close()
		if log.Text == nil {
			log.Text = df
		} else {
			log.Text = io.MultiWriter(log.Text, df)
		}
	}
	if fl.logFile != "" {
		lf, err := os.OpenFile(fl.logFile, os.O_CREATE|os.O_APPEND|os.O_WRONLY, 0o644)
		if err != nil {
			return backend.FileError(err, "cannot open the query log %s", fl.logFile)
		}
		defer lf.Close()
		log.JSON = lf
	}
	cfg.Log = log
	// A server's garbage is per request and its live heap small (the file
	// is mapped, not on the heap): collecting at 5x the live heap rather
	// than 2x takes a third off the CPU time of a batch, for some
	// megabytes more.
	defer collectLess(400)()
	run, err := server.Start(cfg)
	if err != nil {
		return err
	}
	fl.printStart(f, path, run, tlsInfo)
	return waitAndStop(ctx, f, run)
}

// servedPath is the database file of --db (or the environment's) that
// serve serves.
func servedPath(c *cobra.Command, f *Factory) (string, error) {
	t, err := f.Target()
	if err != nil {
		return "", err
	}
	if t.Served != "" {
		return "", odata.Errorf(odata.CodeDatabaseLocked, "database %s is already served at %s; use that server, or stop it first", t.Path, t.Served)
	}
	if t.IsRemote() {
		return "", usageErrorf(c, "%s serves a local database file: choose it with --db, not a remote account", c.CommandPath())
	}
	if !exists(t.Path) {
		if err := folderExists(t.Path); err != nil {
			return "", err // the server makes the file, not a folder --db mistyped
		}
	}
	return t.Path, nil
}

// authorizer checks the flags of authentication and returns the account,
// its key and who may call.
func (fl serveFlags) authorizer(c *cobra.Command) (account, key string, a server.Authorizer, err error) {
	account, key = fl.account, fl.accountKey
	if account == "" {
		account = server.DefaultAccount
	}
	if key == "" {
		if account != server.DefaultAccount {
			return "", "", nil, usageErrorf(c, "--account %s needs its --account-key (the emulator's published key goes with %s only)", account, server.DefaultAccount)
		}
		key = server.DevelopmentKey
	}
	a, err = fl.accountAuthorizer(c, "--account-key", account, []string{key})
	return account, key, a, err
}

// accountAuthorizer is who may call account, whose base64 keys are keys:
// a request signed with any of them (or a token, with --oauth), or every
// request with --no-auth; keyWhere names where the keys come from, for
// errors.
func (fl serveFlags) accountAuthorizer(c *cobra.Command, keyWhere, account string, keys []string) (server.Authorizer, error) {
	var verifiers []server.Authorizer
	for _, key := range keys {
		keyBytes, err := auth.DecodeKey(key)
		if err != nil {
			return nil, usageErrorf(c, "%s: %v", keyWhere, err)
		}
		v := auth.New(account, keyBytes)
		if fl.oauth != "" && !fl.noAuth {
			level, err := auth.ParseOAuth(fl.oauth)
			if err != nil {
				return nil, usageErrorf(c, "--oauth: %v", err)
			}
			if !fl.tls && fl.certFile == "" {
				return nil, usageErrorf(c, "--oauth %s needs HTTPS, as the SDKs send bearer tokens over HTTPS only: add --tls (or --cert and --key)", fl.oauth)
			}
			v.SetOAuth(level)
		}
		verifiers = append(verifiers, server.KeyAuthorizer(v))
	}
	if fl.noAuth {
		if fl.oauth != "" {
			return nil, usageErrorf(c, "--no-auth allows every request already; leave out --oauth")
		}
		return server.AllowAll{}, nil
	}
	if len(verifiers) == 1 {
		return verifiers[0], nil
	}
	return server.EitherKey(verifiers...), nil
}

// waitAndStop waits for Ctrl-C, SIGTERM or the server's end, then stops
// it, letting requests in flight finish.
func waitAndStop(ctx context.Context, f *Factory, run *server.Running) error {
	ctx, stop := signal.NotifyContext(ctx, os.Interrupt, syscall.SIGTERM)
	defer stop()
	var serveErr error
	select {
	case <-ctx.Done():
	case serveErr = <-run.Done():
	}
	sctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	if err := run.Shutdown(sctx); err != nil && serveErr == nil {
		serveErr = fmt.Errorf("stopping the server: %w", err)
	}
	f.printer.Note("stopped; the database is closed")
	return serveErr
}
