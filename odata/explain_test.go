package odata

import (
	"encoding/json"
	"strings"
	"testing"
)

func TestExplainText(t *testing.T) {
	plan := func(src string) *Plan {
		f, err := ParseFilter(src)
		if err != nil {
			t.Fatal(err)
		}
		return PlanQuery(f)
	}
	tests := []struct {
		name              string
		p                 *Plan
		scanned, returned int64
		pages             int
		first             string
	}{
		{"range", plan("PartitionKey eq 'Sales' and RowKey ge 'S' and RowKey lt 'T'"), 12, 12, 1,
			"range query · read PartitionKey = 'Sales', RowKey in ['S', 'T') · scanned 12, returned 12 (density 100%) · 1 page"},
		{"table scan, low density", plan("LastName eq 'Jones'"), 20000, 10, 20,
			"table scan · read the whole table · scanned 20000, returned 10 (density 0.05%) · 20 pages"},
		{"remote: scanned unknown", plan("PartitionKey eq 'Sales' and LastName eq 'Smith'"), -1, 3, 1,
			"partition scan · read PartitionKey = 'Sales' · scanned unknown (the service does not report it), returned 3 · 1 page"},
		{"point, nothing found", plan("PartitionKey eq 'Sales' and RowKey eq '00010'"), 0, 0, 1,
			"point query · read PartitionKey = 'Sales', RowKey = '00010' · scanned 0, returned 0 · 1 page"},
		{"contradiction reads nothing", plan("PartitionKey eq 'A' and PartitionKey eq 'B'"), 0, 0, 0,
			"partition scan · read nothing · scanned 0, returned 0 · 0 pages"},
		{"density rounds down", plan("PartitionKey eq 'P'"), 1000, 996, 1,
			"partition scan · read PartitionKey = 'P' · scanned 1000, returned 996 (density 99%) · 1 page"},
	}
	for _, tt := range tests {
		x := Explain(tt.p, tt.scanned, tt.returned, tt.pages)
		lines := strings.Split(strings.TrimSuffix(x.Text(), "\n"), "\n")
		if lines[0] != tt.first {
			t.Errorf("%s:\n got  %s\n want %s", tt.name, lines[0], tt.first)
		}
		if len(lines) != 3 || !strings.HasPrefix(lines[1], "why: ") || !strings.HasPrefix(lines[2], "advice: ") {
			t.Errorf("%s: want a why line and an advice line, got %q", tt.name, lines[1:])
		}
	}
}

func TestExplainJSON(t *testing.T) {
	f, _ := ParseFilter("PartitionKey eq 'Sales' and RowKey ge 'S' and RowKey lt 'T'")
	b, err := json.Marshal(Explain(PlanQuery(f), 40, 10, 2))
	if err != nil {
		t.Fatal(err)
	}
	var m map[string]any
	if err := json.Unmarshal(b, &m); err != nil {
		t.Fatal(err)
	}
	for _, key := range []string{"class", "ranges", "scanned", "returned", "pages", "density", "diagnosis", "reason", "advice"} {
		if _, ok := m[key]; !ok {
			t.Errorf("JSON lacks %q: %s", key, b)
		}
	}
	if m["class"] != "range" || m["diagnosis"] != "row-range" || m["density"] != 0.25 || m["scanned"] != 40.0 {
		t.Errorf("JSON values: %s", b)
	}

	b, _ = json.Marshal(Explain(PlanQuery(f), 100, 0, 1))
	if !strings.Contains(string(b), `"density":0`) {
		t.Errorf("a known density of 0 (nothing returned) should be written: %s", b)
	}
	b, _ = json.Marshal(*Explain(PlanQuery(f), 100, 0, 1))
	if !strings.Contains(string(b), `"density":0`) {
		t.Errorf("marshalling the value, not the pointer, should write density too: %s", b)
	}
	b, _ = json.Marshal(Explain(PlanQuery(f), -1, 10, 1))
	if strings.Contains(string(b), "density") || !strings.Contains(string(b), `"scanned":-1`) {
		t.Errorf("unknown scanned should give scanned -1 and no density: %s", b)
	}
	b, _ = json.Marshal(Explain(PlanQuery(nil), 0, 0, 1))
	if !strings.Contains(string(b), `"class":"table-scan"`) || !strings.Contains(string(b), `"ranges":["the whole table"]`) {
		t.Errorf("nil filter: %s", b)
	}
	c, _ := ParseFilter("PartitionKey eq 'A' and PartitionKey eq 'B'")
	b, _ = json.Marshal(Explain(PlanQuery(c), 0, 0, 0))
	if !strings.Contains(string(b), `"ranges":[]`) {
		t.Errorf("no ranges should be an empty list, not null: %s", b)
	}
}

func TestKeyRangeString(t *testing.T) {
	pb := func(pk string, inc bool) *Bound { return &Bound{PartitionKey: pk, Inclusive: inc} }
	rb := func(pk, rk string, inc bool) *Bound {
		return &Bound{PartitionKey: pk, RowKey: rk, HasRowKey: true, Inclusive: inc}
	}
	tests := []struct {
		r    KeyRange
		want string
	}{
		{FullRange(), "the whole table"},
		{PartitionRange("Sales"), "PartitionKey = 'Sales'"},
		{PointRange("Sales", "00010"), "PartitionKey = 'Sales', RowKey = '00010'"},
		{PointRange("O'Brien", ""), "PartitionKey = 'O''Brien', RowKey = ''"},
		{KeyRange{rb("Sales", "S", true), rb("Sales", "T", false)}, "PartitionKey = 'Sales', RowKey in ['S', 'T')"},
		{KeyRange{rb("Sales", "S", false), rb("Sales", "T", true)}, "PartitionKey = 'Sales', RowKey in ('S', 'T']"},
		{KeyRange{rb("Sales", "S", true), pb("Sales", true)}, "PartitionKey = 'Sales', RowKey >= 'S'"},
		{KeyRange{pb("Sales", true), rb("Sales", "T", false)}, "PartitionKey = 'Sales', RowKey < 'T'"},
		{KeyRange{pb("A", true), pb("C", false)}, "PartitionKey in ['A', 'C')"},
		{KeyRange{pb("A", false), nil}, "PartitionKey > 'A'"},
		{KeyRange{nil, pb("C", true)}, "PartitionKey <= 'C'"},
		{KeyRange{rb("A", "x", true), rb("C", "y", false)}, "keys from ('A', 'x') up to ('C', 'y')"},
		{KeyRange{rb("A", "x", false), nil}, "keys from ('A', 'x') (excluded) to the end"},
		{KeyRange{nil, pb("C", true)}, "PartitionKey <= 'C'"},
		{KeyRange{pb("A", true), rb("C", "y", true)}, "keys from partition 'A' through ('C', 'y')"},
	}
	for _, tt := range tests {
		if got := tt.r.String(); got != tt.want {
			t.Errorf("String() = %q, want %q", got, tt.want)
		}
	}
}
