package cmd

import (
	"sync"

	"github.com/tstable/tstable/appdirs"

	"github.com/spf13/cobra"
)

// globalFlags are the flags every command takes — the root's persistent
// flags — as given on the command line. They are not the Factory's: the
// root binds them here and, before the command runs, apply turns them into
// the run's settings on the Factory.
type globalFlags struct {
	db, output, expanded, wait, conn, accountURL string
}

// bind declares the global flags on root.
func (g *globalFlags) bind(root *cobra.Command) {
	pf := root.PersistentFlags()
	pf.StringVar(&g.db, "db", "", "database `file` (default $TSTABLE_DB, else "+appdirs.DefaultDB+")")
	pf.StringVarP(&g.output, "output", "o", "", outputFlagUsage())
	pf.StringVarP(&g.expanded, "expanded", "x", "", "entities one property per line, `mode` on (-x alone), off or auto (auto: when the keys would not fit a table on the terminal)")
	pf.Lookup("expanded").NoOptDefVal = "on"
	pf.StringVar(&g.wait, "wait", "", "how long to wait (a `duration`, 10s or 2m) for another process to release the database (default $TSTABLE_WAIT, else 5s; 0: do not wait)")
	pf.StringVar(&g.conn, "connection-string", "", "use the remote account of this connection `string` (default $AZURE_STORAGE_CONNECTION_STRING); not with --db")
	pf.StringVar(&g.accountURL, "account-url", "", "use the remote table endpoint at this `URL`, signed in with Azure AD (the Azure SDK's default credentials)")
}

// apply decides the run's settings on f before command c runs: the
// printer (-o within what c prints, --expanded, else the shell's
// choice), the wait for the file (--wait), and how the target is found
// (on first use: a run that never opens storage never decides it). A bad
// value is a usage error, said before the command runs.
func (g *globalFlags) apply(c *cobra.Command, f *Factory) error {
	p, err := newPrinter(c, g.output, f.IO)
	if err != nil {
		return err
	}
	expand := g.expanded
	if expand == "" && f.Session != nil {
		expand = f.Session.Expanded()
	}
	if p.expand, err = parseExpand(expand); err != nil {
		return usageErrorf(c, "%v", err)
	}
	if f.wait, err = parseWait(g.wait); err != nil {
		return usageErrorf(c, "%v", err)
	}
	f.printer = p
	f.target = sync.OnceValues(func() (Target, error) { return g.resolveHeld(f.kept) })
	f.resolveAgain = g.resolveTarget
	return nil
}
