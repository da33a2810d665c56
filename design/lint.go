package design

import (
	"strconv"

	"github.com/tstable/tstable/keyspace"
	"github.com/tstable/tstable/odata"
)

// Severity says whether a finding is a design problem (warning) or a fact
// worth knowing (info).
type Severity string

// The severities.
const (
	SeverityWarning Severity = "warning"
	SeverityInfo    Severity = "info"
)

// The finding ids. They are stable: scripts may match on them.
const (
	IDHotPartition        = "hot-partition"
	IDSinglePartition     = "single-partition"
	IDAppendOnlyKeys      = "append-only-keys"
	IDUnpaddedNumericKeys = "unpadded-numeric-keys"
	IDMixedPropertyTypes  = "mixed-property-types"
	IDNearSizeLimit       = "near-size-limit"
	IDEntityPerPartition  = "entity-per-partition"
	IDThroughput          = "throughput"
)

// Finding is one thing Lint noticed about a table's design.
type Finding struct {
	ID       string   `json:"id"`
	Severity Severity `json:"severity"`
	// Title says what is wrong in one line.
	Title    string   `json:"title"`
	Evidence Evidence `json:"evidence"`
	// Pattern names the design guide's pattern or anti-pattern at play.
	Pattern string `json:"pattern"`
	// Advice says what to do instead.
	Advice string `json:"advice"`
}

// Evidence is what a finding rests on: a sentence, the counts in it, and
// a few example keys.
type Evidence struct {
	Summary  string           `json:"summary"`
	Counts   map[string]int64 `json:"counts,omitempty"`
	Examples []string         `json:"examples,omitempty"`
}

// LintOptions tunes Lint.
type LintOptions struct {
	// Rate is the expected writes per second; when positive, Lint adds a
	// throughput finding for it.
	Rate float64
}

// Lint returns the design findings for the entities added so far:
// warnings first, in a fixed order of families, then information.
func (s *Stats) Lint(opts LintOptions) []Finding {
	out := []Finding{}
	sum := s.Result()
	out = append(out, s.partitionFindings(sum)...)
	out = append(out, s.appendOnlyFindings()...)
	out = append(out, s.paddingFindings()...)
	out = append(out, s.typeFindings()...)
	out = append(out, s.sizeFindings()...)
	if opts.Rate > 0 {
		out = append(out, s.throughputFinding(sum, opts.Rate))
	}
	out = append(out, s.spreadFindings(sum)...)
	warn := []Finding{}
	var info []Finding
	for _, f := range out {
		if f.Severity == SeverityWarning {
			warn = append(warn, f)
		} else {
			info = append(info, f)
		}
	}
	return append(warn, info...)
}

// HasWarnings reports whether any finding is a warning.
func HasWarnings(fs []Finding) bool {
	for _, f := range fs {
		if f.Severity == SeverityWarning {
			return true
		}
	}
	return false
}

// keyText renders a key for evidence: ('Sales', 'empid_000123').
func keyText(k odata.Key) string {
	return "(" + odata.Quote(k.PartitionKey) + ", " + odata.Quote(k.RowKey) + ")"
}

// pct renders a share as a percentage with at most one decimal.
func pct(share float64) string {
	p := share * 100
	if p >= 10 || p == float64(int64(p)) {
		return strconv.FormatFloat(p, 'f', 0, 64) + "%"
	}
	return strconv.FormatFloat(p, 'f', 1, 64) + "%"
}

// num renders a count with thousands separators: 1,000,000.
func num(n int64) string { return keyspace.Thousands(n) }

// plural writes a count with the singular or plural noun.
func plural(n int64, one, many string) string {
	if n == 1 {
		return "1 " + one
	}
	return num(n) + " " + many
}
