package odata

import (
	"errors"
	"slices"
	"strings"
	"testing"
	"time"
)

func TestParseSelect(t *testing.T) {
	tests := []struct {
		in   string
		want []string
	}{
		{"a, b,c", []string{"a", "b", "c"}},
		{"LastName", []string{"LastName"}},
		{" Email , Age ", []string{"Email", "Age"}},
		{"b,a", []string{"b", "a"}},   // order kept
		{"a,b,a", []string{"a", "b"}}, // duplicates dropped
		{"_x,Näme,a1", []string{"_x", "Näme", "a1"}},
		{"RowKey,Timestamp", []string{"RowKey", "Timestamp"}},
		{"", nil},    // empty selects everything
		{"   ", nil}, // so does blank
		{"*", nil},   // and "*"
	}
	for _, tt := range tests {
		got, err := ParseSelect(tt.in)
		if err != nil {
			t.Errorf("ParseSelect(%q): %v", tt.in, err)
			continue
		}
		if !slices.Equal(got, tt.want) || (got == nil) != (tt.want == nil) {
			t.Errorf("ParseSelect(%q) = %q, want %q", tt.in, got, tt.want)
		}
	}
}

func TestParseSelectErrors(t *testing.T) {
	tests := []struct {
		in     string
		column int
		msg    string
	}{
		{"a,,b", 3, "empty entry"},
		{"a,", 3, "empty entry"},
		{",a", 1, "empty entry"},
		{"a, first-name", 9, "'-'"},
		{"1abc", 1, "'1'"},
		{"a b", 2, "' '"},
		{"a,*", 3, "'*'"},
		{strings.Repeat("x", 256), 1, "the limit is 255"},
	}
	for _, tt := range tests {
		_, err := ParseSelect(tt.in)
		var se *SyntaxError
		if !errors.As(err, &se) {
			t.Errorf("ParseSelect(%q) error = %v, want a *SyntaxError", tt.in, err)
			continue
		}
		if se.Column != tt.column || !strings.Contains(se.Msg, tt.msg) {
			t.Errorf("ParseSelect(%q): column %d: %s; want column %d: …%s…", tt.in, se.Column, se.Msg, tt.column, tt.msg)
		}
	}
	if _, err := ParseSelect(strings.Repeat("x", 255)); err != nil {
		t.Errorf("a 255-character name is allowed: %v", err)
	}
}

// TestProject: the projection holds the selected user properties the
// entity has, in the order selected, plus PartitionKey, RowKey and
// Timestamp always; the original entity is not changed.
func TestProject(t *testing.T) {
	ts := time.Date(2014, 8, 22, 0, 50, 32, 0, time.UTC)
	e := &Entity{PartitionKey: "Sales", RowKey: "000123", Timestamp: ts}
	e.Set("FirstName", String("Jane"))
	e.Set("LastName", String("Jones"))
	e.Set("Age", Int32(41))

	names := func(x *Entity) string {
		var s []string
		for _, p := range x.Properties {
			s = append(s, p.Name)
		}
		return strings.Join(s, ",")
	}
	tests := []struct {
		sel  []string
		want string
	}{
		{[]string{"LastName"}, "LastName"},
		{[]string{"Age", "FirstName"}, "Age,FirstName"},
		{[]string{"Missing", "Age"}, "Age"},
		{[]string{"PartitionKey", "RowKey", "Timestamp"}, ""},
		{[]string{}, ""},
	}
	for _, tt := range tests {
		p := Project(e, tt.sel)
		if got := names(p); got != tt.want {
			t.Errorf("Project(%q) properties = %s, want %s", tt.sel, got, tt.want)
		}
		if p.PartitionKey != "Sales" || p.RowKey != "000123" || !p.Timestamp.Equal(ts) {
			t.Errorf("Project(%q) lost a system property: %+v", tt.sel, p)
		}
	}
	if Project(e, nil) != e {
		t.Error("Project(e, nil) should return e itself")
	}
	p := Project(e, []string{"Age"})
	p.Set("Age", Int32(1))
	if v, _ := e.Get("Age"); v.Int != 41 || names(e) != "FirstName,LastName,Age" {
		t.Error("Project changed the original entity")
	}
}

func TestParseTop(t *testing.T) {
	for _, n := range []int{0, 1, 2, 999, 1000} { // 0: no entity (Azurite#1428)
		if err := ParseTop(n); err != nil {
			t.Errorf("ParseTop(%d): %v", n, err)
		}
	}
	for _, n := range []int{-1, 1001, 1 << 40} {
		err := ParseTop(n)
		if err == nil || !strings.Contains(err.Error(), "between 0 and 1000") {
			t.Errorf("ParseTop(%d) = %v, want an error naming 0 to 1000", n, err)
		}
	}
}
