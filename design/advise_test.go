package design

import (
	"context"
	"errors"
	"slices"
	"strings"
	"testing"

	"github.com/tstable/tstable/odata"
)

func adviseOn(t *testing.T, workload string) *Advice {
	t.Helper()
	b := loaded(t, "Employees", sampleTable(t, "employees", "Employees", 200))
	qs, err := ParseQueries(strings.NewReader(workload))
	if err != nil {
		t.Fatal(err)
	}
	a, err := Advise(context.Background(), b, "Employees", qs)
	if err != nil {
		t.Fatal(err)
	}
	return a
}

func TestAdviseGuideExamples(t *testing.T) {
	a := adviseOn(t, `# the guide's examples
LastName eq 'Jones'

PartitionKey eq 'Sales' and Email eq 'jonesj@contoso.com'
PartitionKey eq 'Sales' and RowKey eq 'empid_000001'
`)
	if len(a.Queries) != 3 {
		t.Fatalf("%d queries", len(a.Queries))
	}
	jones := a.Queries[0]
	if jones.Line != 2 || jones.Class != odata.ClassTableScan || jones.Scanned != 402 || jones.Returned == 0 {
		t.Errorf("LastName eq 'Jones': %+v", jones)
	}
	if p := jones.Proposal; p == nil || p.Kind != KindInterIndex || p.Prefix != "lastname_" || p.Query != "PartitionKey eq 'lastname_Jones'" || p.Scanned != jones.Returned {
		t.Errorf("LastName eq 'Jones' proposal: %+v", jones.Proposal)
	}
	email := a.Queries[1]
	if email.Class != odata.ClassPartitionScan || email.Scanned != 201 || email.Returned != 2 { // the employee and its email_ copy
		t.Errorf("email query: %+v", email)
	}
	p := email.Proposal
	if p == nil || p.Kind != KindIntraIndex || p.Prefix != "email_" {
		t.Fatalf("email proposal: %+v", p)
	}
	// The sample already keeps the email_ copy: a point query today.
	if p.Class != odata.ClassPoint || !p.Exists || p.Scanned != 1 || p.Query != "PartitionKey eq 'Sales' and RowKey eq 'email_jonesj@contoso.com'" {
		t.Errorf("email proposal: %+v", p)
	}
	if a.Queries[2].Proposal != nil || a.Queries[2].Class != odata.ClassPoint {
		t.Errorf("point query: %+v", a.Queries[2])
	}
	if a.Scanned != 402+201+1 || len(a.Proposals) != 2 || a.Proposals[0].Prefix != "lastname_" || a.Proposals[0].Removed != 402-jones.Returned {
		t.Errorf("summary: scanned %d proposals %+v", a.Scanned, a.Proposals)
	}
}

func TestAdviseEmailLookupBecomesAPointQuery(t *testing.T) {
	// Only employees (EntityType eq 'Employee') match: one entity.
	a := adviseOn(t, "PartitionKey eq 'Sales' and Email eq 'jonesj@contoso.com' and EntityType eq 'Employee'\n")
	p := a.Queries[0].Proposal
	if p == nil || p.Kind != KindCompoundKey || p.Class != odata.ClassPoint || p.Scanned != 1 {
		t.Errorf("%+v", p)
	}
	a = adviseOn(t, "PartitionKey eq 'Sales' and Email eq 'jonesj@contoso.com' and not (RowKey ge 'email_' and RowKey lt 'email`')\n")
	q := a.Queries[0]
	if q.Returned != 1 || q.Proposal == nil || q.Proposal.Kind != KindIntraIndex || q.Proposal.Class != odata.ClassPoint ||
		q.Proposal.Query != "PartitionKey eq 'Sales' and RowKey eq 'email_jonesj@contoso.com'" || !q.Proposal.Exists {
		t.Errorf("%+v %+v", q, q.Proposal)
	}
}

func TestAdviseOtherShapes(t *testing.T) {
	a := adviseOn(t, `Age gt 60
PartitionKey eq 'Sales' and (RowKey eq 'empid_000001' or RowKey eq 'empid_000003')
RowKey eq 'empid_000002'
EntityType eq 'Employee'
`)
	want := []struct {
		kind  string
		class odata.QueryClass
	}{{KindInterIndex, odata.ClassRange}, {KindPointQueries, odata.ClassPoint}, {KindPartitionKey, odata.ClassRange}, {KindIndexEntity, odata.ClassPoint}}
	for i, w := range want {
		p := a.Queries[i].Proposal
		if p == nil || p.Kind != w.kind || p.Class != w.class || p.Pattern == "" {
			t.Errorf("line %d (%s): %+v", a.Queries[i].Line, a.Queries[i].Filter, p)
		}
	}
}

func TestParseQueriesReportsTheLine(t *testing.T) {
	_, err := ParseQueries(strings.NewReader("# ok\nAge gt 30\nAge gt\n"))
	var le *LineError
	if !errors.As(err, &le) || le.Line != 3 {
		t.Fatalf("%v", err)
	}
}

// The query log of tstable serve --log is a workload too: each table's
// filters once, other tables' lines left to their own advice, and every
// line left out counted by why.
func TestAdviseReadsTheServeQueryLog(t *testing.T) {
	log := `{"time":"2026-01-01T00:00:00Z","table":"Employees","filter":"LastName eq 'Jones'","class":"table-scan","scanned":200,"returned":2,"ms":1.5}
{"time":"2026-01-01T00:00:01Z","table":"employees","filter":"LastName eq 'Jones'","class":"table-scan","scanned":200,"returned":2,"ms":1.2}
{"time":"2026-01-01T00:00:02Z","table":"Orders","filter":"Status eq 'open'","class":"table-scan","scanned":9,"returned":1,"ms":0.3}
{"time":"2026-01-01T00:00:03Z","table":"Employees","filter":"","class":"table-scan","scanned":200,"returned":200,"ms":3}
{"table":"T"}
{"time":"2026-01-01T00:00:04Z","table":"Employees","filter":"Age gt
`
	w, err := ParseQueries(strings.NewReader(log))
	if err != nil || len(w.Queries) != 2 || w.Queries[0].Table != "Employees" || w.Queries[0].Line != 1 || w.Queries[1].Table != "Orders" {
		t.Fatalf("ParseQueries = %+v, %v", w, err)
	}
	a, err := Advise(context.Background(), loaded(t, "Employees", sampleTable(t, "employees", "Employees", 200)), "Employees", w)
	if err != nil {
		t.Fatal(err)
	}
	if len(a.Queries) != 1 || a.Queries[0].Filter != "LastName eq 'Jones'" || a.Queries[0].Proposal == nil {
		t.Errorf("advice on the log: %+v", a.Queries)
	}
	r := a.Read
	if r.Lines != 6 || r.Queries != 1 || r.Skipped != 5 || r.Repeats != 1 || r.OtherTables != 1 || r.Unfiltered != 1 ||
		r.Unreadable != 2 || !slices.Equal(r.UnreadableLines, []int{5, 6}) || !slices.Equal(r.OtherTableNames, []string{"Orders"}) {
		t.Errorf("read summary %+v", r)
	}
	want := "read 6 lines: 1 query of Employees; skipped 5: 1 read without a filter (nothing to advise on), 1 query of another table (Orders), 1 repeat of an earlier query, 2 unreadable lines (line 5, 6: not a line of tstable serve --log)"
	if got := r.Text("Employees"); got != want {
		t.Errorf("read line\n got %s\nwant %s", got, want)
	}
}

// A table scan that matches nothing today gets the proposal any table
// scan gets, keyed by the value it names, never "the matches have
// different values"; a workload without proposals says what its queries
// are, not that every query is a point or range query.
func TestAdviseTableScanThatMatchesNothing(t *testing.T) {
	a := adviseOn(t, "LastName eq 'Nobody'\nAge gt 1000\nPartitionKey eq 'Sales' and LastName eq 'Nobody'\n")
	for i, want := range []struct {
		kind  string
		class odata.QueryClass
		query string
	}{
		{KindInterIndex, odata.ClassPartitionScan, "PartitionKey eq 'lastname_<LastName>'"},
		{KindInterIndex, odata.ClassRange, "PartitionKey eq 'age' and RowKey ge '<from>' and RowKey lt '<to>'"},
		{KindIntraIndex, odata.ClassRange, "PartitionKey eq 'Sales' and RowKey ge 'lastname_<LastName>_' and RowKey lt 'lastname_<LastName>`'"},
	} {
		q := a.Queries[i]
		p := q.Proposal
		if q.Returned != 0 || q.Scanned == 0 || p == nil || p.Kind != want.kind || p.Class != want.class || p.Query != want.query || p.Scanned != 0 ||
			!strings.HasPrefix(p.Text, "No entity matches today.") || strings.Contains(p.Text, "different values") {
			t.Errorf("%s: %+v", q.Filter, p)
		}
	}
	if len(a.Proposals) != 3 || a.Proposals[0].Removed != 402 {
		t.Errorf("summary %+v", a.Proposals)
	}
	a = adviseOn(t, "PartitionKey eq 'Sales' and RowKey eq 'empid_000001'\nPartitionKey eq 'Sales'\nlastname eq 'Jones'\n")
	var b strings.Builder
	if err := WriteAdvice(&b, a); err != nil {
		t.Fatal(err)
	}
	want := "  nothing to propose: 1 point or range query, 1 query that reads what it asks for, 1 query that never matches (fix it first)\n"
	if !strings.HasSuffix(b.String(), want) || strings.Contains(b.String(), "every query") {
		t.Errorf("advice without proposals ends\n%s\nwant\n%s", b.String(), want)
	}
}

func TestAdviseProposesTheEmailIndexWhereThereIsNone(t *testing.T) {
	var only []*odata.Entity
	for _, e := range sampleTable(t, "employees", "Employees", 200) {
		if strings.HasPrefix(e.RowKey, "empid_") {
			only = append(only, e)
		}
	}
	b := loaded(t, "Employees", only)
	qs, _ := ParseQueries(strings.NewReader("PartitionKey eq 'Sales' and Email eq 'jonesj@contoso.com'\n"))
	a, err := Advise(context.Background(), b, "Employees", qs)
	if err != nil {
		t.Fatal(err)
	}
	q := a.Queries[0]
	p := q.Proposal
	if q.Class != odata.ClassPartitionScan || q.Scanned != 100 || q.Returned != 1 || p == nil ||
		p.Kind != KindIntraIndex || p.Prefix != "email_" || p.Class != odata.ClassPoint || p.Exists ||
		p.Query != "PartitionKey eq 'Sales' and RowKey eq 'email_jonesj@contoso.com'" {
		t.Errorf("%+v %+v", q, p)
	}
	if len(a.Proposals) != 1 || a.Proposals[0].Removed != 99 || a.Proposals[0].Share != 0.99 {
		t.Errorf("%+v", a.Proposals)
	}
}

// A query on a property no entity has, or with a literal of a type the
// property never holds, can never match: Advise says so, naming the
// property meant, and proposes no index for it.
func TestAdviseQueryThatNeverMatches(t *testing.T) {
	a := adviseOn(t, "lastname eq 'Jones'\nAge gt '30'\nLastName eq 'Jones'\n")
	if len(a.Queries) != 3 {
		t.Fatalf("%d queries", len(a.Queries))
	}
	typo, typed := a.Queries[0], a.Queries[1]
	if typo.Proposal != nil || len(typo.Notes) != 1 || !typo.Notes[0].Missing || typo.Notes[0].Suggestion != "LastName" ||
		typo.Notes[0].Text != "no entity in Employees has a property lastname (did you mean LastName? names are case-sensitive): lastname eq 'Jones' is never true" {
		t.Errorf("lastname eq 'Jones': proposal %+v, notes %+v", typo.Proposal, typo.Notes)
	}
	if typed.Proposal != nil || len(typed.Notes) != 1 || typed.Notes[0].Missing ||
		typed.Notes[0].Text != "Age is Edm.Int32 in every entity of Employees that has it, never Edm.String: Age gt '30' is never true (write Age gt 30)" {
		t.Errorf("Age gt '30': proposal %+v, notes %+v", typed.Proposal, typed.Notes)
	}
	for _, p := range a.Proposals {
		if len(p.Lines) != 1 || p.Lines[0] != 3 {
			t.Errorf("a proposal for a query that never matches: %+v", p)
		}
	}
	if len(a.Proposals) != 1 {
		t.Errorf("proposals %+v, want the one for LastName eq 'Jones'", a.Proposals)
	}
}
