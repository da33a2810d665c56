package odata

import (
	"encoding/base64"
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
		tok := EncodeContinuation(key, scope, KeyContinuation)
		if url.QueryEscape(tok) != tok {
			t.Errorf("token %q is not URL-safe", tok)
		}
		got, kind, err := DecodeContinuation(tok, scope)
		if err != nil || got != key || kind != KeyContinuation {
			t.Errorf("DecodeContinuation(Encode(%q)) = %q, %v", key, got, err)
		}
	}
	if EncodeContinuation(Key{"ab", "c"}, scope, KeyContinuation) == EncodeContinuation(Key{"a", "bc"}, scope, KeyContinuation) {
		t.Error("keys that differ only in where PartitionKey ends give the same token")
	}
}

func TestContinuationRejects(t *testing.T) {
	key := Key{"Sales", "000123"}
	scope := "Employees|PartitionKey eq 'Sales'"
	tok := EncodeContinuation(key, scope, KeyContinuation)
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
	forgedKey := EncodeContinuation(Key{"Sales", "999999"}, "some other scope", KeyContinuation)

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
		_, _, err := DecodeContinuation(tt.tok, tt.scope)
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
	tok := EncodeContinuation(*next, scope, KeyContinuation)
	// Between pages: delete (A,2) — already returned — and (B,1) — the next
	// one; insert (A,3) — behind the cursor — and (B,2) — ahead of it.
	changed := []Key{{"A", "1"}, {"A", "3"}, {"B", "2"}, {"B", "3"}, {"C", "1"}}
	from, _, err := DecodeContinuation(tok, scope)
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

// A token says whose key it holds: a store's key or a service's opaque
// NextPartitionKey/NextRowKey; the two kinds never read as each other.
func TestContinuationKinds(t *testing.T) {
	scope := "T|"
	k := Key{"1!8!U2FsZXM-", "1!12!MDAwMDEw"}
	store, service := EncodeContinuation(k, scope, KeyContinuation), EncodeContinuation(k, scope, ServiceContinuation)
	if store == service {
		t.Fatal("the two kinds give the same token")
	}
	for tok, want := range map[string]ContinuationKind{store: KeyContinuation, service: ServiceContinuation} {
		if got, kind, err := DecodeContinuation(tok, scope); err != nil || got != k || kind != want {
			t.Errorf("%s: %v %v %v, want kind %v", tok, got, kind, err, want)
		}
	}
	raw, _ := base64.RawURLEncoding.DecodeString(service)
	for _, kind := range []byte{0, 3, 255} {
		raw[0] = kind
		if _, _, err := DecodeContinuation(base64.RawURLEncoding.EncodeToString(raw), scope); !errors.Is(err, ErrContinuationCorrupt) {
			t.Errorf("kind %d: %v", kind, err)
		}
	}
}

// FuzzDecodeNextKey: any header value either is refused or gives a key
// whose own header reads back to it.
func FuzzDecodeNextKey(f *testing.F) {
	for _, s := range []string{EncodeNextKey("Sales"), EncodeNextKey(""), "1!", "2!U2FsZXM", "1!8!U2FsZXM-", "1!%%"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, tok string) {
		k, ok := DecodeNextKey(tok)
		if !ok {
			return
		}
		if again, ok := DecodeNextKey(EncodeNextKey(k)); !ok || again != k {
			t.Fatalf("%q gives %q, whose header gives %q, %v", tok, k, again, ok)
		}
	})
}
