package cmd

import (
	"slices"
	"strings"
	"testing"
)

// A result's rows: nested fields under dotted names, lists of plain values
// in one cell, lists of objects by index, and every item's columns in the
// header, first seen first.
func TestFlattenRows(t *testing.T) {
	type key struct {
		PartitionKey string
		RowKey       string
	}
	type finding struct {
		ID       string   `json:"id"`
		Examples []string `json:"examples"`
		Key      *key     `json:"key,omitempty"`
		Counts   []int    `json:"counts"`
		Parts    []key    `json:"parts,omitempty"`
		Note     *string  `json:"note"`
	}
	items := []any{
		finding{ID: "a", Examples: []string{"x", "y"}, Key: &key{"p", "r"}, Counts: []int{1, 2}},
		finding{ID: "b", Examples: []string{}, Parts: []key{{"p1", "r1"}, {"p2", "r2"}}},
		map[string]any{"other": true},
	}
	header, rows, err := flattenRows(items)
	if err != nil {
		t.Fatal(err)
	}
	wantHeader := []string{"id", "examples", "key.PartitionKey", "key.RowKey", "counts", "note", "parts.0.PartitionKey", "parts.0.RowKey", "parts.1.PartitionKey", "parts.1.RowKey", "other"}
	if !slices.Equal(header, wantHeader) {
		t.Fatalf("header %q\nwant   %q", header, wantHeader)
	}
	want := [][]string{
		{"a", "x; y", "p", "r", "1; 2", "", "", "", "", "", ""},
		{"b", "", "", "", "", "", "p1", "r1", "p2", "r2", ""},
		{"", "", "", "", "", "", "", "", "", "", "true"},
	}
	for i := range want {
		if !slices.Equal(rows[i], want[i]) {
			t.Errorf("row %d: %q\nwant   %q", i, rows[i], want[i])
		}
	}
	// A list of plain values is one column, "value".
	header, rows, _ = flattenRows([]any{"one", "two"})
	if strings.Join(header, ",") != "value" || len(rows) != 2 || rows[1][0] != "two" {
		t.Errorf("plain values: %q %q", header, rows)
	}
}
