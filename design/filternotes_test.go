package design

import (
	"context"
	"fmt"
	"strings"
	"testing"

	"github.com/tstable/tstable/odata"
)

func notesFor(t *testing.T, ents []*odata.Entity, filter string, limit int) []string {
	t.Helper()
	b := loaded(t, "People", ents)
	f, err := odata.ParseFilter(filter)
	if err != nil {
		t.Fatal(err)
	}
	notes, err := FilterNotes(context.Background(), b, "People", f, limit)
	if err != nil {
		t.Fatal(err)
	}
	var out []string
	for _, n := range notes {
		out = append(out, n.Text)
	}
	return out
}

func people(n int) []*odata.Entity {
	var out []*odata.Entity
	for i := 0; i < n; i++ {
		e := &odata.Entity{PartitionKey: "p", RowKey: fmt.Sprintf("%05d", i)}
		e.Set("LastName", odata.String("Jones"))
		e.Set("Age", odata.Int32(int32(20+i%50)))
		out = append(out, e)
	}
	return out
}

func TestFilterNotes(t *testing.T) {
	ents := people(30)
	cases := []struct {
		filter string
		limit  int
		want   []string
	}{
		{"LastName eq 'Jones' and Age gt 30", 100, nil},
		{"Age gt 30.5 or Age lt 3L", 100, nil}, // numbers compare across types
		{"Lastname eq 'Jones'", 100, []string{"no entity in People has a property Lastname (did you mean LastName? names are case-sensitive): Lastname eq 'Jones' is never true"}},
		{"Agee gt 3", 100, []string{"no entity in People has a property Agee (did you mean Age? names are case-sensitive): Agee gt 3 is never true"}},
		{"Color eq 'red'", 100, []string{"no entity in People has a property Color: Color eq 'red' is never true"}},
		{"Color eq 'red'", 10, []string{"none of the first 10 entities of People has a property Color: Color eq 'red' is never true for them"}},
		{"not (Age eq '30')", 100, []string{"Age is Edm.Int32 in every entity of People that has it, never Edm.String: Age eq '30' is never true (write Age eq 30)"}},
		{"RowKey gt 5 and Timestamp gt '2024'", 100, []string{
			"RowKey is Edm.String, never Edm.Int32: RowKey gt 5 is never true (write RowKey gt '5')",
			"Timestamp is Edm.DateTime, never Edm.String: Timestamp gt '2024' is never true",
		}},
		{"LastName eq 30", 100, []string{"LastName is Edm.String in every entity of People that has it, never Edm.Int32: LastName eq 30 is never true (write LastName eq '30')"}},
	}
	for _, tc := range cases {
		got := notesFor(t, ents, tc.filter, tc.limit)
		if strings.Join(got, "\n") != strings.Join(tc.want, "\n") {
			t.Errorf("%s:\n%s\nwant:\n%s", tc.filter, strings.Join(got, "\n"), strings.Join(tc.want, "\n"))
		}
	}
}
