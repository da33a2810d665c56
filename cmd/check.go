package cmd

import (
	"fmt"
	"io"

	"github.com/spf13/cobra"
	"github.com/tstable/tstable/cmdspec"
	"github.com/tstable/tstable/odata"
	"github.com/tstable/tstable/store"
)

func newCheckCmd(f *Factory) *cobra.Command {
	c := &cobra.Command{
		Use:   "check [FILE]",
		Short: "Read a whole database file and list what is damaged in it",
		Long: `Read the whole database file (FILE, else the one --db names) page by page,
trusting nothing in it, and list every problem found, each with its table,
the range of keys it concerns and its page: the file's header and length,
the list of free pages, pages used twice, both used and free, or neither,
keys out of order, the catalogue of tables against the tables, and every
entity against the service's rules. When no copy of the header can be
read, or the readable one describes an older state than the file's pages
hold, check reads the newest state it finds by scanning the pages, and
says so. It also says how many rows an import killed while it staged them
left in the file: they were never in the table, and the next open of the
file for writing removes them. Of a sound file, it says what losing each
page that others need would cost (the list of tables, the file's own
records, the dictionaries' pages, the tables' branches), and that losing
any other page costs only the entities on it.

check never writes. It waits for a command that is writing the file, and
shows its progress on a terminal. It exits 0 when the file is sound and 1
when it lists problems; tstable recover FILE NEW then copies what can still
be read into a new file.`,
		Example: "  tstable check\n  tstable check people.db -o json",
		RunE: func(c *cobra.Command, args []string) error {
			path, err := f.localFile(c, args)
			if err != nil {
				return err
			}
			bar := f.printer.Progress("checking "+path, -1, "pages")
			rep, err := store.Check(c.Context(), path, f.scanOptions(path, bar))
			bar.Finish()
			if err != nil {
				return err
			}
			if err := printCheck(f.printer, rep); err != nil {
				return err
			}
			if !rep.OK() {
				return &silentError{status: ExitFailed}
			}
			return nil
		},
	}
	cmdspec.Args(c, "[FILE]")
	return c
}

// scanOptions waits for the file as every command does (--wait), and
// feeds the progress bar.
func (f *Factory) scanOptions(path string, bar *Bar) *store.ScanOptions {
	o := f.storeOptions(path, false)
	return &store.ScanOptions{Wait: o.Wait, OnWait: o.OnWait, Progress: bar.SetOf}
}

// problemJSON is a problem as check and recover print it.
type problemJSON struct {
	Table string   `json:"table,omitempty"`
	Keys  string   `json:"keys,omitempty"`
	First *keyJSON `json:"first,omitempty"`
	Next  *keyJSON `json:"next,omitempty"`
	Last  *keyJSON `json:"last,omitempty"`
	Page  *int64   `json:"page,omitempty"`
	What  string   `json:"problem"`
	Lost  bool     `json:"lost"`
}

type keyJSON struct {
	PartitionKey string
	RowKey       string
}

// problemsJSON is the problems as printed (never nil: an empty list).
func problemsJSON(ps []store.Problem) []problemJSON {
	out := []problemJSON{}
	for _, p := range ps {
		j := problemJSON{Table: p.Table, What: p.What, Lost: p.Lost}
		if p.Keys != nil {
			j.Keys = p.Keys.String()
			j.First, j.Next, j.Last = keyOfJSON(p.Keys.First), keyOfJSON(p.Keys.Next), keyOfJSON(p.Keys.Last)
		}
		if p.Page >= 0 {
			page := p.Page
			j.Page = &page
		}
		out = append(out, j)
	}
	return out
}

// checkResult is what check prints: the file and what is in it; its
// problems are the lines of jsonl and the rows of csv.
type checkResult struct {
	OK       bool          `json:"ok"`
	Format   uint64        `json:"format,omitempty"` // the file's format
	PageSize int           `json:"pageSize"`
	Pages    int64         `json:"pages"`
	Path     string        `json:"path"`
	Problems []problemJSON `json:"problems"`
	Tables   []tableCount  `json:"tables"`
	// Unfinished is the rows of imports killed while they staged them,
	// still in the file: no problem, but room it holds.
	Unfinished []unfinishedRow `json:"unfinishedImports,omitempty"`
	// Costs is, for a sound file, what losing each page others need
	// would cost; the last is any other page.
	Costs []costJSON `json:"pageCosts,omitempty"`
}

// costJSON is what losing one of some pages would cost.
type costJSON struct {
	Costs    string   `json:"costs"`
	Entities int64    `json:"entities"`
	Holds    string   `json:"holds"`
	Pages    []uint64 `json:"pages"` // empty: every page not named elsewhere
	Table    string   `json:"table,omitempty"`
}

// tableCount is a table and its entities.
type tableCount struct {
	Entities int64  `json:"entities"`
	Name     string `json:"name"`
}

func (r checkResult) items() []any { return append(anys(r.Problems), anys(r.Unfinished)...) }

// printCheck prints what check found.
func printCheck(p *Printer, r *store.CheckReport) error {
	res := checkResult{OK: r.OK(), Format: r.Format, PageSize: r.PageSize, Pages: r.Pages, Path: r.Path, Problems: problemsJSON(r.Problems), Tables: []tableCount{}}
	entities := int64(0)
	for _, t := range r.Tables {
		entities += t.Entities
		res.Tables = append(res.Tables, tableCount{Entities: t.Entities, Name: t.Name})
	}
	for _, u := range r.Unfinished {
		res.Unfinished = append(res.Unfinished, unfinishedRow{Note: u.InFile(), Pages: len(u.Pages), Rows: u.Rows, Table: u.Table})
	}
	for _, c := range r.Costs {
		res.Costs = append(res.Costs, costJSON{Costs: c.Costs, Entities: c.Entities, Holds: c.Holds, Pages: append([]uint64{}, c.Pages...), Table: c.Table})
	}
	return p.Print(res, func(w io.Writer) error {
		fmt.Fprintf(w, "checked %s: %s, %s in %s\n", r.Path, plural(r.Pages, "page"), plural(entities, "entity"), plural(int64(len(r.Tables)), "table"))
		if note := store.FormatNote(r.Format); note != "" && r.PageSize > 0 {
			fmt.Fprintf(w, "  note: %s\n", note)
		}
		for _, u := range r.Unfinished {
			fmt.Fprintf(w, "  not in a table: %s\n", u.InFile())
		}
		if r.OK() {
			fmt.Fprintln(w, "no problems")
			if len(r.Costs) > 0 {
				fmt.Fprintln(w, "what the loss of one page would cost:")
				for _, c := range r.Costs {
					fmt.Fprintf(w, "  %s\n", c)
				}
			}
			return nil
		}
		listProblems(w, plural(int64(len(r.Problems)), "problem"), r.Problems)
		if r.PageSize == 0 {
			return nil // no database to recover from
		}
		_, err := fmt.Fprintf(w, "tstable recover %s NEW copies what can still be read into a new file\n", r.Path)
		return err
	})
}

// listProblems writes problems for people under a title: "3 problems:",
// then one a line.
func listProblems(w io.Writer, title string, ps []store.Problem) {
	fmt.Fprintf(w, "%s:\n", title)
	for _, p := range ps {
		fmt.Fprintf(w, "  %s\n", p)
	}
}

// keyOfJSON is a key for JSON, or nil.
func keyOfJSON(k *odata.Key) *keyJSON {
	if k == nil {
		return nil
	}
	return &keyJSON{PartitionKey: k.PartitionKey, RowKey: k.RowKey}
}
