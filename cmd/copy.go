package cmd

import (
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"
	"time"

	"github.com/spf13/cobra"
	"github.com/tstable/tstable/appdirs"
	"github.com/tstable/tstable/cmdspec"
	"github.com/tstable/tstable/odata"
	"github.com/tstable/tstable/remote"
	"github.com/tstable/tstable/store"
)

// copyChunk is about how many entities copy reads, writes and
// checkpoints at a time (whole pages of up to 1000): memory holds one
// chunk whatever the table's size.
const copyChunk = 5000

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
		Example: `  tstable copy Employees --to-connection-string "$AZURE_STORAGE_CONNECTION_STRING"
  tstable --connection-string "$CS" copy Employees --to-db backup.db --to-table Employees2024
  tstable copy Logs --filter "PartitionKey ge '2024-03'" --to-db march.db --resume`,
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

// copyCheckpoint is what the checkpoint file holds.
type copyCheckpoint struct {
	Next   odata.Key `json:"next"`
	Copied int64     `json:"copied"`
}

func runCopy(c *cobra.Command, f *Factory, table string, o *copyOptions) error {
	if (o.toDB == "") == (o.toConn == "") {
		return usageErrorf(c, "copy needs one destination: --to-db PATH or --to-connection-string CS")
	}
	qo := &queryOptions{filter: o.filter, pageSize: odata.MaxTop}
	p, err := parseQuery(c, table, qo)
	if err != nil {
		return err
	}
	toTable := o.toTable
	if toTable == "" {
		toTable = table
	}
	ctx := c.Context()

	// The source and the destination, and what they are called in the
	// checkpoint's name.
	src, err := f.Target()
	if err != nil {
		return err
	}
	to := Target{Path: o.toDB}
	if o.toConn != "" {
		to = Target{Remote: &remote.Config{ConnectionString: o.toConn}}
	}
	srcLabel, dstLabel := src.Label(), to.Label()
	if srcLabel == dstLabel && strings.EqualFold(toTable, table) {
		return usageErrorf(c, "the source and the destination are the same table; give --to-table or another destination")
	}
	if !to.IsRemote() {
		if dir := filepath.Dir(to.Path); dir != "" {
			os.MkdirAll(dir, 0o755)
		}
	}
	// A local destination is opened for each chunk and closed after it, so
	// that other processes get the file between chunks; a remote one once.
	openDst := func() (store.Backend, func(), error) {
		b, err := f.Open(ctx, to, true)
		if err != nil {
			return nil, nil, err
		}
		return b, func() { b.Close() }, nil
	}
	if to.IsRemote() {
		b, closeB, err := openDst()
		if err != nil {
			return err
		}
		defer closeB()
		openDst = func() (store.Backend, func(), error) { return b, func() {}, nil }
	}
	if err := func() error {
		dst, done, err := openDst()
		if err != nil {
			return err
		}
		defer done()
		if err := dst.CreateTable(ctx, toTable); err != nil && !odata.IsCode(err, odata.CodeTableAlreadyExists) {
			return err
		}
		return nil
	}(); err != nil {
		return err
	}
	ckPath := checkpointPath(srcLabel, table, dstLabel, toTable, p.query.Filter.String())
	var ck copyCheckpoint
	start := (*odata.Key)(nil)
	if o.resume {
		if b, err := os.ReadFile(ckPath); err == nil && json.Unmarshal(b, &ck) == nil {
			start = &ck.Next
			fmt.Fprintf(f.IO.ErrOut, "resuming after %d entities\n", ck.Copied)
		} else {
			fmt.Fprintln(f.IO.ErrOut, "no interrupted copy to resume; copying from the start")
		}
	}
	resumedAt := ck.Copied

	bar := f.IO.StartProgress("copying "+table, -1, "entities")

	// Each chunk is read with the source open, then written with the
	// destination open: neither file is held between chunks (and a copy
	// between two tables of one file does not wait on itself).
	err = func() error {
		for {
			// Gather a chunk of source pages, then write it as one load:
			// on a remote destination its transactions go in parallel.
			var chunk []*odata.Entity
			var next *odata.Key
			if err := f.Read(ctx, table, func(from store.Backend) error {
				for {
					res, err := from.Query(ctx, table, store.QueryRequest{Query: p.query, PageSize: odata.MaxTop, Start: start}, func(e *odata.Entity) error {
						c := *e
						c.Timestamp = time.Time{}
						chunk = append(chunk, &c)
						return nil
					})
					if err != nil {
						return err
					}
					next, start = res.Next, res.Next
					if next == nil || len(chunk) >= copyChunk {
						return nil
					}
				}
			}); err != nil {
				return err
			}
			if len(chunk) > 0 {
				i := 0
				dst, done, err := openDst()
				if err != nil {
					return err
				}
				lr, err := dst.Load(ctx, toTable, store.OpInsertOrReplace, func() (*odata.Entity, error) {
					if i == len(chunk) {
						return nil, io.EOF
					}
					i++
					return chunk[i-1], nil
				}, store.LoadOptions{})
				done()
				if err != nil {
					if lr != nil {
						ck.Copied += lr.Written // committed before the failure
					}
					return err
				}
				ck.Copied += lr.Written
				bar.Add(lr.Written)
			}
			if next == nil {
				return nil
			}
			ck.Next = *next
			if err := saveCheckpoint(ckPath, ck); err != nil {
				return err
			}
			if f.copyHook != nil {
				if err := f.copyHook(ck.Copied); err != nil {
					return err
				}
			}
		}
	}()
	bar.Finish()
	if err != nil {
		if _, serr := os.Stat(ckPath); serr == nil {
			fmt.Fprintf(f.IO.ErrOut, "copy stopped after %d entities; run the same command with --resume to continue\n", ck.Copied)
		}
		return err
	}
	os.Remove(ckPath)
	fmt.Fprintf(f.IO.ErrOut, "copied %d entities from %s to %s", ck.Copied-resumedAt, table, toTable)
	if resumedAt > 0 {
		fmt.Fprintf(f.IO.ErrOut, " (%d in all, resumed after %d)", ck.Copied, resumedAt)
	}
	fmt.Fprintln(f.IO.ErrOut)
	return nil
}

// checkpointPath names the checkpoint file of one copy: a hash of its
// source, destination, tables and filter, so no secret is written.
func checkpointPath(parts ...string) string {
	h := sha256.New()
	for _, p := range parts {
		h.Write([]byte(p))
		h.Write([]byte{0})
	}
	return filepath.Join(stateDir(), "copy", hex.EncodeToString(h.Sum(nil))[:32]+".json")
}

func saveCheckpoint(path string, ck copyCheckpoint) error {
	if err := os.MkdirAll(filepath.Dir(path), 0o700); err != nil {
		return store.FileError(err, "cannot keep the copy's checkpoint %s", path)
	}
	b, _ := json.Marshal(ck)
	tmp := path + ".tmp"
	if err := os.WriteFile(tmp, b, 0o600); err != nil {
		return store.FileError(err, "cannot keep the copy's checkpoint %s", path)
	}
	if err := os.Rename(tmp, path); err != nil {
		return store.FileError(err, "cannot keep the copy's checkpoint %s", path)
	}
	return nil
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
