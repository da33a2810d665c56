package cmd

import "github.com/spf13/cobra"

// newFilterHelp is the help topic `tstable help filter`: the $filter
// language at a glance, literal forms included.
func newFilterHelp() *cobra.Command {
	return &cobra.Command{
		Use:   "filter",
		Short: "The $filter language: comparisons, and/or/not, and every literal form",
		Long: `--filter takes the Table service's OData $filter: comparisons joined with
and, or and not, and parentheses.

  PartitionKey eq 'Sales' and RowKey ge '00010'
  LastName eq 'O''Brien'              a quote inside a string is doubled
  Age gt 30 and not (Active eq false)

Operators: eq ne gt ge lt le (lower case), and or not. Names and keywords
are case-sensitive. A filter holds at most 15 comparisons and 100 levels
of parentheses and not. true and false alone are conditions too: --filter
true matches every entity, --filter false none; --filter '' is no filter.

Literals, by the property's type:

  String    'text'               ''  inside for a quote
  Int32     42  -7                (-2147483648 to 2147483647)
  Int64     42L  2147483648L     (a number with L; without it, past Int32 is an error)
  Double    1.5  2e10  3.0
  Boolean   true  false          (in any case: True, FALSE)
  DateTime  datetime'2014-08-22T00:50:32Z'   (fractions to 7 digits, UTC)
  Guid      guid'6f9619ff-8b86-d011-b42d-00cf4fc964ff'
  Binary    X'0aff'  binary'0aff'          (hex digits, an even count)

Numbers compare by value whatever their type (Int32, Int64, Double); a
property compared with a literal of another kind — a string with a
number, Age gt '30' — matches nothing, as in the service.

The query class depends on the keys: PartitionKey eq and RowKey eq is a
point query; PartitionKey eq with a RowKey range a range query;
PartitionKey eq alone a partition scan; anything else a table scan.
tstable explain TABLE --filter … shows which, and what it reads.`,
	}
}
