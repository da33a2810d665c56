package odata

import (
	"errors"
	"net/url"
	"strings"
	"testing"
)

func TestContinuationRoundTrip(t *testing.T) {
	keys := []Key{
		{"Sales", "000123"},
		{"", ""},
		{"a", ""},
		{"", "b"},
		{"O'Brien & Söhne", "2014-08-22T13_event/42?"},
		{strings.Repeat("p", 1024), strings.Repeat("r", 1024)},
		{"ab", "c"},
		{"a", "bc"},
	}
	scope := "Employees|PartitionKey eq 'Sales'"
	for _, key := range keys {
		tok := EncodeContinuation(key, scope)
		if url.QueryEscape(tok) != tok {
			t.Errorf("token %q is not URL-safe", tok)
		}
		got, err := DecodeContinuation(tok, scope)
		if err != nil || got != key {
			t.Errorf("DecodeContinuation(Encode(%q)) = %q, %v", key, got, err)
		}
	}
	if EncodeContinuation(Key{"ab", "c"}, scope) == EncodeContinuation(Key{"a", "bc"}, scope) {
		t.Error("keys that differ only in where PartitionKey ends give the same token")
	}
}

func TestContinuationRejects(t *testing.T) {
	key := Key{"Sales", "000123"}
	scope := "Employees|PartitionKey eq 'Sales'"
	tok := EncodeContinuation(key, scope)
	raw := []byte(tok)

	flipped := func(i int) string {
		b := append([]byte(nil), raw...)
		if b[i] == 'A' {
			b[i] = 'B'
		} else {
			b[i] = 'A'
		}
		return string(b)
	}
	forgedKey := EncodeContinuation(Key{"Sales", "999999"}, "some other scope")

	tests := []struct {
		name  string
		tok   string
		scope string
		want  error
	}{
		{"another filter", tok, "Employees|PartitionKey eq 'Support'", ErrContinuationScope},
		{"another table", tok, "Managers|PartitionKey eq 'Sales'", ErrContinuationScope},
		{"a token made for another scope", forgedKey, scope, ErrContinuationScope},
		{"empty", "", scope, ErrContinuationCorrupt},
		{"not base64", "not a token!", scope, ErrContinuationCorrupt},
		{"truncated", tok[:len(tok)-3], scope, ErrContinuationCorrupt},
		{"extended", tok + "AAAA", scope, ErrContinuationCorrupt},
		{"damaged in the key", flipped(5), scope, ErrContinuationCorrupt},
		{"damaged at the start", flipped(0), scope, ErrContinuationCorrupt},
		{"padded base64", tok + "=", scope, ErrContinuationCorrupt},
	}
	for _, tt := range tests {
		_, err := DecodeContinuation(tt.tok, tt.scope)
		if !errors.Is(err, tt.want) {
			t.Errorf("%s: error %v, want %v", tt.name, err, tt.want)
		}
	}
	if got := ErrContinuationScope.Error(); !strings.Contains(got, "another table or filter") {
		t.Errorf("scope error %q should say what probably happened", got)
	}
}

// TestContinuationResumesByKey: resuming a scan after the key in a token
// neither skips nor repeats entities when others were inserted or deleted
// between the pages.
func TestContinuationResumesByKey(t *testing.T) {
	table := []Key{{"A", "1"}, {"A", "2"}, {"B", "1"}, {"B", "3"}, {"C", "1"}}
	page := func(tbl []Key, from *Key, n int) ([]Key, *Key) {
		var out []Key
		for _, key := range tbl {
			if from != nil && CompareKeys(key, *from) < 0 {
				continue
			}
			if len(out) == n {
				next := key
				return out, &next
			}
			out = append(out, key)
		}
		return out, nil
	}
	scope := "T|"
	first, next := page(table, nil, 2)
	tok := EncodeContinuation(*next, scope)
	// Between pages: delete (A,2) — already returned — and (B,1) — the next
	// one; insert (A,3) — behind the cursor — and (B,2) — ahead of it.
	changed := []Key{{"A", "1"}, {"A", "3"}, {"B", "2"}, {"B", "3"}, {"C", "1"}}
	from, err := DecodeContinuation(tok, scope)
	if err != nil {
		t.Fatal(err)
	}
	second, _ := page(changed, &from, 10)
	if len(first) != 2 || first[1] != (Key{"A", "2"}) {
		t.Fatalf("first page %v", first)
	}
	want := []Key{{"B", "2"}, {"B", "3"}, {"C", "1"}}
	if len(second) != len(want) {
		t.Fatalf("second page %v, want %v", second, want)
	}
	for i := range want {
		if second[i] != want[i] {
			t.Fatalf("second page %v, want %v", second, want)
		}
	}
}
