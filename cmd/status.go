package cmd

import (
	"encoding/csv"
	"encoding/json"
	"errors"
	"fmt"
	"strconv"

	"github.com/spf13/cobra"
	"github.com/tstable/tstable/store"
)

func init() { addCommand(newStatusCmd) }

// statusReport is what tstable status prints.
type statusReport struct {
	Backend string `json:"backend"`        // local or remote
	Where   string `json:"where"`          // the file, or "ACCOUNT (ENDPOINT)"
	Tables  int    `json:"tables"`         // how many tables
	Note    string `json:"note,omitempty"` // e.g. no database yet
}

func newStatusCmd(f *Factory) *cobra.Command {
	return &cobra.Command{
		Use:   "status",
		Short: "Say which storage is in use and check that it answers",
		Long: `Say which storage the commands use — the local database file, or a remote
account chosen with --connection-string, --account-url or
$AZURE_STORAGE_CONNECTION_STRING — and check that it answers by listing its
tables. Exit status 1 when it does not (a wrong key, an unreachable endpoint,
a locked file). Keys and SAS tokens are never printed.`,
		Args: exactArgs(),
		RunE: func(c *cobra.Command, args []string) error {
			format, err := f.Format(c)
			if err != nil {
				return err
			}
			cfg, err := f.remoteConfig()
			if err != nil {
				return err
			}
			r := statusReport{Backend: "local", Where: f.DBPath()}
			if cfg != nil {
				r.Backend = "remote"
				label := f.BackendLabel()
				r.Where = label[len("remote "):]
			}
			err = f.Read(c.Context(), "", func(b store.Backend) error {
				names, err := b.ListTables(c.Context())
				r.Tables = len(names)
				return err
			})
			if errors.Is(err, errNoDatabase) {
				r.Note = "no database file yet: the first command that writes creates it"
			} else if err != nil {
				return err
			}
			out := f.IO.Out
			switch format {
			case FormatJSON, FormatJSONL:
				b, _ := json.Marshal(r)
				_, err = fmt.Fprintln(out, string(b))
			case FormatCSV:
				w := csv.NewWriter(out)
				w.Write([]string{"backend", "where", "tables", "note"})
				w.Write([]string{r.Backend, r.Where, strconv.Itoa(r.Tables), r.Note})
				w.Flush()
				err = w.Error()
			default:
				fmt.Fprintf(out, "backend  %s\nwhere    %s\ntables   %d\n", r.Backend, r.Where, r.Tables)
				if r.Note != "" {
					fmt.Fprintf(out, "note     %s\n", r.Note)
				}
			}
			return err
		},
	}
}
