package cmd

import (
	"context"
	"fmt"
	"os"
	"os/signal"
	"syscall"
	"time"

	"github.com/spf13/cobra"
	"github.com/tstable/tstable/cmdspec"
	"github.com/tstable/tstable/odata"
	"github.com/tstable/tstable/server"
	"github.com/tstable/tstable/server/auth"
)

func newServeCmd(f *Factory) *cobra.Command {
	var (
		addr, account, key, logFile string
		noAuth                      bool
	)
	c := &cobra.Command{
		Use:   "serve",
		Short: "Serve the database over the Table service's REST API, for the Azure SDKs and Storage Explorer",
		Long: `Serve the database over HTTP as the Azure Table service, path-style like the
emulators: http://ADDR/ACCOUNT/Tables, /ACCOUNT/TABLE(), /ACCOUNT/$batch.
The Azure SDKs, Storage Explorer and plain HTTP clients work against it
with the emulator's connection string; the connection string is printed at
start.

The database stays open (and locked) while the server runs; its address is
written beside it (PATH.serve) and removed when the server stops. Ctrl-C or
SIGTERM lets requests in flight finish, then closes the file.

Every query is explained as it is served: a line on standard error (table,
filter, query class, entities scanned and returned, time), and the headers
x-tstable-query-class, x-tstable-scanned and x-tstable-returned on the
response. --log FILE also writes those lines as JSON, one object a line,
which tstable advise TABLE --queries FILE reads.

Requests are authenticated as the service does it, with the account's key:
Shared Key and Shared Key Lite signatures (the SDKs sign with the key of
their connection string), account and table SAS, and bearer tokens over
HTTPS. The account is devstoreaccount1 with the emulator's published key
unless --account and --key say otherwise; --no-auth allows every request.
CORS preflights are answered for any origin, so browser apps can call it.`,
		Example: `  tstable serve
  tstable serve --db orders.db --addr 127.0.0.1:10002 --log queries.jsonl
  tstable advise Orders --queries queries.jsonl`,
		RunE: func(c *cobra.Command, args []string) error {
			t, err := f.Target()
			if err != nil {
				return err
			}
			if t.Served != "" {
				return odata.Errorf(odata.CodeDatabaseLocked, "database %s is already served at %s; use that server, or stop it first", t.Path, t.Served)
			}
			if t.IsRemote() {
				return usageErrorf(c, "%s serves a local database file: choose it with --db, not a remote account", c.CommandPath())
			}
			if account == "" {
				account = server.DefaultAccount
			}
			if key == "" {
				if account != server.DefaultAccount {
					return usageErrorf(c, "--account %s needs its --key (the emulator's published key goes with %s only)", account, server.DefaultAccount)
				}
				key = server.DevelopmentKey
			}
			keyBytes, err := auth.DecodeKey(key)
			if err != nil {
				return usageErrorf(c, "--key: %v", err)
			}
			var authorizer server.Authorizer = server.AllowAll{}
			if !noAuth {
				authorizer = server.KeyAuthorizer(auth.New(account, keyBytes))
			}
			log := &server.ExplainLog{Text: f.IO.ErrOut}
			if logFile != "" {
				lf, err := os.OpenFile(logFile, os.O_CREATE|os.O_APPEND|os.O_WRONLY, 0o644)
				if err != nil {
					return fmt.Errorf("cannot open the query log %s: %w", logFile, err)
				}
				defer lf.Close()
				log.JSON = lf
			}
			// A server's garbage is per request and its live heap small
			// (the file is mapped, not on the heap): collecting at 5x the
			// live heap rather than 2x takes a third off the CPU time of
			// a batch, for some megabytes more.
			defer collectLess(400)()
			run, err := server.Start(server.Config{Addr: addr, DBPath: t.Path, Account: account, Key: key, Authorizer: authorizer, Log: log})
			if err != nil {
				return err
			}
			fmt.Fprintf(f.IO.ErrOut, "serving %s at %s\nconnection string: %s\n", t.Path, run.URL(), run.ConnectionString())
			if noAuth {
				fmt.Fprintln(f.IO.ErrOut, "every request is allowed (--no-auth): serve on loopback only")
			}
			fmt.Fprintln(f.IO.ErrOut, "(Ctrl-C to stop)")
			ctx, stop := signal.NotifyContext(c.Context(), os.Interrupt, syscall.SIGTERM)
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
			fmt.Fprintln(f.IO.ErrOut, "stopped; the database is closed")
			return serveErr
		},
	}
	c.Flags().StringVar(&addr, "addr", "127.0.0.1:10002", "`host:port` to listen on (port 0 picks a free one)")
	c.Flags().StringVar(&account, "account", "", "account `name` in the paths (default devstoreaccount1)")
	c.Flags().StringVar(&key, "key", "", "the account's `base64` key (default the emulator's well-known key)")
	c.Flags().BoolVar(&noAuth, "no-auth", false, "allow every request, signed or not")
	c.Flags().StringVar(&logFile, "log", "", "also write each query as a JSON line to `FILE` (for tstable advise --queries)")
	cmdspec.NotInShell(c) // it runs until stopped
	cmdspec.Args(c)
	return c
}
