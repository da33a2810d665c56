package design

import (
	"fmt"
	"strconv"

	"github.com/tstable/tstable/odata"
)

// The service's scalability targets, in entities per second (for 1 KiB
// entities): what one partition serves, and what one storage account does.
const (
	PartitionTarget = 2000
	AccountTarget   = 20000
)

// Hot-partition thresholds. A partition is hot when it holds at least
// hotShare of the table and at least hotRatio times the median partition.
//
// hotShare is PartitionTarget/AccountTarget: if traffic follows the data,
// a partition with more than a tenth of the entities reaches its own
// 2,000/s before the account reaches its 20,000/s, so it — not the
// account — caps the table. hotRatio keeps evenly cut tables quiet: two
// departments of equal size each hold half the table and are not hot.
const (
	hotShare = float64(PartitionTarget) / AccountTarget
	hotRatio = 4
)

// partitionFindings reports hot-partition and single-partition.
func (s *Stats) partitionFindings(sum *Summary) []Finding {
	if sum.Partitions == 1 && sum.Entities >= 2 {
		pk := sum.LargestPartitions[0].PartitionKey
		return []Finding{{
			ID:       IDSinglePartition,
			Severity: SeverityWarning,
			Title:    "every entity is in one partition",
			Evidence: Evidence{
				Summary: fmt.Sprintf("all %s entities have PartitionKey %s", num(sum.Entities), odata.Quote(pk)),
				Counts:  map[string]int64{"entities": sum.Entities, "partitions": 1},
			},
			Pattern: "partition design: scale comes from partitions",
			Advice: fmt.Sprintf("One partition is served by one server, about %s entities a second, however large the account. "+
				"Choose a PartitionKey from a value your queries name (a department, a customer, a tenant), so reads "+
				"stay point or range queries and load spreads; keep together only what must change atomically in one entity group transaction.", num(PartitionTarget)),
		}}
	}
	if sum.Partitions < 2 {
		return nil
	}
	hot := sum.LargestPartitions[0]
	median := sum.EntitiesPerPartition.Median
	if hot.Share < hotShare || hot.Entities < hotRatio*median {
		return nil
	}
	var ex []string
	for _, p := range sum.LargestPartitions {
		if p.Share >= hotShare && p.Entities >= hotRatio*median {
			ex = append(ex, fmt.Sprintf("%s: %s entities (%s)", odata.Quote(p.PartitionKey), num(p.Entities), pct(p.Share)))
		}
	}
	return []Finding{{
		ID:       IDHotPartition,
		Severity: SeverityWarning,
		Title:    fmt.Sprintf("partition %s holds %s of the table", odata.Quote(hot.PartitionKey), pct(hot.Share)),
		Evidence: Evidence{
			Summary: fmt.Sprintf("partition %s holds %s of %s entities (%s), %s times the median partition of %s; "+
				"hot means at least %s of the table and at least %d times the median",
				odata.Quote(hot.PartitionKey), num(hot.Entities), num(sum.Entities), pct(hot.Share),
				ratioText(hot.Entities, median), num(median), pct(hotShare), hotRatio),
			Counts:   map[string]int64{"entities": sum.Entities, "partitions": sum.Partitions, "largest": hot.Entities, "median": median},
			Examples: ex,
		},
		Pattern: "hot partitions (high-traffic partition)",
		Advice: fmt.Sprintf("A partition serves about %s entities a second and the account %s, so a partition with more than %s of "+
			"the data becomes the bottleneck first when traffic follows the data. Split it: add a second value to its PartitionKey "+
			"(e.g. %s), or a hashed prefix, so its entities spread over several partitions.",
			num(PartitionTarget), num(AccountTarget), pct(hotShare), odata.Quote(hot.PartitionKey+"_<employee or customer id>")),
	}}
}

// ratioText renders a/b as "12" or "4.5" (times).
func ratioText(a, b int64) string {
	if b == 0 {
		return "∞"
	}
	r := float64(a) / float64(b)
	if r >= 10 || r == float64(int64(r)) {
		return strconv.FormatInt(int64(r), 10)
	}
	return strconv.FormatFloat(r, 'f', 1, 64)
}

// spreadFindings reports entity-per-partition.
func (s *Stats) spreadFindings(sum *Summary) []Finding {
	if sum.Entities < 2 || sum.Partitions != sum.Entities {
		return nil
	}
	ex := []string{}
	for _, pk := range s.partitionAt {
		ex = append(ex, odata.Quote(pk))
	}
	return []Finding{{
		ID:       IDEntityPerPartition,
		Severity: SeverityInfo,
		Title:    "every partition holds one entity",
		Evidence: Evidence{
			Summary:  fmt.Sprintf("%s partitions for %s entities", num(sum.Partitions), num(sum.Entities)),
			Counts:   map[string]int64{"entities": sum.Entities, "partitions": sum.Partitions},
			Examples: ex,
		},
		Pattern: "partition design: spread versus entity group transactions",
		Advice: "The widest spread there is: load balances well and point queries are cheap. But an entity group transaction " +
			"covers one partition, so no two entities can change together atomically, and any query without the exact " +
			"PartitionKey is a table scan. Group entities that are read or changed together under one PartitionKey if that is a need.",
	}}
}

// throughputFinding compares the expected write rate with the targets.
func (s *Stats) throughputFinding(sum *Summary, rate float64) Finding {
	share, where := 0.0, ""
	if len(sum.LargestPartitions) > 0 {
		share, where = sum.LargestPartitions[0].Share, odata.Quote(sum.LargestPartitions[0].PartitionKey)
	}
	basis := fmt.Sprintf("the largest partition, %s, holds %s of the entities", where, pct(share))
	if s.appendOnly() {
		share = 1
		basis = "the PartitionKeys follow time, so every new entity goes to the newest partition"
	}
	hottest := share * rate
	f := Finding{
		ID:       IDThroughput,
		Severity: SeverityInfo,
		Title:    fmt.Sprintf("%s writes/s: about %s/s on the hottest partition", fmtRate(rate), fmtRate(hottest)),
		Evidence: Evidence{
			Summary: fmt.Sprintf("%s; at %s writes a second that partition takes about %s/s (target %s/s a partition), the account %s/s (target %s/s)",
				basis, fmtRate(rate), fmtRate(hottest), num(PartitionTarget), fmtRate(rate), num(AccountTarget)),
			Counts: map[string]int64{"rate": int64(rate), "hottestPartitionRate": int64(hottest + 0.5), "partitionTarget": PartitionTarget, "accountTarget": AccountTarget},
		},
		Pattern: "scalability targets",
		Advice:  "Within the targets for this key distribution.",
	}
	switch {
	case hottest > PartitionTarget && rate > AccountTarget:
		f.Severity = SeverityWarning
		f.Advice = "Both the hottest partition and the account would be over their targets: spread the keys (compound or hashed-prefix PartitionKey) and spread the load over several storage accounts."
	case hottest > PartitionTarget:
		f.Severity = SeverityWarning
		f.Advice = "The hottest partition would be throttled (503 Server Busy) long before the account is busy: spread its keys with a compound or hashed-prefix PartitionKey so the writes fall on several partitions."
	case rate > AccountTarget:
		f.Severity = SeverityWarning
		f.Advice = "The account would be over its target however the keys are spread: spread the tables over several storage accounts."
	}
	return f
}

// fmtRate renders a rate in entities per second.
func fmtRate(r float64) string {
	return num(int64(r + 0.5))
}
