package odata

import (
	"slices"
	"testing"
)

// The texts a filter requires are its string equalities under and alone:
// none under or or not, none of the keys, none empty, none of another type.
func TestTextsRequired(t *testing.T) {
	for _, c := range []struct {
		filter string
		want   []string
	}{
		{"LastName eq 'Cao' and Age gt 70", []string{"Cao"}},
		{"LastName eq 'Cao' and (City eq 'Oslo' and Age gt 70)", []string{"Cao", "Oslo"}},
		{"LastName eq 'Cao' or Age gt 70", nil},
		{"not (LastName eq 'Cao')", nil},
		{"LastName ne 'Cao'", nil},
		{"LastName ge 'Cao'", nil},
		{"PartitionKey eq 'p1' and RowKey eq 'r1'", nil},
		{"LastName eq ''", nil},
		{"Id eq guid'6f9619ff-8b86-d011-b42d-00cf4fc964ff'", nil},
		{"Age eq 3", nil},
		{"PartitionKey eq 'p1' and Name eq 'Ann' and Age lt 3", []string{"Ann"}},
	} {
		f, err := ParseFilter(c.filter)
		if err != nil {
			t.Fatalf("%s: %v", c.filter, err)
		}
		if got := f.TextsRequired(); !slices.Equal(got, c.want) {
			t.Errorf("%s: %q, want %q", c.filter, got, c.want)
		}
	}
	if got := (*Filter)(nil).TextsRequired(); got != nil {
		t.Errorf("no filter: %q", got)
	}
}
