package samples

import (
	"fmt"
	"strings"
	"testing"

	"github.com/tstable/tstable/odata"
)

func fingerprint(ents []*odata.Entity) string {
	var b strings.Builder
	for _, e := range ents {
		b.Write(odata.AppendEntityJSON(nil, e))
	}
	return b.String()
}

func TestDatasetsAreDeterministic(t *testing.T) {
	for _, d := range List() {
		a, b := d.Tables(300, ""), d.Tables(300, "")
		for i := range a {
			if fingerprint(Collect(a[i])) != fingerprint(Collect(b[i])) {
				t.Errorf("%s/%s differs between runs", d.Name, a[i].Name)
			}
		}
	}
}

func TestKeysAreUniqueAndValid(t *testing.T) {
	for _, d := range List() {
		for _, tb := range d.Tables(0, "") {
			ents := Collect(tb)
			if len(ents) == 0 {
				t.Errorf("%s is empty", tb.Name)
			}
			for i, e := range ents {
				if i > 0 && ents[i-1].PartitionKey == e.PartitionKey && ents[i-1].RowKey == e.RowKey {
					t.Errorf("%s: duplicate key %s/%s", tb.Name, e.PartitionKey, e.RowKey)
				}
				if strings.ContainsAny(e.PartitionKey+e.RowKey, "/\\#?") {
					t.Errorf("%s: key %q/%q has a forbidden character", tb.Name, e.PartitionKey, e.RowKey)
				}
			}
		}
	}
}

func TestEmployeesFollowTheGuide(t *testing.T) {
	d, _ := Lookup("employees")
	ents := Collect(d.Tables(10, "")[0])
	// 2 departments + 10 employees twice.
	if len(ents) != 22 {
		t.Fatalf("%d entities", len(ents))
	}
	types := map[odata.EdmType]bool{}
	kinds := map[string]int{}
	for _, e := range ents {
		for _, p := range e.Properties {
			types[p.Value.Type] = true
		}
		k, _ := e.Get("EntityType")
		kinds[k.Str]++
	}
	if len(types) != 8 {
		t.Errorf("Edm types used: %v", types)
	}
	if kinds["Department"] != 2 || kinds["Employee"] != 10 || kinds["EmployeeByEmail"] != 10 {
		t.Errorf("kinds %v", kinds)
	}
	var jones *odata.Entity
	for _, e := range ents {
		if e.PartitionKey == "Sales" && e.RowKey == "email_jonesj@contoso.com" {
			jones = e
		}
	}
	if jones == nil {
		t.Fatal("no email_jonesj@contoso.com in Sales")
	}
	if id, _ := jones.Get("EmployeeID"); fmt.Sprint(id.Int) != "1" {
		t.Errorf("jonesj is employee %d", id.Int)
	}
}

func TestLogsAreTheSameEventsTwice(t *testing.T) {
	d, _ := Lookup("logs")
	ts := d.Tables(500, "")
	byDate, spread := Collect(ts[0]), Collect(ts[1])
	if ts[0].Name != "LogsByDate" || ts[1].Name != "LogsSpread" || len(byDate) != 500 || len(spread) != 500 {
		t.Fatalf("%s %d, %s %d", ts[0].Name, len(byDate), ts[1].Name, len(spread))
	}
	events := map[string]bool{}
	for _, e := range byDate {
		v, _ := e.Get("EventTime")
		m, _ := e.Get("Message")
		events[fmt.Sprint(v.Int, m.Str)] = true
	}
	for _, e := range spread {
		v, _ := e.Get("EventTime")
		m, _ := e.Get("Message")
		if !events[fmt.Sprint(v.Int, m.Str)] {
			t.Fatalf("event %v is only in LogsSpread", e)
		}
		// Inverted ticks: newest first within a partition.
		if got := strings.SplitN(e.RowKey, "_", 2)[0]; got != fmt.Sprintf("%019d", odata.MaxDateTimeTicks-v.Int) {
			t.Fatalf("RowKey %s is not the inverted ticks of %d", e.RowKey, v.Int)
		}
	}
	for i := 1; i < len(spread); i++ {
		if spread[i].PartitionKey == spread[i-1].PartitionKey {
			a, _ := spread[i-1].Get("EventTime")
			b, _ := spread[i].Get("EventTime")
			if a.Int < b.Int {
				t.Fatalf("%s: older event sorts first", spread[i].PartitionKey)
			}
		}
	}
}

func TestTableNames(t *testing.T) {
	d, _ := Lookup("logs")
	ts := d.Tables(10, "Audit")
	if ts[0].Name != "AuditByDate" || ts[1].Name != "AuditSpread" {
		t.Errorf("%s %s", ts[0].Name, ts[1].Name)
	}
	e, _ := Lookup("employees")
	if n := e.Tables(10, "Staff")[0].Name; n != "Staff" {
		t.Errorf("%s", n)
	}
	if _, ok := Lookup("nope"); ok {
		t.Error("found a dataset that does not exist")
	}
	if got := strings.Join(Names(), " "); got != "bad employees logs orders" {
		t.Errorf("names %s", got)
	}
}
