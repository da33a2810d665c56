package cmd

import (
	"context"
	"path/filepath"
	"strings"
	"testing"

	"github.com/tstable/tstable/odata"
)

// tsvFormat is an output format only this test knows: tab-separated
// values. It is written as a new format would be, in the printer alone —
// one more implementation of format, listed in formats — and the test
// shows every kind of output (results, lists, entities, lines for people,
// notes) reaching it with no change to any command.
type tsvFormat struct{}

func (tsvFormat) name() string    { return "tsv" }
func (tsvFormat) about() string   { return "tab-separated values" }
func (tsvFormat) forPeople() bool { return false }

func (tsvFormat) result(p *Printer, r result) error {
	items, _ := itemsOf(r.v)
	header, rows, err := flattenRows(items)
	if err != nil || len(header) == 0 {
		return err
	}
	p.out.WriteString(strings.Join(header, "\t") + "\n")
	for _, row := range rows {
		p.out.WriteString(strings.Join(row, "\t") + "\n")
	}
	return nil
}

func (tsvFormat) list(p *Printer, v tableView) entityWriter { return &tsvList{p: p} }

// tsvList writes entities as rows under their keys and property names.
type tsvList struct {
	p    *Printer
	ents []*odata.Entity
}

func (l *tsvList) write(e *odata.Entity) error {
	l.ents = append(l.ents, e)
	return nil
}

func (l *tsvList) end(x ListEnd) error {
	names := tableColumns(l.ents)
	l.p.out.WriteString(strings.Join(append([]string{odata.PartitionKey, odata.RowKey}, names...), "\t") + "\n")
	for _, e := range l.ents {
		row := []string{e.PartitionKey, e.RowKey}
		for _, n := range names {
			v, _ := e.Get(n)
			row = append(row, v.Text())
		}
		l.p.out.WriteString(strings.Join(row, "\t") + "\n")
	}
	l.p.noteEnd(x)
	return nil
}

// A new output format needs the printer alone: registered there, it is
// what -o takes, what help and completion offer, and what every command
// writes.
func TestANewFormatTouchesThePrinterAlone(t *testing.T) {
	saved := formats
	formats = append(append([]format{}, formats...), tsvFormat{})
	t.Cleanup(func() { formats = saved })
	db := filepath.Join(t.TempDir(), "t.db")
	seed(t, db)
	tests := []struct {
		args   []string
		status int
		out    []string // lines stdout must hold
		err    string   // what stderr must hold
	}{
		{[]string{"table", "create", "Orders"}, 0, []string{"TableName", "Orders"}, ""},
		{[]string{"table", "list"}, 0, []string{"TableName", "Orders", "People"}, ""},
		{[]string{"get", "People", "Sales", "00010"}, 0, []string{"PartitionKey\tRowKey\tAge\tEmail\tFirstName\tLastName", "Sales\t00010\t23\tkenk@contoso.com\tKen\tKwok"}, ""},
		{[]string{"query", "People", "--filter", "PartitionKey eq 'Sales'", "--page-size", "2", "--explain"}, 0, []string{"Sales\t00010\t23\tkenk@contoso.com\tKen", "Sales\t00011\t45\tanas@contoso.com\tAna"}, "continuation: "},
		{[]string{"explain", "People", "--filter", "PartitionKey eq 'Sales'"}, 0, []string{"class\tranges\tscanned\treturned\tpages\tdiagnosis\treason\tadvice\tdensity", "partition-scan\tPartitionKey = 'Sales'\t3\t3\t1\twhole-partition\t"}, ""},
		{[]string{"stats", "People"}, 0, []string{"table\tentities\tpartitions\t"}, ""},
		{[]string{"lint", "People"}, 0, nil, ""}, // no findings: no rows
		{[]string{"status"}, 0, []string{"backend\twhere\ttables", "local\t" + db + "\t2"}, ""},
		{[]string{"check"}, 0, nil, ""}, // no problems: no rows
		{[]string{"delete", "People", "Sales", "00010"}, 0, nil, ""},
		{[]string{"import", "People"}, 0, nil, "imported 1 entity into People"},
	}
	for _, tt := range tests {
		stdin := ""
		if tt.args[0] == "import" {
			stdin = `{"PartitionKey":"Sales","RowKey":"00010","FirstName":"Ana"}` + "\n"
		}
		out, errOut, status := run(context.Background(), db, stdin, append(tt.args, "-o", "tsv")...)
		if status != tt.status || !strings.Contains(errOut, tt.err) {
			t.Errorf("%q: exit %d, stderr %q", tt.args, status, errOut)
			continue
		}
		for _, want := range tt.out {
			if !strings.Contains(out, want) {
				t.Errorf("%q -o tsv: stdout lacks %q:\n%s", tt.args, want, out)
			}
		}
		if tt.out == nil && out != "" {
			t.Errorf("%q -o tsv: stdout %q, want nothing", tt.args, out)
		}
	}
	help, _, _ := run(context.Background(), db, "", "query", "--help")
	if !strings.Contains(help, "table, json, jsonl, csv or tsv") {
		t.Errorf("-o's help does not name the new format:\n%s", help)
	}
	comp, _, _ := run(context.Background(), db, "", "__complete", "query", "People", "-o", "")
	if !strings.Contains(comp, "tsv\ttab-separated values") {
		t.Errorf("completion does not offer the new format:\n%s", comp)
	}
}
