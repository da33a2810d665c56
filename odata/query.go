package odata

// QueryClass is the design guide's name for how much of a table a query reads.
type QueryClass string

// The four query classes, best to worst.
const (
	ClassPoint         QueryClass = "point"
	ClassRange         QueryClass = "range"
	ClassPartitionScan QueryClass = "partition-scan"
	ClassTableScan     QueryClass = "table-scan"
)

// Text is the guide's words for the class: "point query", "range query",
// "partition scan" or "table scan".
func (c QueryClass) Text() string {
	switch c {
	case ClassPoint:
		return "point query"
	case ClassRange:
		return "range query"
	case ClassPartitionScan:
		return "partition scan"
	case ClassTableScan:
		return "table scan"
	}
	return string(c)
}

// Query is a parsed query: a filter (nil matches every entity), a
// projection (nil selects every property) and a page limit (0: none).
type Query struct {
	Filter *Filter
	Select []string
	Top    int
}

// Plan is what the planner derives from a filter: the decision — the query
// class, the key ranges a store must read (sorted, disjoint; a store reads
// nothing outside them) and the diagnosis that says why. Its words (Reason
// and Advice, diagnosis.go) are built from the diagnosis and the filter's
// facts only when something prints them, not for every query run.
type Plan struct {
	Class     QueryClass
	Ranges    []KeyRange
	Diagnosis Diagnosis
	facts     *filterFacts // what the words may name; nil: no filter
}
