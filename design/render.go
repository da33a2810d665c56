package design

import (
	"fmt"
	"io"
	"strconv"
	"strings"
	"text/tabwriter"

	"github.com/tstable/tstable/odata"
)

// maxBar is the longest bar of the partition-size chart, in characters.
const maxBar = 40

// WriteStats writes a Summary for people: the counts, the largest
// partitions, a bar chart of the partition sizes, key lengths, entity size
// and the properties with their types. width is the terminal's width (0
// when not a terminal), which bounds the chart.
func WriteStats(w io.Writer, s *Summary, width int) error {
	var b strings.Builder
	name := "table"
	if s.Table != "" {
		name = s.Table
	}
	fmt.Fprintf(&b, "%s: %s in %s\n", name, plural(s.Entities, "entity", "entities"), plural(s.Partitions, "partition", "partitions"))
	if s.Entities == 0 {
		_, err := io.WriteString(w, b.String())
		return err
	}
	e := s.EntitiesPerPartition
	fmt.Fprintf(&b, "entities per partition: min %s · median %s · p99 %s · max %s\n", num(e.Min), num(e.Median), num(e.P99), num(e.Max))

	b.WriteString("\nlargest partitions:\n")
	kw, nw := 0, 0
	for _, p := range s.LargestPartitions {
		kw = max(kw, len(odata.Quote(p.PartitionKey)))
		nw = max(nw, len(num(p.Entities)))
	}
	for _, p := range s.LargestPartitions {
		fmt.Fprintf(&b, "  %-*s  %*s  %5s\n", kw, odata.Quote(p.PartitionKey), nw, num(p.Entities), pct(p.Share))
	}

	b.WriteString("\npartitions by size (entities per partition → number of partitions):\n")
	writeChart(&b, s.Distribution, width)

	b.WriteString("\n")
	fmt.Fprintf(&b, "PartitionKey length: min %d · avg %s · max %d characters\n", s.PartitionKeyLength.Min, fmtFloat(s.PartitionKeyLength.Avg), s.PartitionKeyLength.Max)
	fmt.Fprintf(&b, "RowKey length:       min %d · avg %s · max %d characters\n", s.RowKeyLength.Min, fmtFloat(s.RowKeyLength.Avg), s.RowKeyLength.Max)
	fmt.Fprintf(&b, "entity size:         avg %s bytes · max %s bytes in %s, %s of the 1 MiB limit\n",
		fmtFloat(s.EntitySize.Avg), num(s.EntitySize.Max), keyText(s.EntitySize.MaxKey), pct(s.EntitySize.ShareOfLimit))
	fmt.Fprintf(&b, "properties:          at most %d of %d in one entity, in %s\n", s.PropertyCount.Max, s.PropertyCount.Limit, keyText(s.PropertyCount.MaxKey))

	if len(s.Properties) > 0 {
		b.WriteString("\n")
		tw := tabwriter.NewWriter(&b, 0, 0, 2, ' ', 0)
		fmt.Fprintf(tw, "  %s\t%s\t%s\n", "property", "type", "entities")
		shown := 0
		for _, p := range s.Properties {
			if shown >= maxPropertyRows && len(p.Types) == 1 {
				continue
			}
			shown++
			for i, t := range p.Types {
				n, mark := p.Name, ""
				if i > 0 {
					n = ""
				}
				if i == 0 && len(p.Types) > 1 {
					mark = "  ← mixed types"
				}
				fmt.Fprintf(tw, "  %s\t%s\t%s%s\n", n, t.Type, num(t.Entities), mark)
			}
		}
		tw.Flush()
		if rest := len(s.Properties) - shown; rest > 0 {
			fmt.Fprintf(&b, "  … and %s more (all of them with -o json)\n", plural(int64(rest), "property", "properties"))
		}
	}
	_, err := io.WriteString(w, b.String())
	return err
}

// maxPropertyRows caps the property list in table mode (properties with
// mixed types are always listed).
const maxPropertyRows = 30

// writeChart draws one bar per size bucket, scaled to the fullest bucket.
func writeChart(b *strings.Builder, buckets []Bucket, width int) {
	labelW, countW := 0, 0
	var most int64
	for _, k := range buckets {
		labelW = max(labelW, len(k.Label()))
		countW = max(countW, len(num(k.Partitions)))
		most = max(most, k.Partitions)
	}
	bar := maxBar
	if width > 0 {
		bar = min(bar, width-labelW-countW-6)
	}
	bar = max(bar, 10)
	for _, k := range buckets {
		n := 0
		if most > 0 {
			n = int((k.Partitions*int64(bar) + most - 1) / most)
		}
		fmt.Fprintf(b, "  %*s │%s %s\n", labelW, k.Label(), strings.Repeat("█", n), num(k.Partitions))
	}
}

func fmtFloat(f float64) string { return strconv.FormatFloat(f, 'f', -1, 64) }

// WriteFindings writes lint findings for people, then a count line.
func WriteFindings(w io.Writer, table string, fs []Finding) error {
	var b strings.Builder
	var warnings, notes int64
	for _, f := range fs {
		if f.Severity == SeverityWarning {
			warnings++
		} else {
			notes++
		}
		fmt.Fprintf(&b, "%s %s: %s\n", f.Severity, f.ID, f.Title)
		fmt.Fprintf(&b, "  evidence: %s\n", f.Evidence.Summary)
		for _, e := range f.Evidence.Examples {
			fmt.Fprintf(&b, "    · %s\n", e)
		}
		fmt.Fprintf(&b, "  pattern:  %s\n", f.Pattern)
		fmt.Fprintf(&b, "  advice:   %s\n\n", f.Advice)
	}
	name := "the table"
	if table != "" {
		name = table
	}
	if len(fs) == 0 {
		fmt.Fprintf(&b, "%s: no findings; the design holds up\n", name)
	} else {
		fmt.Fprintf(&b, "%s: %s, %s\n", name, plural(warnings, "warning", "warnings"), plural(notes, "note", "notes"))
	}
	_, err := io.WriteString(w, b.String())
	return err
}

// WriteAdvice writes Advise's report for people.
func WriteAdvice(w io.Writer, a *Advice) error {
	var b strings.Builder
	for _, q := range a.Queries {
		fmt.Fprintf(&b, "line %d: %s\n", q.Line, q.Filter)
		fmt.Fprintf(&b, "  %s · read %s · scanned %s, returned %s%s\n", q.Class.Text(), rangesText(q.Ranges),
			num(q.Scanned), num(q.Returned), densityText(q.Scanned, q.Returned))
		for _, n := range q.Notes {
			fmt.Fprintf(&b, "  never matches: %s\n", n.Text)
		}
		if p := q.Proposal; p != nil {
			fmt.Fprintf(&b, "  proposal: %s", p.Pattern)
			if p.Prefix != "" {
				fmt.Fprintf(&b, " (prefix %s)", odata.Quote(p.Prefix))
			}
			fmt.Fprintf(&b, " → %s, scanning %s\n", p.Class.Text(), num(p.Scanned))
			fmt.Fprintf(&b, "    %s\n", p.Text)
			fmt.Fprintf(&b, "    then: %s\n", p.Query)
		} else if len(q.Notes) > 0 {
			b.WriteString("  no proposal: fix the query first\n")
		} else if q.Class == odata.ClassPoint || q.Class == odata.ClassRange {
			b.WriteString("  good shape: nothing to change\n")
		} else {
			b.WriteString("  no proposal: the query reads what it asks for\n")
		}
		b.WriteString("\n")
	}
	fmt.Fprintf(&b, "%s\n", a.Read.Text(a.Table))
	fmt.Fprintf(&b, "workload: %s, scanning %s entities to return %s%s\n", plural(int64(len(a.Queries)), "query", "queries"),
		num(a.Scanned), num(a.Returned), densityText(a.Scanned, a.Returned))
	for _, p := range a.Proposals {
		lines := make([]string, len(p.Lines))
		for i, l := range p.Lines {
			lines[i] = strconv.Itoa(l)
		}
		name := p.Pattern
		if p.Prefix != "" {
			name += " " + odata.Quote(p.Prefix)
		}
		fmt.Fprintf(&b, "  %s (line %s): removes %s scans, %s of the workload\n", name, strings.Join(lines, ", "), num(p.Removed), pct(p.Share))
	}
	if len(a.Proposals) == 0 {
		b.WriteString("  " + nothingToPropose(a.Queries) + "\n")
	}
	_, err := io.WriteString(w, b.String())
	return err
}

func rangesText(rs []string) string {
	if len(rs) == 0 {
		return "nothing"
	}
	return strings.Join(rs, "; ")
}

func densityText(scanned, returned int64) string {
	if scanned <= 0 {
		return ""
	}
	d := float64(returned) / float64(scanned)
	if d > 0 && d < 0.001 {
		return " (density " + strconv.FormatFloat(d*100, 'g', 1, 64) + "%)"
	}
	return " (density " + pct(round4(d)) + ")"
}

// Text says in one line what a workload file held: the lines read, the
// queries of table among them, and the lines skipped, by why.
func (rs ReadSummary) Text(table string) string {
	queries := plural(int64(rs.Queries), "query", "queries")
	if table != "" {
		queries += " of " + table
	}
	s := fmt.Sprintf("read %s: %s", plural(int64(rs.Lines), "line", "lines"), queries)
	if rs.Skipped == 0 {
		return s
	}
	var why []string
	add := func(n int, one, many string) {
		if n > 0 {
			why = append(why, plural(int64(n), one, many))
		}
	}
	add(rs.Unfiltered, "read without a filter (nothing to advise on)", "reads without a filter (nothing to advise on)")
	if rs.OtherTables > 0 {
		other := "other tables"
		if len(rs.OtherTableNames) == 1 {
			other = "another table"
		}
		why = append(why, plural(int64(rs.OtherTables), "query", "queries")+" of "+other+" ("+strings.Join(rs.OtherTableNames, ", ")+")")
	}
	add(rs.Repeats, "repeat of an earlier query", "repeats of earlier queries")
	if rs.Unreadable > 0 {
		lines := make([]string, len(rs.UnreadableLines))
		for i, l := range rs.UnreadableLines {
			lines[i] = strconv.Itoa(l)
		}
		more := ""
		if rs.Unreadable > len(rs.UnreadableLines) {
			more = ", …"
		}
		why = append(why, plural(int64(rs.Unreadable), "unreadable line", "unreadable lines")+
			" (line "+strings.Join(lines, ", ")+more+": not a line of tstable serve --log)")
	}
	add(rs.BlankOrComment, "blank line or comment", "blank lines or comments")
	return s + "; skipped " + strconv.Itoa(rs.Skipped) + ": " + strings.Join(why, ", ")
}

// nothingToPropose says why a workload has no proposal, counting its
// queries by what they are; it claims nothing of the lines skipped.
func nothingToPropose(qs []QueryAdvice) string {
	var good, onPurpose, never int64
	for _, q := range qs {
		switch {
		case len(q.Notes) > 0:
			never++
		case q.Class == odata.ClassPoint || q.Class == odata.ClassRange:
			good++
		default:
			onPurpose++
		}
	}
	var parts []string
	if good > 0 {
		parts = append(parts, plural(good, "point or range query", "point or range queries"))
	}
	if onPurpose > 0 {
		parts = append(parts, plural(onPurpose, "query that reads what it asks for", "queries that read what they ask for"))
	}
	if never > 0 {
		parts = append(parts, plural(never, "query that never matches (fix it first)", "queries that never match (fix them first)"))
	}
	if len(parts) == 0 {
		return "nothing to propose: no query to advise on"
	}
	return "nothing to propose: " + strings.Join(parts, ", ")
}
