package odata

import (
	"strings"
	"testing"
)

func TestEntitySizeFollowsTheServiceFormula(t *testing.T) {
	g, _ := Guid("6c1b1e2a-3f4d-4e5f-8a9b-0c1d2e3f4a5b")
	e := &Entity{PartitionKey: "Sales", RowKey: "00010", Properties: []Property{
		{Name: "Name", Value: String("Zoë")}, // 3 UTF-16 units
		{Name: "Age", Value: Int32(30)},
		{Name: "Big", Value: Int64(1)},
		{Name: "Rate", Value: Double(1.5)},
		{Name: "At", Value: DateTimeTicks(MinDateTimeTicks)},
		{Name: "Id", Value: g},
		{Name: "Ok", Value: Bool(true)},
		{Name: "Raw", Value: Binary([]byte{1, 2, 3})},
		{Name: "Emoji", Value: String("😀")}, // one rune, two UTF-16 units
	}}
	want := 4 + (5+5)*2       // keys
	want += 8 + 4*2 + 4 + 3*2 // Name
	want += 8 + 3*2 + 4       // Age
	want += 8 + 3*2 + 8       // Big
	want += 8 + 4*2 + 8       // Rate
	want += 8 + 2*2 + 8       // At
	want += 8 + 2*2 + 16      // Id
	want += 8 + 2*2 + 1       // Ok
	want += 8 + 3*2 + 4 + 3   // Raw
	want += 8 + 5*2 + 4 + 2*2 // Emoji
	if got := EntitySize(e); got != want {
		t.Fatalf("EntitySize = %d, want %d", got, want)
	}
}

func TestCheckETag(t *testing.T) {
	good := []string{"", "*", `W/"datetime'2024-01-02T03%3A04%3A05.1234567Z'"`}
	for _, s := range good {
		if err := CheckETag(s); err != nil {
			t.Errorf("%s: %v", s, err)
		}
	}
	bad := map[string]string{
		`W/\"datetime'2024-01-02T03%3A04%3A05.1234567Z'\"`: "remove the backslashes",
		`W/"datetime'yesterday'"`:                          "is not an ETag",
		`"abc"`:                                            "is not an ETag",
	}
	for s, want := range bad {
		if err := CheckETag(s); err == nil || CodeOf(err) != CodeInvalidInput || !strings.Contains(err.Error(), want) {
			t.Errorf("%s: %v, want InvalidInput saying %q", s, err, want)
		}
	}
}
