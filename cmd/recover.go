package cmd

import (
	"fmt"
	"io"
	"strconv"

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
Rows that an import had staged but not committed when it was killed were
never in the table: recover leaves them out and says how many it found.

DAMAGED is only read, never written. recover prints the entities saved per
table and every range of keys it had to skip, with its page; it exits 0
when everything was saved and 1 when something was skipped. tstable check
NEW confirms the new file is sound.`,
		Example: "  tstable recover people.db people-recovered.db",
		RunE: func(c *cobra.Command, args []string) error {
			if err := databaseFile(args[0], "recover"); err != nil {
				return err
			}
			bar := f.IO.StartProgress("recovering "+args[0], -1, "pages")
			rep, err := store.Recover(c.Context(), args[0], args[1], f.scanOptions(args[0], bar))
			bar.Finish()
			if rep != nil {
				if perr := f.printer.Report(recoverReport(rep)); perr != nil && err == nil {
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

// recoverReport is what recover prints.
func recoverReport(r *store.RecoverReport) Report {
	var tables []any
	rows := [][]string{{"table", "saved", "unlinked", "keys", "page", "problem"}}
	for _, t := range r.Tables {
		tables = append(tables, map[string]any{"name": t.Name, "saved": t.Saved, "unlinked": t.Unlinked})
		rows = append(rows, []string{t.Name, strconv.FormatInt(t.Saved, 10), strconv.FormatInt(t.Unlinked, 10), "", "", ""})
	}
	for _, p := range problemRows(r.Problems) {
		rows = append(rows, []string{p[0], "", "", p[1], p[2], p[3]})
	}
	unfinished := []any{}
	for _, u := range r.Unfinished {
		unfinished = append(unfinished, map[string]any{"unfinishedImport": u.Table, "rows": u.Rows, "pages": len(u.Pages), "note": u.String()})
		rows = append(rows, []string{u.Table, "", "", "", "", u.String()})
	}
	summary := map[string]any{
		"source": r.Source, "target": r.Target, "complete": r.Complete(),
		"tables": append([]any{}, tables...), "skipped": problemsJSON(r.Problems),
	}
	if len(unfinished) > 0 {
		summary["unfinishedImports"] = unfinished
	}
	return Report{
		JSON:  summary,
		Lines: append(append(append([]any{}, tables...), problemsJSON(r.Problems)...), unfinished...),
		CSV:   rows,
		Text: func(w io.Writer) error {
			fmt.Fprintf(w, "recovered %s into %s\n", r.Source, r.Target)
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
			fmt.Fprintf(w, "skipped (%s):\n", plural(int64(len(r.Problems)), "problem"))
			for _, p := range r.Problems {
				fmt.Fprintf(w, "  %s\n", p)
			}
			return nil
		},
	}
}
