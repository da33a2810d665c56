package design

import (
	"bufio"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"slices"
	"strings"

	"github.com/tstable/tstable/backend"
	"github.com/tstable/tstable/odata"
)

// QueryLine is one query of a workload file: a $filter and its line, and
// for a line of a query log the table it was run on.
type QueryLine struct {
	Line   int
	Text   string
	Filter *odata.Filter
	Table  string // "" for a plain $filter line, which applies to any table
}

// LineError is a workload line that does not parse.
type LineError struct {
	Line int
	Err  error
}

func (e *LineError) Error() string { return fmt.Sprintf("line %d: %v", e.Line, e.Err) }
func (e *LineError) Unwrap() error { return e.Err }

// Workload is what ParseQueries read: the queries to advise on and the
// lines it left out, counted by why.
type Workload struct {
	Queries []QueryLine
	Read    ReadSummary
}

// ReadSummary counts the lines of a workload file: how many were read,
// how many became queries and how many were skipped, and why. Advise
// adds the queries it skipped for being logged on other tables.
type ReadSummary struct {
	Lines   int `json:"lines"`
	Queries int `json:"queries"` // the queries advised on
	Skipped int `json:"skipped"` // every line that is not one of them
	// BlankOrComment counts blank lines and lines starting with #.
	BlankOrComment int `json:"blankOrComment"`
	// Unfiltered counts the log's reads without a filter: a whole table
	// read on purpose, nothing to advise on.
	Unfiltered int `json:"unfiltered"`
	// Repeats counts the log's lines that repeat a query of the same
	// table, advised on once.
	Repeats int `json:"repeats"`
	// OtherTables counts the queries logged on other tables, named in
	// OtherTableNames.
	OtherTables     int      `json:"otherTables"`
	OtherTableNames []string `json:"otherTableNames,omitempty"`
	// Unreadable counts the lines that look like the log's ({…}) but are
	// not one of its lines, the first of them in UnreadableLines.
	Unreadable      int   `json:"unreadable"`
	UnreadableLines []int `json:"unreadableLines,omitempty"`
}

// maxUnreadableLines bounds the unreadable lines a ReadSummary names.
const maxUnreadableLines = 5

// ParseQueries reads a workload: one $filter a line; blank lines and lines
// starting with # are skipped. It also reads the query log tstable serve
// --log writes, one JSON object a line ({"table":…,"filter":…,…}), told
// apart by the '{' a line starts with: each filter is kept once per table,
// queries without a filter are left out (there is nothing to advise on
// reading a whole table on purpose), and so are the lines that are not
// the log's (a line cut short when the server stopped): the Workload's
// ReadSummary counts each. The first $filter line that does not parse is
// returned as a *LineError wrapping the parser's error.
func ParseQueries(r io.Reader) (*Workload, error) {
	w := &Workload{}
	rs := &w.Read
	seen := map[[2]string]bool{}
	sc := bufio.NewScanner(r)
	sc.Buffer(make([]byte, 64<<10), 1<<20)
	n := 0
	for sc.Scan() {
		n++
		text := strings.TrimSpace(sc.Text())
		if text == "" || strings.HasPrefix(text, "#") {
			rs.BlankOrComment++
			continue
		}
		table := ""
		if strings.HasPrefix(text, "{") {
			var logged struct {
				Table  string  `json:"table"`
				Filter *string `json:"filter"`
			}
			if err := json.Unmarshal([]byte(text), &logged); err != nil || logged.Filter == nil || logged.Table == "" {
				rs.unreadable(n)
				continue
			}
			table, text = logged.Table, strings.TrimSpace(*logged.Filter)
			k := [2]string{strings.ToLower(table), text}
			switch {
			case text == "":
				rs.Unfiltered++
				continue
			case seen[k]:
				rs.Repeats++
				continue
			}
			seen[k] = true
			f, err := odata.ParseFilter(text)
			if err != nil {
				rs.unreadable(n)
				continue
			}
			w.Queries = append(w.Queries, QueryLine{Line: n, Text: text, Filter: f, Table: table})
			continue
		}
		f, err := odata.ParseFilter(text)
		if err != nil {
			return nil, &LineError{Line: n, Err: err}
		}
		w.Queries = append(w.Queries, QueryLine{Line: n, Text: text, Filter: f})
	}
	rs.Lines = n
	rs.Queries = len(w.Queries)
	rs.Skipped = n - rs.Queries
	return w, sc.Err()
}

func (rs *ReadSummary) unreadable(line int) {
	rs.Unreadable++
	if len(rs.UnreadableLines) < maxUnreadableLines {
		rs.UnreadableLines = append(rs.UnreadableLines, line)
	}
}

// skipOtherTable counts a query Advise leaves out for being logged on
// another table.
func (rs *ReadSummary) skipOtherTable(table string) {
	rs.OtherTables++
	rs.Queries--
	rs.Skipped++
	if !slices.ContainsFunc(rs.OtherTableNames, func(t string) bool { return strings.EqualFold(t, table) }) {
		rs.OtherTableNames = append(rs.OtherTableNames, table)
	}
}

// Proposal kinds: the guide's fixes Advise proposes.
const (
	KindIntraIndex   = "intra-partition-secondary-index"
	KindCompoundKey  = "compound-rowkey"
	KindInterIndex   = "inter-partition-secondary-index"
	KindIndexEntity  = "index-entities"
	KindPointQueries = "point-queries"
	KindPartitionKey = "add-partition-key"
)

// patternName is the guide's name for a proposal kind.
func patternName(kind string) string {
	switch kind {
	case KindIntraIndex:
		return "intra-partition secondary index"
	case KindCompoundKey:
		return "compound key"
	case KindInterIndex:
		return "inter-partition secondary index"
	case KindIndexEntity:
		return "index entities"
	case KindPointQueries:
		return "point queries instead of 'or'"
	case KindPartitionKey:
		return "both keys in the query"
	}
	return ""
}

// manyMatches is where Advise prefers index entities to copies: a value
// shared by more entities than this would copy all of them once more,
// while an index entity lists their keys in one place.
const manyMatches = 100

// Proposal is a change of design that makes one query cheaper.
type Proposal struct {
	Kind    string `json:"kind"`
	Pattern string `json:"pattern"`
	// Prefix is the RowKey or PartitionKey prefix the design would use, e.g. "email_".
	Prefix string `json:"prefix,omitempty"`
	// Query is the query the application would run instead.
	Query string `json:"query"`
	// Class is the query class it would have, and Scanned what it would read.
	Class   odata.QueryClass `json:"class"`
	Scanned int64            `json:"scanned"`
	// Exists says the table already holds the keys the proposal needs.
	Exists bool   `json:"exists,omitempty"`
	Text   string `json:"text"`
}

// QueryAdvice is what Advise found out about one query.
type QueryAdvice struct {
	Line     int              `json:"line"`
	Filter   string           `json:"filter"`
	Class    odata.QueryClass `json:"class"`
	Ranges   []string         `json:"ranges"`
	Scanned  int64            `json:"scanned"`
	Returned int64            `json:"returned"`
	Reason   string           `json:"reason"`
	Proposal *Proposal        `json:"proposal,omitempty"`
	// Notes say why the query can never match (a property no entity has,
	// a literal of a type the property never holds); it then gets no
	// proposal: the query is to be fixed, not indexed.
	Notes []FilterNote `json:"notes,omitempty"`
}

// ProposalSummary is one proposed change and what it saves over the whole
// workload: the entities the workload would no longer scan.
type ProposalSummary struct {
	Kind    string  `json:"kind"`
	Pattern string  `json:"pattern"`
	Prefix  string  `json:"prefix,omitempty"`
	Lines   []int   `json:"lines"`
	Removed int64   `json:"removedScans"`
	Share   float64 `json:"share"`
}

// Advice is Advise's report on a workload.
type Advice struct {
	Table     string            `json:"table,omitempty"`
	Read      ReadSummary       `json:"read"`
	Queries   []QueryAdvice     `json:"queries"`
	Scanned   int64             `json:"scanned"`
	Returned  int64             `json:"returned"`
	Proposals []ProposalSummary `json:"proposals"`
}

// Advise runs each query against table, to the end, through b.Query (the
// planner decides the class and the ranges; the store counts what it
// scanned and returned), and proposes for each query that is not a point
// or range query the guide's fix for this data. The proposal depends on
// what the query found: a value shared by every match can become a key
// (point query for one match, a range or a partition for several); values
// that differ call for an index ordered by the value (a range query).
func Advise(ctx context.Context, b backend.Backend, table string, w *Workload) (*Advice, error) {
	a := &Advice{Table: table, Read: w.Read, Queries: []QueryAdvice{}, Proposals: []ProposalSummary{}}
	for _, q := range w.Queries {
		if q.Table != "" && !strings.EqualFold(q.Table, table) {
			a.Read.skipOtherTable(q.Table)
			continue
		}
		qa, err := adviseOne(ctx, b, table, q)
		if err != nil {
			return nil, fmt.Errorf("line %d: %w", q.Line, err)
		}
		a.Queries = append(a.Queries, *qa)
		a.Scanned += max(qa.Scanned, 0)
		a.Returned += qa.Returned
	}
	a.summarize()
	return a, nil
}

// matchShape is what the matches of one query look like, in bounded memory.
type matchShape struct {
	props      []string
	first      []odata.Value
	varies     []bool
	firstPK    string
	partitions int // distinct PartitionKeys, counted up to 2
	returned   int64
}

func (m *matchShape) add(e *odata.Entity) {
	if m.returned == 0 {
		m.firstPK = e.PartitionKey
		m.partitions = 1
	} else if e.PartitionKey != m.firstPK {
		m.partitions = 2
	}
	for i, p := range m.props {
		v, _ := e.Get(p)
		if m.returned == 0 {
			m.first[i] = v
		} else if !v.Equal(m.first[i]) {
			m.varies[i] = true
		}
	}
	m.returned++
}

// oneValue reports whether every match has the same value of every property.
func (m *matchShape) oneValue() bool {
	return !slices.Contains(m.varies, true)
}

func adviseOne(ctx context.Context, b backend.Backend, table string, q QueryLine) (*QueryAdvice, error) {
	var others []string
	hasRowKey := false
	for _, p := range q.Filter.Properties() {
		switch p {
		case odata.PartitionKey, odata.Timestamp:
		case odata.RowKey:
			hasRowKey = true
		default:
			others = append(others, p)
		}
	}
	m := &matchShape{props: others, first: make([]odata.Value, len(others)), varies: make([]bool, len(others))}
	res, err := b.Query(ctx, table, backend.QueryRequest{Query: odata.Query{Filter: q.Filter}}, func(e *odata.Entity) error {
		m.add(e)
		return nil
	})
	if err != nil {
		return nil, err
	}
	plan := res.Plan
	if plan == nil {
		plan = odata.PlanQuery(q.Filter)
	}
	qa := &QueryAdvice{Line: q.Line, Filter: q.Filter.String(), Class: plan.Class, Ranges: []string{},
		Scanned: res.Scanned, Returned: res.Returned, Reason: plan.Reason()}
	for _, r := range plan.Ranges {
		qa.Ranges = append(qa.Ranges, r.String())
	}
	if plan.Class == odata.ClassPoint || plan.Class == odata.ClassRange || len(plan.Ranges) == 0 {
		return qa, nil
	}
	if res.Returned == 0 {
		notes, err := FilterNotes(ctx, b, table, q.Filter, NoteScanLimit)
		if err != nil {
			return nil, err
		}
		if qa.Notes = notes; len(notes) > 0 {
			return qa, nil
		}
	}
	var pk string
	if plan.Class == odata.ClassPartitionScan {
		pk = plan.Ranges[0].Lower.PartitionKey
	}
	if m.returned == 0 && len(others) > 0 {
		qa.Proposal = proposeForNoMatch(plan.Class, pk, others, comparedByEq(q.Filter, others))
		return qa, nil
	}
	qa.Proposal = propose(plan.Class, pk, hasRowKey, m)
	if p := qa.Proposal; p != nil && p.Kind == KindIntraIndex && m.oneValue() && m.returned > 0 {
		// The copy may exist already (the employees sample keeps one per
		// email): then the lookup is a point query today.
		rk := p.Prefix + m.first[0].Text()
		if _, err := b.Get(ctx, table, pk, rk); err == nil {
			p.Exists = true
			p.Class, p.Scanned = odata.ClassPoint, 1
			p.Query = "PartitionKey eq " + odata.Quote(pk) + " and RowKey eq " + odata.Quote(rk)
			p.Text = fmt.Sprintf("The table already keeps a copy of the entity under RowKey %s in partition %s: look it up there, a point query, instead of filtering on %s.",
				odata.Quote(rk), odata.Quote(pk), m.props[0])
		}
	}
	return qa, nil
}

// propose picks the guide's fix for a partition or table scan.
func propose(class odata.QueryClass, pk string, hasRowKey bool, m *matchShape) *Proposal {
	n := m.returned
	if len(m.props) == 0 {
		switch {
		case class == odata.ClassPartitionScan && hasRowKey:
			return &Proposal{Kind: KindPointQueries, Pattern: patternName(KindPointQueries), Class: odata.ClassPoint, Scanned: n,
				Query: "PartitionKey eq " + odata.Quote(pk) + " and RowKey eq '…' (one query per RowKey)",
				Text:  "Send one point query per RowKey value (in parallel if you like) instead of joining them with 'or': each reads one entity."}
		case class == odata.ClassTableScan && m.partitions == 1:
			return &Proposal{Kind: KindPartitionKey, Pattern: patternName(KindPartitionKey), Class: odata.ClassRange, Scanned: n,
				Query: "PartitionKey eq " + odata.Quote(m.firstPK) + " and <the RowKey conditions>",
				Text:  "Every match is in partition " + odata.Quote(m.firstPK) + ": name it with PartitionKey eq and the query reads one key range."}
		}
		return nil // a whole partition or table read on purpose
	}
	prefix := strings.ToLower(strings.Join(m.props, "_")) + "_"
	value := ""
	if m.oneValue() && n > 0 {
		var vs []string
		for _, v := range m.first {
			vs = append(vs, v.Text())
		}
		value = strings.Join(vs, "_")
	}
	if class == odata.ClassPartitionScan {
		p := &Proposal{Kind: KindIntraIndex, Prefix: prefix}
		if len(m.props) > 1 {
			p.Kind = KindCompoundKey
		}
		name := strings.Join(m.props, " and ")
		switch {
		case value != "" && n == 1:
			p.Class, p.Scanned = odata.ClassPoint, 1
			p.Query = "PartitionKey eq " + odata.Quote(pk) + " and RowKey eq " + odata.Quote(prefix+value)
			p.Text = fmt.Sprintf("Store a copy of each entity in partition %s under RowKey %s, written with the entity in one entity group transaction: the lookup by %s becomes a point query.",
				odata.Quote(pk), odata.Quote(prefix+"<"+name+">"), name)
		case value != "":
			p.Class, p.Scanned = odata.ClassRange, n
			p.Query = "PartitionKey eq " + odata.Quote(pk) + " and RowKey ge " + odata.Quote(prefix+value+"_") + " and RowKey lt " + odata.Quote(prefix+value+"`")
			p.Text = fmt.Sprintf("Store a copy of each entity in partition %s under RowKey %s (the original RowKey keeps the copies apart): the %d matches become one range query.",
				odata.Quote(pk), odata.Quote(prefix+"<"+name+">_<RowKey>"), n)
		default:
			p.Class, p.Scanned = odata.ClassRange, n
			p.Query = "PartitionKey eq " + odata.Quote(pk) + " and RowKey ge " + odata.Quote(prefix+"<from>") + " and RowKey lt " + odata.Quote(prefix+"<to>")
			p.Text = fmt.Sprintf("The matches have different values of %s: store copies under RowKey %s, numbers zero-padded so they sort, and read the wanted values as one range query.",
				name, odata.Quote(prefix+"<"+name+">_<RowKey>"))
		}
		p.Pattern = patternName(p.Kind)
		return p
	}
	// A table scan: the matches may lie in any partition.
	name := strings.Join(m.props, " and ")
	switch {
	case value != "" && n > manyMatches:
		return &Proposal{Kind: KindIndexEntity, Pattern: patternName(KindIndexEntity), Prefix: prefix,
			Class: odata.ClassPoint, Scanned: 1 + n,
			Query: "PartitionKey eq " + odata.Quote(strings.TrimSuffix(prefix, "_")) + " and RowKey eq " + odata.Quote(value) + ", then a point query per listed key",
			Text: fmt.Sprintf("%d entities share this value: keep one index entity per value of %s (PartitionKey %s, RowKey the value) whose property lists the matching keys; one point query finds them all.",
				n, name, odata.Quote(strings.TrimSuffix(prefix, "_")))}
	case value != "":
		return &Proposal{Kind: KindInterIndex, Pattern: patternName(KindInterIndex), Prefix: prefix,
			Class: odata.ClassPartitionScan, Scanned: n,
			Query: "PartitionKey eq " + odata.Quote(prefix+value),
			Text: fmt.Sprintf("Keep a copy of each entity in one partition per value of %s, PartitionKey %s, RowKey the original keys: the query reads that partition, which holds the matches and nothing else. The copies live in other partitions than the entity, so update them in a second step (eventually consistent transactions).",
				name, odata.Quote(prefix+"<"+name+">"))}
	default:
		return &Proposal{Kind: KindInterIndex, Pattern: patternName(KindInterIndex), Prefix: prefix,
			Class: odata.ClassRange, Scanned: n,
			Query: "PartitionKey eq " + odata.Quote(strings.TrimSuffix(prefix, "_")) + " and RowKey ge '<from>' and RowKey lt '<to>'",
			Text: fmt.Sprintf("The matches have different values of %s: keep copies under PartitionKey %s with RowKey %s (numbers zero-padded) and read the wanted values as one range query.",
				name, odata.Quote(strings.TrimSuffix(prefix, "_")), odata.Quote("<"+name+">_<PartitionKey>_<RowKey>"))}
	}
}

// comparedByEq reports whether f compares each of props with eq alone.
func comparedByEq(f *odata.Filter, props []string) bool {
	eq := true
	f.EachComparison(func(c odata.Comparison) {
		if slices.Contains(props, c.Property) && c.Op != "eq" {
			eq = false
		}
	})
	return eq
}

// proposeForNoMatch is the guide's fix for a scan that matches nothing in
// the data today, as for one that matches: the same copies, keyed by the
// values of props, which the query names (byValue: every comparison of
// them is eq) or reads as a range.
func proposeForNoMatch(class odata.QueryClass, pk string, props []string, byValue bool) *Proposal {
	prefix := strings.ToLower(strings.Join(props, "_")) + "_"
	name := strings.Join(props, " and ")
	value := "<" + strings.Join(props, ">_<") + ">"
	const none = "No entity matches today. "
	if class == odata.ClassPartitionScan {
		p := &Proposal{Kind: KindIntraIndex, Prefix: prefix, Class: odata.ClassRange}
		if len(props) > 1 {
			p.Kind = KindCompoundKey
		}
		p.Pattern = patternName(p.Kind)
		if byValue {
			p.Query = "PartitionKey eq " + odata.Quote(pk) + " and RowKey ge " + odata.Quote(prefix+value+"_") + " and RowKey lt " + odata.Quote(prefix+value+"`")
			p.Text = fmt.Sprintf(none+"Store a copy of each entity in partition %s under RowKey %s, written with the entity in one entity group transaction: the lookup by %s becomes one range query that reads its matches and nothing else.",
				odata.Quote(pk), odata.Quote(prefix+value+"_<RowKey>"), name)
		} else {
			p.Query = "PartitionKey eq " + odata.Quote(pk) + " and RowKey ge " + odata.Quote(prefix+"<from>") + " and RowKey lt " + odata.Quote(prefix+"<to>")
			p.Text = fmt.Sprintf(none+"Store copies under RowKey %s, numbers zero-padded so they sort, and read the wanted values of %s as one range query.",
				odata.Quote(prefix+value+"_<RowKey>"), name)
		}
		return p
	}
	p := &Proposal{Kind: KindInterIndex, Pattern: patternName(KindInterIndex), Prefix: prefix}
	if byValue {
		p.Class = odata.ClassPartitionScan
		p.Query = "PartitionKey eq " + odata.Quote(prefix+value)
		p.Text = fmt.Sprintf(none+"Keep a copy of each entity in one partition per value of %s, PartitionKey %s, RowKey the original keys: the query reads that partition, which holds the matches and nothing else. The copies live in other partitions than the entity, so update them in a second step (eventually consistent transactions).",
			name, odata.Quote(prefix+value))
	} else {
		p.Class = odata.ClassRange
		p.Query = "PartitionKey eq " + odata.Quote(strings.TrimSuffix(prefix, "_")) + " and RowKey ge '<from>' and RowKey lt '<to>'"
		p.Text = fmt.Sprintf(none+"Keep copies under PartitionKey %s with RowKey %s (numbers zero-padded) and read the wanted values of %s as one range query.",
			odata.Quote(strings.TrimSuffix(prefix, "_")), odata.Quote(value+"_<PartitionKey>_<RowKey>"), name)
	}
	return p
}

// summarize adds up, per proposal, the scans it would remove.
func (a *Advice) summarize() {
	idx := map[string]int{}
	for _, q := range a.Queries {
		p := q.Proposal
		if p == nil || q.Scanned < 0 {
			continue
		}
		key := p.Kind + "\x00" + p.Prefix
		i, ok := idx[key]
		if !ok {
			i = len(a.Proposals)
			idx[key] = i
			a.Proposals = append(a.Proposals, ProposalSummary{Kind: p.Kind, Pattern: p.Pattern, Prefix: p.Prefix, Lines: []int{}})
		}
		s := &a.Proposals[i]
		s.Lines = append(s.Lines, q.Line)
		s.Removed += max(0, q.Scanned-p.Scanned)
	}
	for i := range a.Proposals {
		a.Proposals[i].Share = ratio(a.Proposals[i].Removed, a.Scanned)
	}
	slices.SortStableFunc(a.Proposals, func(x, y ProposalSummary) int {
		switch {
		case x.Removed > y.Removed:
			return -1
		case x.Removed < y.Removed:
			return 1
		}
		return 0
	})
}
