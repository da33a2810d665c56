package cmd

import (
	"io"
	"strconv"

	"github.com/spf13/cobra"
	"github.com/tstable/tstable/cmdspec"
	"github.com/tstable/tstable/design"
)

func newLintCmd(f *Factory) *cobra.Command {
	var rate float64
	var d drawFlags
	c := &cobra.Command{
		Use:   "lint TABLE",
		Short: "Find design problems in a table's data: hot partitions, append-only keys, unpadded numbers, mixed types, size limits",
		Long: `Read a table once, streaming, and report design findings, each with a stable
id, a severity, the evidence (counts and example keys), the design guide's
pattern or anti-pattern, and what to do instead:

  hot-partition          one partition holds at least 10% of the table and at
                         least 4 times the median partition (warning)
  single-partition       every entity in one partition (warning)
  append-only-keys       PartitionKeys that are dates, times or a counter (warning)
  unpadded-numeric-keys  numbers of varying length in keys, so '10' < '9' (warning)
  mixed-property-types   one property name with several Edm types (warning)
  near-size-limit        entities from 90% of 1 MiB, 252 properties or 64 KiB values (warning)
  entity-per-partition   every partition holds one entity (info)
  throughput             with --rate: the hottest partition's share of the writes
                         against 2,000/s a partition and 20,000/s an account

Exit status: 0 without warnings, 1 with warnings (so a script can gate on
it), 2 on usage errors. -o json prints {"findings":[…]}; jsonl one finding
a line; csv one row per finding. --draw adds, under the findings about
partitions (hot-partition, single-partition, append-only-keys, …), the
table's key space with those partitions flagged.`,
		Example: "  tstable lint Employees\n  tstable lint LogsByDate --rate 5000 -o json   # exit 1: it has warnings",
		RunE: func(c *cobra.Command, args []string) error {
			if rate < 0 {
				return usageErrorf(c, "--rate must be a number of writes a second, 0 or more; got %s", strconv.FormatFloat(rate, 'g', -1, 64))
			}
			pr := f.printer
			if d.draw && !c.Flags().Changed("output") {
				pr = pr.ForPeopleNow()
			}
			s := newShapeScan(args[0], d.draw && pr.ForPeople())
			if err := f.scanTable(c, args[0], s.add); err != nil {
				return err
			}
			fs := s.stats.Lint(design.LintOptions{Rate: rate})
			if err := writeFindings(pr, args[0], fs); err != nil {
				return err
			}
			if s.keys != nil {
				if err := pr.Picture(lintPictures(s.keys.Model(), fs, pr.DrawStyle())); err != nil {
					return err
				}
			}
			if design.HasWarnings(fs) {
				return &silentError{status: ExitFailed}
			}
			return nil
		},
	}
	cmdspec.Args(c, "TABLE")
	c.Flags().BoolVar(&d.draw, "draw", false, "draw the key space with the partitions the findings are about flagged")
	c.Flags().Float64Var(&rate, "rate", 0, "expected writes per `second`: adds a throughput finding")
	return c
}

// lintResult is what lint prints: {"table","findings"} in json; its
// findings are the lines of jsonl and the rows of csv.
type lintResult struct {
	Table    string           `json:"table"`
	Findings []design.Finding `json:"findings"`
}

func (r lintResult) items() []any { return anys(r.Findings) }

// writeFindings prints lint's findings.
func writeFindings(p *Printer, table string, fs []design.Finding) error {
	return p.PrintProse(lintResult{table, fs}, func(w io.Writer) error { return design.WriteFindings(w, table, fs) })
}
