package odata

import (
	"bytes"
	"encoding/json"
	"io"
	"testing"
)

// benchEntityLine is a typical imported entity: ten properties, two
// annotated.
var benchEntityLine = []byte(`{"PartitionKey":"p00500","RowKey":"0000500000","Name":"name0176543","Age":38,"Score@odata.type":"Edm.Double","Score":497.5124378109453,"Email":"user0500000@example.com","Note":"note 00500000 lorem ipsum dolor sit amet","Active":false,"Joined@odata.type":"Edm.DateTime","Joined":"2015-09-05T10:20:30Z"}`)

// membersWithEncodingJSON reads one flat object into the members the
// hand-written tokenizer produces, with encoding/json's streaming Token
// API: the way to keep the properties' order (a map loses it).
func membersWithEncodingJSON(data []byte, members []rawMember) ([]rawMember, error) {
	dec := json.NewDecoder(bytes.NewReader(data))
	dec.UseNumber()
	if _, err := dec.Token(); err != nil { // {
		return nil, err
	}
	for dec.More() {
		name, err := dec.Token()
		if err != nil {
			return nil, err
		}
		v, err := dec.Token()
		if err != nil {
			return nil, err
		}
		m := rawMember{name: name.(string)}
		switch v := v.(type) {
		case string:
			m.kind, m.text = jsonString, v
		case json.Number:
			m.kind, m.text = jsonNumber, string(v)
		case bool:
			m.kind = jsonFalse
			if v {
				m.kind = jsonTrue
			}
		case nil:
			m.kind = jsonNull
		default:
			return nil, io.ErrUnexpectedEOF // nested: not an entity
		}
		members = append(members, m)
	}
	_, err := dec.Token() // }
	return members, err
}

// BenchmarkJSONTokenizer is why jsontokenizer.go exists: it reads an
// entity line into members against encoding/json doing the same with its
// Token API, and against encoding/json into a map (which loses the order,
// shown for scale).
func BenchmarkJSONTokenizer(b *testing.B) {
	b.Run("hand-written", func(b *testing.B) {
		b.SetBytes(int64(len(benchEntityLine)))
		b.ReportAllocs()
		var members []rawMember
		for b.Loop() {
			d := jsonDecoder{data: benchEntityLine, members: members[:0]}
			m, err := d.object()
			if err != nil {
				b.Fatal(err)
			}
			members = m
		}
	})
	b.Run("encoding-json-tokens", func(b *testing.B) {
		b.SetBytes(int64(len(benchEntityLine)))
		b.ReportAllocs()
		var members []rawMember
		for b.Loop() {
			m, err := membersWithEncodingJSON(benchEntityLine, members[:0])
			if err != nil {
				b.Fatal(err)
			}
			members = m
		}
	})
	b.Run("encoding-json-map", func(b *testing.B) {
		b.SetBytes(int64(len(benchEntityLine)))
		b.ReportAllocs()
		for b.Loop() {
			var m map[string]any
			if err := json.Unmarshal(benchEntityLine, &m); err != nil {
				b.Fatal(err)
			}
		}
	})
}

// TestTokenizerAgreesWithEncodingJSON keeps the benchmark fair: both read
// the benchmark's line into the same members.
func TestTokenizerAgreesWithEncodingJSON(t *testing.T) {
	d := jsonDecoder{data: benchEntityLine}
	got, err := d.object()
	if err != nil {
		t.Fatal(err)
	}
	want, err := membersWithEncodingJSON(benchEntityLine, nil)
	if err != nil {
		t.Fatal(err)
	}
	if len(got) != len(want) {
		t.Fatalf("%d members, encoding/json reads %d", len(got), len(want))
	}
	for i := range got {
		g, w := got[i], want[i]
		if g.name != w.name || g.kind != w.kind || g.text != w.text {
			t.Errorf("member %d: %+v, encoding/json reads %+v", i, g, w)
		}
	}
}
