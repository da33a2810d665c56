package cmd

import (
	"fmt"
	"io"
	"strconv"

	"github.com/spf13/cobra"
	"github.com/tstable/tstable/cmdspec"
	"github.com/tstable/tstable/odata"
	"github.com/tstable/tstable/store"
)

func newCompactCmd(f *Factory) *cobra.Command {
	c := &cobra.Command{
		Use:     "compact",
		Aliases: []string{"vacuum", "upgrade"},
		Short:   "Give back the space of deleted tables and entities: rewrite the file compactly (and in the newest format)",
		Long: `Rewrite the database file without its free pages — the space deleted
tables and entities leave behind, which the file keeps for reuse — and with
full pages, then print its size before and after.

A file of an older format (tstable status and tstable check say so) is
rewritten in the newest one (upgrade is another name for compact): file
format 3 keeps keys in the service's order (UTF-16 code units: '😀' sorts
before U+E000 to U+FFFF), the property names once per table, not in
every entity, and a copy of them in the file's header, so that recover
reads every page that survives. Every table, entity, property and Timestamp (so every ETag)
is kept. A tstable older than the format cannot read the file afterwards.

It is safe: the copy is written beside the database, synced, and renamed
over it only once complete, so an interruption (Ctrl-C, a crash, a full
disk) leaves the database as it was. The file is held exclusively while
compacting, so other commands wait or fail with DatabaseLocked meanwhile.`,
		Example: "  tstable compact --db people.db",
		RunE: func(c *cobra.Command, args []string) error {
			t, err := f.Target()
			if err != nil {
				return err
			}
			switch {
			case t.Served != "":
				return odata.Errorf(odata.CodeDatabaseLocked, "%s is served at %s; stop that server to compact it", t.Path, t.Served)
			case t.IsRemote():
				return usageErrorf(c, "compact rewrites a local database file; the service manages its own storage")
			}
			if err := databaseFile(t.Path, "compact"); err != nil {
				return err
			}
			res, err := store.CompactContext(c.Context(), t.Path, nil)
			if err != nil {
				if c.Context().Err() != nil {
					f.printer.Note("compact was interrupted: %s is unchanged", t.Path)
				}
				return err
			}
			r := compactResult{After: res.After, Before: res.Before, Path: t.Path, FormatBefore: res.FormatBefore, FormatAfter: res.FormatAfter}
			return f.printer.Print(r, func(w io.Writer) error {
				upgraded := ""
				if res.FormatBefore != res.FormatAfter {
					upgraded = fmt.Sprintf(", file format %d → %d", res.FormatBefore, res.FormatAfter)
				}
				_, err := fmt.Fprintf(w, "compacted %s: %s → %s%s\n", t.Path, byteSize(res.Before), byteSize(res.After), upgraded)
				return err
			})
		},
	}
	cmdspec.Args(c)
	cmdspec.Writes(c)
	return c
}

// byteSize writes a size for people: "512 B", "3.5 KiB", "247.0 MiB".
func byteSize(n int64) string {
	const unit = 1024
	if n < unit {
		return strconv.FormatInt(n, 10) + " B"
	}
	div, exp := int64(unit), 0
	for m := n / unit; m >= unit; m /= unit {
		div *= unit
		exp++
	}
	return fmt.Sprintf("%.1f %ciB", float64(n)/float64(div), "KMGTPE"[exp])
}

// compactResult is what compact prints: the file's size before and after.
type compactResult struct {
	After        int64  `json:"after"`
	Before       int64  `json:"before"`
	FormatAfter  uint64 `json:"formatAfter"`
	FormatBefore uint64 `json:"formatBefore"`
	Path         string `json:"path"`
}
