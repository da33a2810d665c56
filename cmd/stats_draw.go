package cmd

import (
	"strconv"
	"strings"

	"github.com/tstable/tstable/design"
	"github.com/tstable/tstable/keyspace"
	"github.com/tstable/tstable/odata"
)

// statsPictures are the pictures of stats --draw: the key space, the
// largest partitions' shares and the properties' presence by type.
func statsPictures(m *keyspace.Model, r *design.Summary, st keyspace.Style) string {
	var b strings.Builder
	b.WriteString(keyspace.Text(m, st))
	var top []keyspace.Bar
	for _, p := range r.LargestPartitions {
		top = append(top, keyspace.Bar{Label: odata.Quote(p.PartitionKey), Value: p.Entities, Of: r.Entities,
			Note: keyspace.Thousands(p.Entities) + " · " + strconv.FormatFloat(p.Share*100, 'f', 1, 64) + "%"})
	}
	if len(top) > 0 {
		b.WriteString("\n" + keyspace.Bars("largest partitions, by share of the table:", top, st))
	}
	var props []keyspace.Bar
	for _, p := range r.Properties {
		bar := keyspace.Bar{Label: p.Name, Value: p.Entities, Of: r.Entities}
		var notes []string
		for _, t := range p.Types {
			bar.Segments = append(bar.Segments, t.Entities)
			notes = append(notes, t.Type+" "+keyspace.Thousands(t.Entities))
		}
		bar.Note = strings.Join(notes, " · ")
		props = append(props, bar)
	}
	if len(props) > 0 {
		b.WriteString("\n" + keyspace.Bars("properties, by the entities holding them (a segment a type):", props, st))
	}
	return b.String()
}

// partitionsNamed are the PartitionKeys a finding's examples start with:
// 'pk' or ('pk', 'rk').
func partitionsNamed(f design.Finding) []string {
	var pks []string
	for _, ex := range f.Evidence.Examples {
		ex = strings.TrimPrefix(ex, "(")
		if pk, _, ok := odata.CutQuoted(ex); ok {
			pks = append(pks, pk)
		}
	}
	return pks
}

// lintPictures draws, for each finding about partitions, the key space
// with those partitions flagged.
func lintPictures(m *keyspace.Model, fs []design.Finding, st keyspace.Style) string {
	var b strings.Builder
	for _, f := range fs {
		pks := partitionsNamed(f)
		if len(pks) == 0 {
			continue
		}
		c := *m
		c.Cells = append([]keyspace.Cell(nil), m.Cells...)
		c.Flag(pks, func(pk, first, last string) bool {
			return odata.UTF16.Compare(pk, first) >= 0 && odata.UTF16.Compare(pk, last) <= 0
		})
		if c.Flagged == 0 {
			continue
		}
		b.WriteString(f.ID + ":\n" + keyspace.Text(&c, st) + "\n")
	}
	return strings.TrimSuffix(b.String(), "\n")
}
