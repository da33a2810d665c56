package odata

import (
	"go/ast"
	goparser "go/parser"
	"go/token"
	"regexp"
	"slices"
	"testing"
)

// TestDiagnosisIDsAreStable holds the ids scripts match on: renaming one
// breaks them, so it must break this test first.
func TestDiagnosisIDsAreStable(t *testing.T) {
	want := []Diagnosis{
		"point", "row-range",
		"row-key-or", "row-key-excluded", "partition-filtered", "partition-timestamp", "whole-partition",
		"no-filter", "partition-range", "partition-or", "row-key-without-partition", "table-filtered", "table-timestamp", "no-key-condition",
		"partition-keys-conflict", "partition-bounds-crossed", "row-key-bounds-crossed", "key-not-string", "timestamp-not-datetime", "condition-false",
	}
	if got := Diagnoses(); !slices.Equal(got, want) {
		t.Errorf("Diagnoses() = %q\nwant %q", got, want)
	}
}

// TestEveryDiagnosisHasWords checks that each Diagnosis constant declared
// in diagnosis.go is listed by Diagnoses and has a reason and an advice in
// the one table of words, and that the table says nothing of others.
func TestEveryDiagnosisHasWords(t *testing.T) {
	f, err := goparser.ParseFile(token.NewFileSet(), "diagnosis.go", nil, 0)
	if err != nil {
		t.Fatal(err)
	}
	var declared []string
	ast.Inspect(f, func(n ast.Node) bool {
		if vs, ok := n.(*ast.ValueSpec); ok {
			if id, ok := vs.Type.(*ast.Ident); ok && id.Name == "Diagnosis" {
				for _, name := range vs.Names {
					declared = append(declared, name.Name)
				}
			}
		}
		return true
	})
	if len(declared) != len(Diagnoses()) || len(diagnosisWords) != len(Diagnoses()) {
		t.Errorf("%d constants of type Diagnosis, %d listed by Diagnoses, %d with words: each needs all three", len(declared), len(Diagnoses()), len(diagnosisWords))
	}
	for _, d := range Diagnoses() {
		if w := diagnosisWords[d]; w.reason == "" || w.advice == "" {
			t.Errorf("diagnosis %q has no reason or no advice", d)
		}
	}
}

// TestWordsNameTheFilter checks that a plan's words have every fact they
// name filled in, for a filter of each diagnosis.
func TestWordsNameTheFilter(t *testing.T) {
	filters := map[Diagnosis]string{
		DiagPoint:                  "PartitionKey eq 'A' and RowKey eq 'b'",
		DiagRowRange:               "PartitionKey eq 'A' and RowKey ge 'b'",
		DiagRowKeyOr:               "PartitionKey eq 'A' and (RowKey eq 'b' or RowKey eq 'c')",
		DiagRowKeyExcluded:         "PartitionKey eq 'A' and RowKey ne 'b'",
		DiagPartitionFiltered:      "PartitionKey eq 'A' and Email eq 'x'",
		DiagPartitionTimestamp:     "PartitionKey eq 'A' and Timestamp ge datetime'2014-08-22T00:00:00Z'",
		DiagWholePartition:         "PartitionKey eq 'A'",
		DiagPartitionRange:         "PartitionKey ge 'A'",
		DiagPartitionOr:            "PartitionKey eq 'A' or PartitionKey eq 'B'",
		DiagRowKeyWithoutPartition: "RowKey eq 'b'",
		DiagTableFiltered:          "Email eq 'x'",
		DiagTableTimestamp:         "Timestamp ge datetime'2014-08-22T00:00:00Z'",
		DiagNoKeyCondition:         "PartitionKey ne 'A'",
		DiagPartitionKeysConflict:  "PartitionKey eq 'A' and PartitionKey eq 'B'",
		DiagPartitionBoundsCrossed: "PartitionKey gt 'B' and PartitionKey lt 'A'",
		DiagRowKeyBoundsCrossed:    "RowKey gt 'b' and RowKey lt 'a'",
		DiagKeyNotString:           "PartitionKey eq 'A' and RowKey eq 10",
		DiagTimestampNotDateTime:   "Timestamp gt '2014'",
		DiagConditionFalse:         "PartitionKey eq 'A' and false",
	}
	if len(filters) != len(Diagnoses())-1 { // all but no-filter
		t.Errorf("%d filters for %d diagnoses: give each diagnosis a filter", len(filters), len(Diagnoses())-1)
	}
	placeholder := regexp.MustCompile(`\{[a-z-]+\}`)
	for d, src := range filters {
		f, err := ParseFilter(src)
		if err != nil {
			t.Fatal(err)
		}
		p := PlanQuery(f)
		if p.Diagnosis != d {
			t.Errorf("%q: diagnosis %s, want %s", src, p.Diagnosis, d)
		}
		if m := placeholder.FindString(p.Reason() + p.Advice()); m != "" || p.Reason() == "" || p.Advice() == "" {
			t.Errorf("%q: %s is left unfilled or the words are empty: %q / %q", src, m, p.Reason(), p.Advice())
		}
	}
}
