package cmd

import (
	"fmt"
	"io"

	"github.com/spf13/cobra"
	"github.com/tstable/tstable/cmdspec"
	"github.com/tstable/tstable/store"
)

func newRecoverCmd(f *Factory) *cobra.Command {
	c := &cobra.Command{
		Use:   "recover DAMAGED NEW",
		Short: "Copy every table and entity that can still be read from a damaged database into a new one",
		Long: `Read the damaged database file DAMAGED page by page, as check does, and
write every table and entity that can still be read into the new database
file NEW (which must not exist), keeping each entity's Timestamp and ETag.
Where a page cannot be read, the keys on it are skipped; where the page
that leads to others is damaged, the pages below it are still found and
saved. Entities whose table cannot be told go to a table LostAndFound.
When both copies of the file's header are destroyed, or the newer one is,
the tables are found by scanning the file's pages for its newest state,
and recover says so. Rows that an import had staged but not committed
when it was killed were never in the table: recover leaves them out and
says how many it found.

DAMAGED is only read, never written. recover prints the entities saved per
table and every range of keys it had to skip, with its page; it exits 0
when everything was saved and 1 when something was skipped. tstable check
NEW confirms the new file is sound. Interrupted (Ctrl-C), recover removes
NEW, which would hold only part of what can be saved.`,
		Example: "  tstable recover people.db people-recovered.db",
		RunE: func(c *cobra.Command, args []string) error {
			if err := databaseFile(args[0], "recover"); err != nil {
				return err
			}
			if err := folderExists(args[1]); err != nil {
				return err
			}
			bar := f.printer.Progress("recovering "+args[0], -1, "pages")
			rep, err := store.Recover(c.Context(), args[0], args[1], f.scanOptions(args[0], bar))
			bar.Finish()
			if c.Context().Err() != nil {
				f.printer.Note("recover was interrupted: %s was removed (it held only part of what can be saved); %s is unchanged", args[1], args[0])
			}
			if rep != nil {
				if perr := printRecover(f.printer, rep); perr != nil && err == nil {
					err = perr
				}
			}
			if err != nil {
				return err
			}
			if !rep.Complete() {
				return &silentError{status: ExitFailed}
			}
			return nil
		},
	}
	cmdspec.Args(c, "DAMAGED", "NEW")
	return c
}

// recoverResult is what recover prints: what was saved and what was
// not; its tables, skipped keys and unfinished imports are the lines of
// jsonl and the rows of csv.
type recoverResult struct {
	Complete   bool            `json:"complete"`
	Skipped    []problemJSON   `json:"skipped"`
	Source     string          `json:"source"`
	Tables     []savedTable    `json:"tables"`
	Target     string          `json:"target"`
	Unfinished []unfinishedRow `json:"unfinishedImports,omitempty"`
	Notes      []noteRow       `json:"notes,omitempty"`
}

// noteRow is what recover did that lost nothing but is worth knowing.
type noteRow struct {
	Note string `json:"note"`
}

// savedTable is a table recover saved.
type savedTable struct {
	Name     string `json:"name"`
	Saved    int64  `json:"saved"`
	Unlinked int64  `json:"unlinked"`
}

// unfinishedRow is an import killed before it committed, whose rows were
// left out.
type unfinishedRow struct {
	Note  string `json:"note"`
	Pages int    `json:"pages"`
	Rows  int64  `json:"rows"`
	Table string `json:"unfinishedImport"`
}

func (r recoverResult) items() []any {
	return append(append(append(anys(r.Tables), anys(r.Skipped)...), anys(r.Unfinished)...), anys(r.Notes)...)
}

// printRecover prints what recover did.
func printRecover(p *Printer, r *store.RecoverReport) error {
	res := recoverResult{Complete: r.Complete(), Skipped: problemsJSON(r.Problems), Source: r.Source, Tables: []savedTable{}, Target: r.Target}
	for _, t := range r.Tables {
		res.Tables = append(res.Tables, savedTable{Name: t.Name, Saved: t.Saved, Unlinked: t.Unlinked})
	}
	for _, u := range r.Unfinished {
		res.Unfinished = append(res.Unfinished, unfinishedRow{Note: u.String(), Pages: len(u.Pages), Rows: u.Rows, Table: u.Table})
	}
	for _, n := range r.Notes {
		res.Notes = append(res.Notes, noteRow{Note: n})
	}
	return p.Print(res, func(w io.Writer) error {
		fmt.Fprintf(w, "recovered %s into %s\n", r.Source, r.Target)
		for _, n := range r.Notes {
			fmt.Fprintf(w, "  note: %s\n", n)
		}
		for _, t := range r.Tables {
			fmt.Fprintf(w, "  %s: %s saved", t.Name, plural(t.Saved, "entity"))
			if t.Unlinked > 0 {
				fmt.Fprintf(w, " (%d found on pages no longer linked to the table)", t.Unlinked)
			}
			fmt.Fprintln(w)
		}
		for _, u := range r.Unfinished {
			fmt.Fprintf(w, "  not saved: %s\n", u)
		}
		if r.Complete() {
			_, err := fmt.Fprintln(w, "everything was saved")
			return err
		}
		listProblems(w, "skipped ("+plural(int64(len(r.Problems)), "problem")+")", r.Problems)
		return nil
	})
}
