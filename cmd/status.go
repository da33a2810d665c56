package cmd

import (
	"errors"
	"fmt"
	"io"
	"strings"

	"github.com/spf13/cobra"
	"github.com/tstable/tstable/backend"
	"github.com/tstable/tstable/cmdspec"
	"github.com/tstable/tstable/store"
)

// statusReport is what tstable status prints.
type statusReport struct {
	Backend string `json:"backend"`          // local or remote
	Where   string `json:"where"`            // the file, or "ACCOUNT (ENDPOINT)"
	Tables  int    `json:"tables"`           // how many tables
	Format  uint64 `json:"format,omitempty"` // a local file's format
	Note    string `json:"note,omitempty"`   // e.g. no database yet, an older format
}

// formatter is a backend that says its file's format (a local file).
type formatter interface{ Format() uint64 }

func newStatusCmd(f *Factory) *cobra.Command {
	c := &cobra.Command{
		Use:   "status",
		Short: "Say which storage is in use and check that it answers",
		Long: `Say which storage the commands use — the local database file, or a remote
account chosen with --connection-string, --account-url or
$AZURE_STORAGE_CONNECTION_STRING — and check that it answers by listing its
tables. Exit status 1 when it does not (a wrong key, an unreachable endpoint,
a locked file). Keys and SAS tokens are never printed.`,
		RunE: func(c *cobra.Command, args []string) error {
			t, err := f.Target()
			if err != nil {
				return err
			}
			r := statusReport{Backend: "local", Where: t.Path}
			switch {
			case t.Served != "":
				r.Backend, r.Where = "served", t.Path+" (by tstable serve at "+t.Served+")"
			case t.IsRemote():
				r.Backend = "remote"
				r.Where = strings.TrimPrefix(t.Label(), "remote ")
			}
			err = f.Read(c.Context(), "", func(b backend.Backend) error {
				names, err := b.ListTables(c.Context())
				r.Tables = len(names)
				if lf, ok := b.(formatter); ok {
					r.Format = lf.Format()
					r.Note = store.FormatNote(r.Format)
				}
				if db, ok := b.(*store.DB); ok && db.HeaderNote() != "" {
					r.Note = strings.TrimPrefix(strings.Join([]string{r.Note, db.HeaderNote()}, "; "), "; ")
				}
				return err
			})
			if errors.Is(err, errNoDatabase) {
				r.Note = "no database file yet: the first command that writes creates it"
				if t.Named {
					r.Note = "no database file at " + t.Path + closestDatabase(t.Path) + ": the first command that writes creates it"
				}
			} else if err != nil {
				return err
			}
			return f.printer.Print(r, func(w io.Writer) error {
				fmt.Fprintf(w, "backend  %s\nwhere    %s\ntables   %d\n", r.Backend, r.Where, r.Tables)
				if r.Format != 0 {
					fmt.Fprintf(w, "format   %d\n", r.Format)
				}
				if r.Note != "" {
					fmt.Fprintf(w, "note     %s\n", r.Note)
				}
				return nil
			})
		},
	}
	cmdspec.Args(c)
	return c
}
