package odata

import (
	"errors"
	"math"
	"testing"
	"time"
	"unicode/utf8"
)

// fuzzEntities are the entities accepted filters are evaluated against, to
// check that the canonical text behaves like the original.
var fuzzEntities = func() []*Entity {
	g, _ := Guid("a455c695-df98-5678-aaaa-81d3367e5a34")
	a := &Entity{PartitionKey: "Sales", RowKey: "00010", Timestamp: time.Date(2014, 8, 22, 0, 50, 32, 0, time.UTC)}
	a.Set("Name", String("O'Brien"))
	a.Set("Age", Int32(41))
	a.Set("Big", Int64(5000000000))
	a.Set("Score", Double(2.5))
	a.Set("IsActive", Bool(true))
	a.Set("Born", DateTimeTicks(TicksOf(time.Date(1980, 1, 2, 3, 4, 5, 0, time.UTC))))
	a.Set("Id", g)
	a.Set("Blob", Binary([]byte{0x0a, 0x1b}))
	b := &Entity{PartitionKey: "Support", RowKey: "S"}
	b.Set("Name", Int32(5))
	b.Set("Age", String("41"))
	b.Set("Score", Double(math.NaN()))
	b.Set("IsActive", Bool(false))
	return []*Entity{a, b, {}}
}()

// FuzzParseFilter checks that parsing never panics, that rejected filters
// get a *SyntaxError whose column lies inside the text (or just after it),
// and that an accepted filter's String() parses back to the same filter,
// which matches the same entities and gets the same plan.
func FuzzParseFilter(f *testing.F) {
	for _, s := range []string{
		"PartitionKey eq 'Sales' and RowKey eq '00010'",
		"PartitionKey eq 'Sales' and RowKey ge 'S' and RowKey lt 'T'",
		"PartitionKey eq 'Sales' and (RowKey eq '121' or RowKey eq '322')",
		"PartitionKey eq 'Sales' and LastName eq 'Smith'",
		"LastName eq 'Jones'",
		"PartitionKey ge 'A' and PartitionKey lt 'C'",
		"PartitionKey eq 'A' and PartitionKey eq 'B'",
		"Name eq 'O''Brien'",
		"'x' lt Name",
		"Age gt -5 and Big le 9223372036854775807L",
		"Big eq 5000000000L",
		"Score ge 2.5 or Score lt -1e10 or Score eq 1.0E-06",
		"IsActive",
		"not IsActive and not (Age eq 5)",
		"((A eq 1) or (B eq 2)) and not (C ne 3)",
		"Born lt datetime'2014-08-22T00:50:32.1234567Z'",
		"Born ge datetime'1601-01-01T00:00:00Z' and Born le datetime'9999-12-31T23:59:59.9999999Z'",
		"Born eq datetime'2014-08-22T02:50:32+02:00'",
		"Id eq guid'A455C695-DF98-5678-AAAA-81D3367E5A34'",
		"Blob eq X'0A1B' or Blob eq binary'ff'",
		"Timestamp gt datetime'2014-01-01T00:00Z'",
		"A eq 1 or A eq 2 or A eq 3 or A eq 4 or A eq 5 or A eq 6 or A eq 7 or A eq 8 or A eq 9 or A eq 10 or A eq 11 or A eq 12 or A eq 13 or A eq 14 or A eq 15",
		"Name eq 'Zoë' and Städte eq '東京'",
		"Age eq )",
		"Name eq 'unterminated",
		"Age == 5",
		"not Age eq 5",
		"B eq X'0A1'",
		"D eq datetime'1600-01-01T00:00:00Z'",
		"(((A eq 1)",
		"",
		"A eq 1.5L",
	} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, src string) {
		flt, err := ParseFilter(src)
		if err != nil {
			var se *SyntaxError
			if !errors.As(err, &se) {
				t.Fatalf("ParseFilter(%q): error %T is not a *SyntaxError", src, err)
			}
			if se.Column < 1 || se.Column > utf8.RuneCountInString(src)+1 || se.Msg == "" {
				t.Fatalf("ParseFilter(%q): column %d of %d runes, message %q", src, se.Column, utf8.RuneCountInString(src), se.Msg)
			}
			_ = se.Caret()
			return
		}
		text := flt.String()
		again, err := ParseFilter(text)
		if err != nil {
			t.Fatalf("ParseFilter(%q) = %q, which does not parse: %v", src, text, err)
		}
		if !again.Equal(flt) || again.String() != text {
			t.Fatalf("round trip of %q: %q then %q", src, text, again.String())
		}
		if flt.Comparisons() > MaxComparisons || again.Comparisons() != flt.Comparisons() {
			t.Fatalf("%q: %d comparisons, then %d", src, flt.Comparisons(), again.Comparisons())
		}
		for _, e := range fuzzEntities {
			if flt.Match(e) != again.Match(e) {
				t.Fatalf("%q and %q disagree on %+v", src, text, e)
			}
		}
		p, q := PlanQuery(flt), PlanQuery(again)
		if p.Class != q.Class || len(p.Ranges) != len(q.Ranges) || p.Diagnosis != q.Diagnosis {
			t.Fatalf("%q and %q plan differently: %s %v (%s), %s %v (%s)", src, text, p.Class, p.Ranges, p.Diagnosis, q.Class, q.Ranges, q.Diagnosis)
		}
		for _, e := range fuzzEntities {
			if flt.Match(e) && !anyContains(p.Ranges, Key{e.PartitionKey, e.RowKey}) {
				t.Fatalf("%q matches %+v outside its plan %v", src, e, p.Ranges)
			}
		}
	})
}

// FuzzDecodeContinuation checks that any token string is either rejected
// with one of the two documented errors or decodes to a key whose own token
// decodes to the same key.
func FuzzDecodeContinuation(f *testing.F) {
	scope := "Employees|PartitionKey eq 'Sales'"
	f.Add(EncodeContinuation(Key{"Sales", "000123"}, scope, KeyContinuation))
	f.Add(EncodeContinuation(Key{"", ""}, scope, KeyContinuation))
	f.Add(EncodeContinuation(Key{"a", "b"}, "other", KeyContinuation))
	f.Add(EncodeContinuation(Key{"1!8!U2FsZXM-", ""}, scope, ServiceContinuation))
	f.Add("")
	f.Add("AQ")
	f.Fuzz(func(t *testing.T, tok string) {
		k, kind, err := DecodeContinuation(tok, scope)
		if err != nil {
			if !errors.Is(err, ErrContinuationCorrupt) && !errors.Is(err, ErrContinuationScope) {
				t.Fatalf("DecodeContinuation(%q): unexpected error %v", tok, err)
			}
			return
		}
		again, againKind, err := DecodeContinuation(EncodeContinuation(k, scope, kind), scope)
		if err != nil || again != k || againKind != kind {
			t.Fatalf("token %q decodes to %q, whose own token decodes to %q, %v", tok, k, again, err)
		}
	})
}

// FuzzDecodeEntityJSON checks that decoding never panics; that a refused
// document gets a *JSONError whose offset lies inside it; that a reused
// EntityDecoder (with its name cache) gives the same answer; and that an
// entity that decodes holds only valid text and re-encodes to JSON that
// decodes to the same entity and encodes to the same bytes.
func FuzzDecodeEntityJSON(f *testing.F) {
	for _, e := range fuzzEntities[:2] {
		f.Add(AppendEntityJSON(nil, e))
	}
	for _, s := range []string{
		`{"PartitionKey":"p","RowKey":"r","X":23,"Y":-2147483649,"Z":1.5e3,"W":"a\u00e9\ud83d\ude00\/\n","B":false,"N":null}`,
		`{"PartitionKey":"p","RowKey":"r","X":"5","X@odata.type":"Edm.Int64","D@odata.type":"Edm.Double","D":"-Infinity"}`,
		`{"PartitionKey":"p","RowKey":"r","T@odata.type":"Edm.DateTime","T":"2014-08-22T02:50:32.5+02:00"}`,
		`{"PartitionKey":"p","RowKey":"r","G@odata.type":"Edm.Guid","G":"{6F9619FF-8B86-D011-B42D-00CF4FC964FF}"}`,
		`{"PartitionKey":"p","RowKey":"r","B@odata.type":"Edm.Binary","B":"AAEA","odata.etag":"W/\"1\"","Timestamp":"x"}`,
		`{"PartitionKey":"p","RowKey":"r","X@odata.type":"Edm.Double","X":3}`,
		`{"PartitionKey":"p","RowKey":"r","X":-0.0,"Y":5e-324,"Z":1e308}`,
		"{\"PartitionKey\":\"p\",\"RowKey\":\"r\",\"X\":\"a\xffb\"}",
		`{"PartitionKey":"p","RowKey":"r","X":"\ud800"}`,
		`{"PartitionKey":"p","RowKey":"r","X":01}`,
		`{"PartitionKey":"p","RowKey":"r","X":"1","X@odata.type":""}`,
		`{"PartitionKey":"p","RowKey":"r","X@odata.type":""}`,
		`{"PartitionKey":"p","RowKey":"r"} {}`,
		``,
	} {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		e, err := DecodeEntityJSON(data)
		var d EntityDecoder
		if _, err := d.Decode(AppendEntityJSON(nil, fuzzEntities[0])); err != nil { // names in another order
			t.Fatal(err)
		}
		for range 2 {
			buf := append([]byte(nil), data...)
			e2, err2 := d.Decode(buf)
			if (err == nil) != (err2 == nil) || (err != nil && err.Error() != err2.Error()) {
				t.Fatalf("%q: DecodeEntityJSON says %v, EntityDecoder %v", data, err, err2)
			}
			for i := range buf { // the entity keeps no piece of the caller's buffer
				buf[i] = 'x'
			}
			if err == nil && !sameEntity(e, e2) {
				t.Fatalf("%q: DecodeEntityJSON gives %s, EntityDecoder %s", data, AppendEntityJSON(nil, e), AppendEntityJSON(nil, e2))
			}
		}
		if err != nil {
			var je *JSONError
			if !errors.As(err, &je) || je.Offset < 0 || je.Offset > len(data) || je.Msg == "" {
				t.Fatalf("%q: error %T %v: not a *JSONError inside the document", data, err, err)
			}
			return
		}
		texts := []string{e.PartitionKey, e.RowKey}
		for _, p := range e.Properties {
			texts = append(texts, p.Name)
			if p.Value.Type == EdmString || p.Value.Type == EdmGuid {
				texts = append(texts, p.Value.Str)
			}
		}
		for _, s := range texts {
			if !utf8.ValidString(s) {
				t.Fatalf("%q decodes to invalid text %q", data, s)
			}
		}
		line := AppendEntityJSON(nil, e)
		back, err := DecodeEntityJSON(line)
		if err != nil {
			t.Fatalf("%q decodes, but its encoding %s does not: %v", data, line, err)
		}
		if !sameEntity(e, back) {
			t.Fatalf("%q: encoded as %s, which decodes to %s", data, line, AppendEntityJSON(nil, back))
		}
		if again := AppendEntityJSON(nil, back); string(again) != string(line) {
			t.Fatalf("%q: encodes as %s, then as %s", data, line, again)
		}
	})
}

// sameEntity reports whether a and b have the same keys and the same
// properties in the same order (a -0 keeps its sign).
func sameEntity(a, b *Entity) bool {
	if a.PartitionKey != b.PartitionKey || a.RowKey != b.RowKey || len(a.Properties) != len(b.Properties) {
		return false
	}
	for i, p := range a.Properties {
		q := b.Properties[i]
		if p.Name != q.Name || !p.Value.Equal(q.Value) {
			return false
		}
		if p.Value.Type == EdmDouble && math.Signbit(p.Value.Float) != math.Signbit(q.Value.Float) {
			return false
		}
	}
	return true
}
