package odata

import "strings"

// Diagnosis names why the planner classed a query as it did. The ids are
// stable: scripts may match on them (explain -o json writes them as
// "diagnosis"), as they match lint's finding ids. The planner decides the
// diagnosis; diagnosisWords alone says it in words.
type Diagnosis string

// The diagnoses, by the class they go with.
const (
	// point
	DiagPoint Diagnosis = "point" // both keys fixed by eq
	// range
	DiagRowRange Diagnosis = "row-range" // PartitionKey eq and RowKey bounds
	// partition-scan
	DiagRowKeyOr           Diagnosis = "row-key-or"          // RowKey conditions joined by or
	DiagRowKeyExcluded     Diagnosis = "row-key-excluded"    // RowKey only under ne or not
	DiagPartitionFiltered  Diagnosis = "partition-filtered"  // another property checked on the partition's entities
	DiagPartitionTimestamp Diagnosis = "partition-timestamp" // the same, and the first such property is Timestamp
	DiagWholePartition     Diagnosis = "whole-partition"     // PartitionKey eq alone
	// table-scan
	DiagNoFilter               Diagnosis = "no-filter"                 // no filter at all
	DiagPartitionRange         Diagnosis = "partition-range"           // PartitionKey bounded, not fixed
	DiagPartitionOr            Diagnosis = "partition-or"              // PartitionKey under or/not
	DiagRowKeyWithoutPartition Diagnosis = "row-key-without-partition" // RowKey filtered, PartitionKey not fixed
	DiagTableFiltered          Diagnosis = "table-filtered"            // other properties checked on every entity
	DiagTableTimestamp         Diagnosis = "table-timestamp"           // the same, and the first such property is Timestamp
	DiagNoKeyCondition         Diagnosis = "no-key-condition"          // nothing narrows: PartitionKey only by ne, say
	// any class: the filter matches nothing and nothing is read
	DiagPartitionKeysConflict  Diagnosis = "partition-keys-conflict"  // PartitionKey eq two values, or eq outside its bounds
	DiagPartitionBoundsCrossed Diagnosis = "partition-bounds-crossed" // PartitionKey's lower bound above its upper
	DiagRowKeyBoundsCrossed    Diagnosis = "row-key-bounds-crossed"   // RowKey's lower bound above its upper
	DiagKeyNotString           Diagnosis = "key-not-string"           // a key compared with a literal that is not a string
	DiagTimestampNotDateTime   Diagnosis = "timestamp-not-datetime"   // Timestamp compared with a literal that is not a datetime
	DiagConditionFalse         Diagnosis = "condition-false"          // the condition false, which never holds
)

// diagnosisWords says each diagnosis to people: why the class is what it
// is, and what a table designer could do. The words may name the facts of
// the filter: {partition} the PartitionKey fixed by eq, {filtered} the
// other properties checked, {first} the first of them ({first-lower} in
// lower case), {range} the run of partitions read, {property} and
// {literal} a comparison that can never hold.
var diagnosisWords = map[Diagnosis]struct{ reason, advice string }{
	DiagPoint: {
		"PartitionKey and RowKey are both fixed by eq, so the service reads one entity.",
		"Nothing to improve: a point query is the cheapest read there is."},
	DiagRowRange: {
		"PartitionKey is fixed by eq and RowKey is bounded, so the service reads one run of keys inside partition {partition}.",
		"Good shape: keep the RowKey range as tight as the question allows; RowKey prefixes (such as 'email_') let one range read just one kind of entity."},
	DiagRowKeyOr: {
		"PartitionKey is fixed by eq, but the RowKey conditions are joined by 'or', which the service does not turn into ranges: it reads the whole partition {partition}.",
		"Run one point query per RowKey value instead (in parallel if you like): each reads one entity, where this reads the partition."},
	DiagRowKeyExcluded: {
		"PartitionKey is fixed by eq, but RowKey is only excluded (ne or not), which narrows nothing: the service reads the whole partition {partition}.",
		"An exclusion cannot shrink a read; if the wanted rows share a RowKey prefix or range, ask for that range (ge … and lt …) instead."},
	DiagPartitionFiltered: {
		"PartitionKey is fixed by eq but RowKey is not, so the service reads every entity of partition {partition} and checks {filtered} on each.",
		"If you look entities up by {first} often, store a copy under a RowKey such as '{first-lower}_<value>' in the same partition (intra-partition secondary index), or build {first} into a compound RowKey, to make this a point or range query."},
	DiagPartitionTimestamp: {
		"PartitionKey is fixed by eq but RowKey is not, so the service reads every entity of partition {partition} and checks {filtered} on each.",
		timeAdvice},
	DiagWholePartition: {
		"PartitionKey is fixed by eq and nothing narrows RowKey, so the service reads the whole partition {partition}.",
		"Reading a whole partition is fine when you need all of it; add RowKey bounds to read less."},
	DiagNoFilter: {
		"There is no filter, so every entity of every partition is read.",
		"Query by PartitionKey (and RowKey) to read a part of the table; a full read is fine only for export and batch work."},
	DiagPartitionRange: {
		"PartitionKey is only bounded, not fixed by eq: a table scan in the guide's terms, but it reads only the partitions in {range}, each one after the other.",
		"Fine for batch and export work; for interactive queries fix PartitionKey with eq, since every partition in the range is a separate server hop."},
	DiagPartitionOr: {
		"PartitionKey is compared under 'or' (or 'not'), so no single partition is named and the service scans every partition.",
		"Run one query per partition instead (in parallel if you like), each with PartitionKey eq, and merge the results."},
	DiagRowKeyWithoutPartition: {
		"RowKey is filtered but PartitionKey is not fixed, so the service looks for the RowKey in every partition: a table scan.",
		"Add PartitionKey eq to the query: with both keys it becomes a point or range query."},
	DiagTableFiltered: {
		"No PartitionKey eq condition, so the service reads every partition and checks {filtered} on each entity.",
		"If you look entities up by {first} often, keep copies keyed by it in other partitions (inter-partition secondary index) or an index entity per value listing the matching keys (index entities pattern)."},
	DiagTableTimestamp: {
		"No PartitionKey eq condition, so the service reads every partition and checks {filtered} on each entity.",
		timeAdvice},
	DiagNoKeyCondition: {
		"No PartitionKey eq condition, so the service reads every partition.",
		"Query by PartitionKey (and RowKey) to read a part of the table."},
	DiagPartitionKeysConflict: {
		"The PartitionKey conditions exclude each other, so the filter matches nothing and nothing is read.",
		"Check the PartitionKey conditions: a key has one value, so two different eq values (or an eq outside the bounds) can never hold together."},
	DiagPartitionBoundsCrossed: {
		"The PartitionKey bounds exclude each other, so the filter matches nothing and nothing is read.",
		"Check the PartitionKey bounds: the lower one lies above the upper one."},
	DiagRowKeyBoundsCrossed: {
		"The RowKey conditions exclude each other, so the filter matches nothing and nothing is read.",
		"Check the RowKey bounds: the lower one lies above the upper one."},
	DiagKeyNotString: {
		"{property} is an Edm.String and never equals or orders against {literal}, so the filter matches nothing and nothing is read.",
		"Write the key as a string literal, e.g. RowKey eq '00010' (pad numbers to a fixed width so they sort right)."},
	DiagTimestampNotDateTime: {
		"Timestamp is an Edm.DateTime and never compares with {literal}, so the filter matches nothing and nothing is read.",
		"Compare Timestamp with a datetime literal, e.g. Timestamp ge datetime'2014-08-22T00:00:00Z'."},
	DiagConditionFalse: {
		"The condition false never holds, so the filter matches nothing and nothing is read.",
		"Drop the false condition, or the query, which returns nothing."},
}

// timeAdvice is the advice for filtering on Timestamp, which no index covers.
const timeAdvice = "Timestamp is not indexed: to read recent entities cheaply, put the time in the RowKey (the log tail pattern uses inverted ticks so the newest sort first) and read a RowKey range."

// Diagnoses lists every diagnosis, in the order of their constants.
func Diagnoses() []Diagnosis {
	return []Diagnosis{
		DiagPoint, DiagRowRange,
		DiagRowKeyOr, DiagRowKeyExcluded, DiagPartitionFiltered, DiagPartitionTimestamp, DiagWholePartition,
		DiagNoFilter, DiagPartitionRange, DiagPartitionOr, DiagRowKeyWithoutPartition, DiagTableFiltered, DiagTableTimestamp, DiagNoKeyCondition,
		DiagPartitionKeysConflict, DiagPartitionBoundsCrossed, DiagRowKeyBoundsCrossed, DiagKeyNotString, DiagTimestampNotDateTime, DiagConditionFalse,
	}
}

// Reason says in a sentence why the plan's class is what it is: its
// diagnosis in words, naming the filter's facts. Like Advice, it is built
// when asked (by explain, advise, the console), never when a query is only
// planned and run.
func (p *Plan) Reason() string {
	reason, _ := p.words()
	return reason
}

// Advice says in a sentence or two what a table designer could do about
// the plan's class (see Reason).
func (p *Plan) Advice() string {
	_, advice := p.words()
	return advice
}

// words are Reason and Advice at once, built together.
func (p *Plan) words() (reason, advice string) {
	return p.Diagnosis.words(p.facts, p.Ranges)
}

// words says d in words for the filter whose facts are ff (nil: no
// filter) and which reads ranges.
func (d Diagnosis) words(ff *filterFacts, ranges []KeyRange) (reason, advice string) {
	w := diagnosisWords[d]
	if ff == nil {
		return w.reason, w.advice
	}
	var pairs []string
	if ff.pk.eq {
		pairs = append(pairs, "{partition}", formatLiteral(String(ff.pk.lo)))
	}
	if len(ff.others) > 0 {
		pairs = append(pairs, "{filtered}", strings.Join(ff.others, ", "), "{first}", ff.others[0], "{first-lower}", strings.ToLower(ff.others[0]))
	}
	if len(ranges) > 0 {
		pairs = append(pairs, "{range}", ranges[0].String())
	}
	if n := ff.never; n != nil {
		pairs = append(pairs, "{property}", n.prop, "{literal}", n.lit.Type.String()+" "+formatLiteral(n.lit))
	}
	r := strings.NewReplacer(pairs...)
	return r.Replace(w.reason), r.Replace(w.advice)
}
