package odata

import (
	"net/url"
	"strings"
	"testing"
	"time"
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
	// Any weak ETag is a condition (one that is never met, such as
	// W/"datetime'yesterday'", answers 412, as the service does).
	good := []string{"", "*", `W/"datetime'2024-01-02T03%3A04%3A05.1234567Z'"`, `W/"datetime'yesterday'"`}
	for _, s := range good {
		if err := CheckETag(s); err != nil {
			t.Errorf("%s: %v", s, err)
		}
	}
	bad := map[string]string{
		`W/\"datetime'2024-01-02T03%3A04%3A05.1234567Z'\"`: "remove the backslashes",
		`"abc"`: "is not an ETag",
	}
	for s, want := range bad {
		if err := CheckETag(s); err == nil || CodeOf(err) != CodeInvalidInput || !strings.Contains(err.Error(), want) {
			t.Errorf("%s: %v, want InvalidInput saying %q", s, err, want)
		}
	}
}

// ETags escape and unescape as net/url's query escaping does (odata does
// not import it).
func TestETagEscapingMatchesNetURL(t *testing.T) {
	ts := time.Date(2024, 1, 2, 3, 4, 5, 123456700, time.UTC)
	if got, want := ETagFor(ts), `W/"datetime'`+url.QueryEscape(FormatDateTime(ts))+`'"`; got != want {
		t.Errorf("ETagFor = %s, want %s", got, want)
	}
	for _, s := range []string{"", "a", "03%3A04", "03%3a04", "a+b", "%", "%3", "%3G", "%zz", "x%41y", "%E2%9C%93", "100%"} {
		got, ok := unescapeQuery(s)
		want, err := url.QueryUnescape(s)
		if ok != (err == nil) || (ok && got != want) {
			t.Errorf("unescapeQuery(%q) = %q, %v; net/url: %q, %v", s, got, ok, want, err)
		}
	}
}

// Every code has the status the service answers it with; one it does not
// know is a 500.
func TestCodeStatus(t *testing.T) {
	for code, want := range map[Code]int{CodeTableNotFound: 404, CodeEntityAlreadyExists: 409, CodeUpdateConditionNotSatisfied: 412, CodeInvalidInput: 400, CodeServerBusy: 503, "Invented": 500} {
		if got := code.Status(); got != want {
			t.Errorf("%s: %d, want %d", code, got, want)
		}
	}
}
