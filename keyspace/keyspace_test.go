package keyspace

import (
	"flag"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/tstable/tstable/odata"
)

var update = flag.Bool("update", false, "rewrite the golden files in testdata")

func checkGolden(t *testing.T, name, got string) {
	t.Helper()
	path := filepath.Join("testdata", name)
	if *update {
		if err := os.WriteFile(path, []byte(got), 0o644); err != nil {
			t.Fatal(err)
		}
		return
	}
	want, err := os.ReadFile(path)
	if err != nil {
		t.Fatalf("%v (go test ./keyspace -run %s -update creates it)", err, t.Name())
	}
	if string(want) != got {
		t.Errorf("%s differs (-update rewrites it)\n--- got\n%s\n--- want\n%s", path, got, want)
	}
}

// table is a table of n partitions, partition i holding sizes(i)
// entities with RowKeys r000, r001, …, and Age i%7.
func table(n int, sizes func(i int) int) []*odata.Entity {
	var es []*odata.Entity
	for i := range n {
		for j := range sizes(i) {
			e := &odata.Entity{PartitionKey: fmt.Sprintf("p%03d", i), RowKey: fmt.Sprintf("r%03d", j)}
			e.Properties = []odata.Property{{Name: "Age", Value: odata.Int32(int32(j % 7))}}
			es = append(es, e)
		}
	}
	return es
}

func model(t *testing.T, es []*odata.Entity, filter string, top int) *Model {
	t.Helper()
	var q odata.Query
	if filter != "" {
		f, err := odata.ParseQueryFilter(filter)
		if err != nil {
			t.Fatal(err)
		}
		q.Filter = f
	}
	q.Top = top
	p := odata.PlanQuery(q.Filter)
	r := NewReading(q, p, odata.UTF16)
	b := NewBuilder("T", p.Class.Text())
	for _, e := range es {
		b.Add(e.PartitionKey, r.State(e))
	}
	return b.Model()
}

// The four classes and a filtered scan, drawn in UTF-8 and in ASCII, and
// as SVG: golden.
func TestTextGolden(t *testing.T) {
	es := table(12, func(i int) int { return 1 + (i*7)%20 })
	cases := []struct{ name, filter string }{
		{"point", "PartitionKey eq 'p003' and RowKey eq 'r002'"},
		{"range", "PartitionKey eq 'p006' and RowKey ge 'r002' and RowKey lt 'r006'"},
		{"partition", "PartitionKey eq 'p009'"},
		{"table", ""},
		{"filtered", "Age eq 3"},
	}
	for _, c := range cases {
		m := model(t, es, c.filter, 0)
		var b strings.Builder
		b.WriteString(Text(m, Style{Width: 60}))
		b.WriteString(Text(m, Style{Width: 60, ASCII: true}))
		checkGolden(t, c.name+".txt", b.String())
		checkGolden(t, c.name+".svg", SVG(m))
	}
}

// Colour goes only where asked, as ANSI sequences.
func TestColourOnlyWhenAsked(t *testing.T) {
	m := model(t, table(3, func(int) int { return 4 }), "PartitionKey eq 'p001'", 0)
	if s := Text(m, Style{Width: 50}); strings.Contains(s, "\x1b[") {
		t.Errorf("colour without Color:\n%s", s)
	}
	if s := Text(m, Style{Width: 50, Color: true}); !strings.Contains(s, "\x1b[1;32m") || !strings.Contains(s, reset) {
		t.Errorf("no colour with Color:\n%q", s)
	}
}

// A table of more partitions than MaxCells keeps at most MaxCells cells,
// every partition and entity counted, and a returned entity still shows.
func TestHugeTableIsBucketed(t *testing.T) {
	b := NewBuilder("Big", "point query")
	n := 3*MaxCells + 5
	for i := range n {
		s := Unread
		if i == 2000 {
			s = Returned
		}
		b.Add(fmt.Sprintf("p%06d", i), s)
		b.Add(fmt.Sprintf("p%06d", i), Unread)
	}
	m := b.Model()
	if len(m.Cells) > MaxCells || m.Partitions != int64(n) || m.Entities != int64(2*n) || m.Returned != 1 {
		t.Fatalf("cells %d, partitions %d, entities %d, returned %d", len(m.Cells), m.Partitions, m.Entities, m.Returned)
	}
	var sum int64
	for _, c := range m.Cells {
		sum += c.Partitions
	}
	if sum != int64(n) {
		t.Errorf("the cells hold %d partitions, not %d", sum, n)
	}
	if m.Focus == nil || m.Focus.First != "p002000" {
		t.Errorf("focus %+v, want p002000", m.Focus)
	}
	s := Text(m, Style{Width: 80})
	if !strings.Contains(s, "█") || !strings.Contains(s, "reads 'p002000'") {
		t.Errorf("the returned entity does not show:\n%s", s)
	}
}

// $top stops the reading: nothing after the top-th returned entity is read.
func TestTopStopsTheReading(t *testing.T) {
	m := model(t, table(4, func(int) int { return 5 }), "", 7)
	if m.Returned != 7 || m.Scanned != 7 {
		t.Errorf("returned %d, scanned %d; want 7 and 7", m.Returned, m.Scanned)
	}
}

// Flag marks the cells of the named partitions.
func TestFlag(t *testing.T) {
	b := NewBuilder("T", "")
	for _, e := range table(5, func(int) int { return 3 }) {
		b.Add(e.PartitionKey, Unread)
	}
	m := b.Model()
	m.Flag([]string{"p002"}, func(pk, first, last string) bool { return pk >= first && pk <= last })
	if m.Flagged != 3 {
		t.Errorf("flagged %d, want 3", m.Flagged)
	}
	checkGolden(t, "flagged.txt", Text(m, Style{Width: 50}))
}
