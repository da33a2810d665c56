package cmd

import (
	"cmp"
	"context"
	"fmt"
	"os"
	"path/filepath"
	"strings"

	"github.com/spf13/cobra"
	"github.com/tstable/tstable/appdirs"
	"github.com/tstable/tstable/backend"
	"github.com/tstable/tstable/cmdspec"
	"github.com/tstable/tstable/odata"
	"github.com/tstable/tstable/remote"
	"github.com/tstable/tstable/transfer"
)

type copyOptions struct {
	toDB, toConn, toTable, filter string
	resume                        bool
}

func newCopyCmd(f *Factory) *cobra.Command {
	o := &copyOptions{}
	c := &cobra.Command{
		Use:   "copy TABLE",
		Short: "Copy a table (or the entities matching --filter) to another database or account",
		Long: `Copy a table between any two backends: the source is chosen by the global
flags (--db, --connection-string, --account-url), the destination by --to-db
or --to-connection-string. The destination table (--to-table, default the
same name) is created when missing; entities are written with Insert Or
Replace, about 5000 at a time, in parallel transactions of up to 100
per partition on a remote destination. Memory holds one page.

After every chunk the copy records where it got to in a checkpoint file
(copy/… in tstable's state folder, $XDG_STATE_HOME/tstable or
~/.local/state/tstable; on Windows %LOCALAPPDATA%\tstable). An
interrupted copy run again with --resume continues after the last
committed chunk instead of starting over;
the checkpoint is removed when the copy completes. Copying a chunk twice is
harmless: Insert Or Replace writes the same entity again.`,
		Example: `  tstable copy Employees --to-connection-string "$CS"
  tstable --connection-string "$CS" copy Employees --to-db backup.db --to-table Employees2024
  tstable copy LogsByDate --filter "PartitionKey ge '2024-03'" --to-db march.db --resume`,
		RunE: func(c *cobra.Command, args []string) error {
			return runCopy(c, f, args[0], o)
		},
	}
	cmdspec.Args(c, "TABLE")
	cmdspec.Writes(c)
	fl := c.Flags()
	fl.StringVar(&o.toDB, "to-db", "", "destination database `file`")
	fl.StringVar(&o.toConn, "to-connection-string", "", "destination account's connection `string`")
	fl.StringVar(&o.toTable, "to-table", "", "destination table `name` (default: the same)")
	fl.StringVar(&o.filter, "filter", "", "copy only the entities matching this $filter `expression`")
	fl.BoolVar(&o.resume, "resume", false, "continue an interrupted copy after its last committed page")
	return c
}

// runCopy copies table to the destination the flags name, resuming an
// interrupted copy with --resume.
func runCopy(c *cobra.Command, f *Factory, table string, o *copyOptions) error {
	if (o.toDB == "") == (o.toConn == "") {
		return usageErrorf(c, "copy needs one destination: --to-db PATH or --to-connection-string CS")
	}
	p, err := parseQuery(c, table, &queryOptions{filter: o.filter, pageSize: odata.MaxTop})
	if err != nil {
		return err
	}
	req, err := f.copyRequest(c, table, p.query.Filter, o)
	if err != nil {
		return err
	}
	if o.resume {
		ck, ok := transfer.ReadCheckpoint(req.Checkpoint)
		if ok {
			req.Resume = ck
			f.printer.Note("resuming after %d entities", ck.Copied)
		} else {
			f.printer.Note("no interrupted copy to resume; copying from the start")
		}
	}
	bar := f.printer.Progress("copying "+table, -1, "entities")
	req.Progress = bar.Set
	out, err := transfer.Copy(c.Context(), req)
	bar.Finish()
	if err != nil {
		switch {
		case out.Resumable:
			f.printer.Note("copy stopped after %d entities; run the same command with --resume to continue", out.Total)
		case c.Context().Err() != nil:
			f.printer.Note("copy was interrupted before it committed any entity")
		}
		return err
	}
	done := fmt.Sprintf("copied %d entities from %s to %s", out.Copied, req.Table, req.ToTable)
	if out.ResumedAfter > 0 {
		done += fmt.Sprintf(" (%d in all, resumed after %d)", out.Total, out.ResumedAfter)
	}
	f.printer.Note("%s", done)
	return nil
}

// copyRequest is the copy the flags ask for: the source is this run's
// target, read a chunk at a time; the destination is --to-db (its folder
// made now, the file opened for each chunk) or --to-connection-string
// (opened once). The checkpoint's name tells copies apart by both ends,
// the tables and the filter.
func (f *Factory) copyRequest(c *cobra.Command, table string, filter *odata.Filter, o *copyOptions) (transfer.CopyRequest, error) {
	req := transfer.CopyRequest{Table: table, ToTable: cmp.Or(o.toTable, table), Filter: filter}
	src, err := f.Target()
	if err != nil {
		return req, err
	}
	to := Target{Path: o.toDB}
	if o.toConn != "" {
		to = Target{Remote: &remote.Config{ConnectionString: o.toConn}}
	}
	if src.Label() == to.Label() && strings.EqualFold(req.ToTable, table) {
		return req, usageErrorf(c, "the source and the destination are the same table; give --to-table or another destination")
	}
	if _, err := os.Stat(to.Path); err != nil && !to.IsRemote() {
		if err := folderExists(to.Path); err != nil {
			return req, err
		}
	}
	req.Checkpoint = transfer.CheckpointPath(filepath.Join(stateDir(), "copy"), src.Label(), table, to.Label(), req.ToTable, filter.String())
	req.Read = func(ctx context.Context, fn func(backend.Backend) error) error { return f.Read(ctx, table, fn) }
	req.Open = func(ctx context.Context) (backend.Backend, error) { return f.Open(ctx, to, true) }
	req.HoldOpen = to.IsRemote()
	return req, nil
}

// stateDir is tstable's state folder (appdirs.State), else one in the
// system's temporary folder.
func stateDir() string {
	d, err := appdirs.State()
	if err != nil {
		return filepath.Join(os.TempDir(), "tstable-state")
	}
	return d
}
