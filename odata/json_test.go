package odata

import (
	"errors"
	"math"
	"strings"
	"testing"
	"time"
)

func TestEntityJSONRoundTripsEveryType(t *testing.T) {
	guid, _ := Guid("{6F9619FF-8B86-D011-B42D-00CF4FC964FF}")
	e := &Entity{PartitionKey: "Sales", RowKey: "00010\"\n\x01é", Properties: []Property{
		{"Empty", String("")},
		{"Text", String("tab\there \u2028 \"quoted\" \\ ü 😀")},
		{"Age", Int32(23)},
		{"MinI32", Int32(math.MinInt32)},
		{"MaxI64", Int64(math.MaxInt64)},
		{"MinI64", Int64(math.MinInt64)},
		{"Score", Double(4.25)},
		{"Whole", Double(12)},
		{"NegZero", Double(math.Copysign(0, -1))},
		{"Huge", Double(1e300)},
		{"Tiny", Double(5e-324)},
		{"NaN", Double(math.NaN())},
		{"Inf", Double(math.Inf(1))},
		{"NegInf", Double(math.Inf(-1))},
		{"Yes", Bool(true)},
		{"No", Bool(false)},
		{"MinDate", DateTimeTicks(MinDateTimeTicks)},
		{"MaxDate", DateTimeTicks(MaxDateTimeTicks)},
		{"Id", guid},
		{"Bytes", Binary([]byte{0, 1, 0, 255, 0})},
		{"NoBytes", Binary(nil)},
	}}
	line := AppendEntityJSON(nil, e)
	got, err := DecodeEntityJSON(line)
	if err != nil {
		t.Fatalf("decode %s: %v", line, err)
	}
	if got.PartitionKey != e.PartitionKey || got.RowKey != e.RowKey {
		t.Errorf("keys: got %q %q", got.PartitionKey, got.RowKey)
	}
	if len(got.Properties) != len(e.Properties) {
		t.Fatalf("got %d properties, want %d:\n%s", len(got.Properties), len(e.Properties), line)
	}
	for i, p := range e.Properties {
		q := got.Properties[i]
		if q.Name != p.Name || !q.Value.Equal(p.Value) {
			t.Errorf("property %d: got %s=%#v, want %s=%#v", i, q.Name, q.Value, p.Name, p.Value)
		}
	}
	if math.Signbit(got.Properties[8].Value.Float) != true {
		t.Errorf("-0 lost its sign: %s", line)
	}
	// And the second encoding is byte-identical to the first.
	if again := AppendEntityJSON(nil, got); string(again) != string(line) {
		t.Errorf("re-encoding differs:\n%s\n%s", line, again)
	}
}

func TestAppendEntityJSONShape(t *testing.T) {
	ts := time.Date(2014, 8, 22, 0, 50, 32, 123450000, time.UTC)
	e := &Entity{PartitionKey: "Sales", RowKey: "00010", Timestamp: ts, Properties: []Property{
		{"Age", Int32(23)},
		{"Big", Int64(1234567890123)},
		{"When", DateTimeTicks(TicksOf(time.Date(2014, 8, 22, 0, 50, 32, 0, time.UTC)))},
		{"Score", Double(2.5)},
		{"Whole", Double(3)},
		{"NaN", Double(math.NaN())},
		{"Bin", Binary([]byte("hi"))},
		{"Ok", Bool(true)},
		{"S", String("<&>")},
	}}
	// DateTime values, the Timestamp and the ETag without trailing zeros,
	// as the service writes them; a whole Double annotated (tstable's exact
	// form: a reader that writes 3.0 back as 3 keeps its type).
	want := `{"odata.etag":"W/\"datetime'2014-08-22T00%3A50%3A32.12345Z'\"",` +
		`"PartitionKey":"Sales","RowKey":"00010","Timestamp":"2014-08-22T00:50:32.12345Z","Age":23,` +
		`"Big@odata.type":"Edm.Int64","Big":"1234567890123",` +
		`"When@odata.type":"Edm.DateTime","When":"2014-08-22T00:50:32Z",` +
		`"Score":2.5,"Whole@odata.type":"Edm.Double","Whole":3.0,` +
		`"NaN@odata.type":"Edm.Double","NaN":"NaN",` +
		`"Bin@odata.type":"Edm.Binary","Bin":"aGk=","Ok":true,"S":"<&>"}`
	if got := string(AppendEntityJSON(nil, e)); got != want {
		t.Errorf("got\n%s\nwant\n%s", got, want)
	}
	// The service's answer leaves the whole Double bare; read back, 3.0 is
	// a Double all the same.
	answer := string(AppendEntityJSONAs(nil, e, MinimalMetadata, EntityLinks{}))
	if bare := strings.Replace(want, `"Whole@odata.type":"Edm.Double",`, "", 1); answer != bare {
		t.Errorf("the service's form:\n%s\nwant\n%s", answer, bare)
	}
	back, err := DecodeEntityJSON([]byte(answer))
	if err != nil || back.Properties[4].Value != Double(3) || back.Properties[2].Value != e.Properties[2].Value {
		t.Errorf("read back: %+v, %v", back, err)
	}
	// Not stored yet: no etag, no Timestamp.
	if got := string(AppendEntityJSON(nil, &Entity{PartitionKey: "a", RowKey: "b"})); got != `{"PartitionKey":"a","RowKey":"b"}` {
		t.Errorf("unstored entity: %s", got)
	}
}

func TestDecodeEntityJSONTyping(t *testing.T) {
	tests := []struct {
		name, json string
		want       Value
	}{
		{"int32", `"X":23`, Int32(23)},
		{"negative int32", `"X":-2147483648`, Int32(math.MinInt32)},
		{"beyond int32 is a double", `"X":2147483648`, Double(2147483648)},
		{"fraction is a double", `"X":1.0`, Double(1)},
		{"exponent is a double", `"X":1e3`, Double(1000)},
		{"string", `"X":"hi"`, String("hi")},
		{"escapes", `"X":"a\u00e9\ud83d\ude00\/\n"`, String("aé😀/\n")},
		{"bool", `"X":false`, Bool(false)},
		{"annotation after the value", `"X":"5","X@odata.type":"Edm.Int64"`, Int64(5)},
		{"annotation before the value", `"X@odata.type":"Edm.Int64","X":"-9223372036854775808"`, Int64(math.MinInt64)},
		{"int64 as a number", `"X@odata.type":"Edm.Int64","X":7`, Int64(7)},
		{"double as a string", `"X@odata.type":"Edm.Double","X":"-Infinity"`, Double(math.Inf(-1))},
		{"double INF", `"X@odata.type":"Edm.Double","X":"INF"`, Double(math.Inf(1))},
		{"whole double annotated", `"X@odata.type":"Edm.Double","X":3`, Double(3)},
		{"datetime without fraction", `"X@odata.type":"Edm.DateTime","X":"2014-08-22T00:50:32Z"`, DateTime(time.Date(2014, 8, 22, 0, 50, 32, 0, time.UTC))},
		{"datetime with offset", `"X@odata.type":"Edm.DateTime","X":"2014-08-22T02:50:32.5+02:00"`, DateTime(time.Date(2014, 8, 22, 0, 50, 32, 5e8, time.UTC))},
		{"guid canonical", `"X@odata.type":"Edm.Guid","X":"6F9619FF-8B86-D011-B42D-00CF4FC964FF"`, Value{Type: EdmGuid, Str: "6f9619ff-8b86-d011-b42d-00cf4fc964ff"}},
		{"binary", `"X@odata.type":"Edm.Binary","X":"AAEA"`, Binary([]byte{0, 1, 0})},
		{"explicit string", `"X@odata.type":"Edm.String","X":"5"`, String("5")},
		{"explicit int32", `"X@odata.type":"Edm.Int32","X":5`, Int32(5)},
		{"int32 as a string", `"X@odata.type":"Edm.Int32","X":"5"`, Int32(5)},
		{"boolean as the string true", `"X@odata.type":"Edm.Boolean","X":"true"`, Bool(true)},
		{"boolean as the string false", `"X":"false","X@odata.type":"Edm.Boolean"`, Bool(false)},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			e, err := DecodeEntityJSON([]byte(`{"PartitionKey":"p","RowKey":"r",` + tt.json + `}`))
			if err != nil {
				t.Fatal(err)
			}
			if len(e.Properties) != 1 || e.Properties[0].Name != "X" || !e.Properties[0].Value.Equal(tt.want) {
				t.Errorf("got %#v, want X=%#v", e.Properties, tt.want)
			}
		})
	}
}

func TestDecodeEntityJSONIgnoresMetadataNullsAndTimestamp(t *testing.T) {
	e, err := DecodeEntityJSON([]byte(` {"odata.metadata":"x","odata.etag":"W/\"1\"","Timestamp":"2014-08-22T00:50:32Z",
		"Timestamp@odata.type":"Edm.DateTime","PartitionKey":"p","RowKey":"r","Gone":null,"Gone@odata.type":"Edm.Int64",
		"Kept":1,"Kept@odata.foo":"bar"} `))
	if err != nil {
		t.Fatal(err)
	}
	if !e.Timestamp.IsZero() || len(e.Properties) != 1 || e.Properties[0].Name != "Kept" {
		t.Errorf("got %+v", e)
	}
}

func TestDecodeEntityJSONErrors(t *testing.T) {
	tests := []struct{ json, want string }{
		{``, "at byte 0: expected an entity object {...}, found nothing"},
		{`[1]`, "at byte 0: expected an entity object starting with '{'"},
		{`{"RowKey":"r"}`, "the entity has no PartitionKey"},
		{`{"PartitionKey":"p"}`, "the entity has no RowKey"},
		{`{"X@odata.type":"Edm.Int64"}`, "the entity has no PartitionKey"}, // more annotations than values
		{`{"PartitionKey":1,"RowKey":"r"}`, `property "PartitionKey": must be a string`},
		{`{"PartitionKey":"p","RowKey":"r","X@odata.type":"Edm.Decimal","X":"1"}`, `property "X": unknown @odata.type "Edm.Decimal"`},
		{`{"PartitionKey":"p","RowKey":"r","X@odata.type":"Int64","X":"1"}`, `property "X": unknown @odata.type "Int64"`},
		{`{"PartitionKey":"p","RowKey":"r","X":"1","X@odata.type":""}`, `property "X": unknown @odata.type ""`},
		{`{"PartitionKey":"p","RowKey":"r","X@odata.type":""}`, `property "X": unknown @odata.type ""`},
		{`{"PartitionKey":"p","RowKey":"r","X":null,"X@odata.type":""}`, `property "X": unknown @odata.type ""`},
		{`{"PartitionKey":"p","RowKey":"r","X@odata.type":"Edm.Decimal"}`, `property "X": unknown @odata.type "Edm.Decimal"`},
		{`{"PartitionKey":"p","RowKey":"r","Timestamp@odata.type":""}`, `property "Timestamp": unknown @odata.type ""`},
		{`{"PartitionKey":"p","RowKey":"r","X":9007199254740993}`, `property "X": 9007199254740993 does not fit in Edm.Int32 and a double cannot hold it exactly; annotate it`},
		{`{"PartitionKey":"p","RowKey":"r","X@odata.type":"Edm.Int64","X":"1.5"}`, `property "X": "1.5" is not an Edm.Int64`},
		{`{"PartitionKey":"p","RowKey":"r","X@odata.type":"Edm.Int32","X":2147483648}`, `property "X": "2147483648" is not an Edm.Int32`},
		{`{"PartitionKey":"p","RowKey":"r","X@odata.type":"Edm.Boolean","X":"yes"}`, `property "X": is annotated Edm.Boolean but its value is a string; expected true or false`},
		{`{"PartitionKey":"p","RowKey":"r","X@odata.type":"Edm.Boolean","X":1}`, `property "X": is annotated Edm.Boolean but its value is a number; expected true or false`},
		{`{"PartitionKey":"p","RowKey":"r","X@odata.type":"Edm.Double","X":"abc"}`, `property "X": "abc" is not an Edm.Double`},
		{`{"PartitionKey":"p","RowKey":"r","X@odata.type":"Edm.DateTime","X":"2014-13-01T00:00:00Z"}`, `property "X": bad Edm.DateTime "2014-13-01T00:00:00Z": a field is out of range`},
		{`{"PartitionKey":"p","RowKey":"r","X@odata.type":"Edm.DateTime","X":"1600-12-31T23:59:59Z"}`, `property "X": datetime 1600-12-31T23:59:59Z is outside the range`},
		{`{"PartitionKey":"p","RowKey":"r","X@odata.type":"Edm.Guid","X":"nope"}`, `property "X": "nope" is not a GUID`},
		{`{"PartitionKey":"p","RowKey":"r","X@odata.type":"Edm.Binary","X":"!!"}`, `property "X": the value is not standard base64`},
		{`{"PartitionKey":"p","RowKey":"r","X":{"a":1}}`, `property "X": nested objects and arrays are not entity property values`},
		{`{"PartitionKey":"p","RowKey":"r","X":1,"X":2}`, `property "X": is given twice`},
		{`{"PartitionKey":"p","RowKey":"r"} {}`, "at byte 34: unexpected text after the entity object"},
		{`{"PartitionKey":"p","RowKey":"r"`, "the object is not closed"},
		{`{"PartitionKey":"p","RowKey":"r","X":01}`, "bad number"},
		{`{"PartitionKey":"p","RowKey":"r","X":"a` + "\n" + `"}`, "control character in a string"},
		{`{"PartitionKey":"p","RowKey":"r","X":tru}`, `expected a value for "X"`},
	}
	for _, tt := range tests {
		_, err := DecodeEntityJSON([]byte(tt.json))
		var je *JSONError
		if !errors.As(err, &je) {
			t.Errorf("%s: got %v, want a *JSONError", tt.json, err)
			continue
		}
		if !strings.Contains(err.Error(), tt.want) {
			t.Errorf("%s:\n got %v\nwant %s", tt.json, err, tt.want)
		}
	}
}

func BenchmarkDecodeEntityJSON(b *testing.B) {
	line := []byte(`{"PartitionKey":"p00500","RowKey":"0000500000","Name":"name0176543","Age":38,"Score@odata.type":"Edm.Double","Score":497.5124378109453,"Email":"user0500000@example.com","Note":"note 00500000 lorem ipsum dolor sit amet","Active":false,"Joined@odata.type":"Edm.DateTime","Joined":"2015-09-05T10:20:30Z"}`)
	b.SetBytes(int64(len(line)))
	for b.Loop() {
		if _, err := DecodeEntityJSON(line); err != nil {
			b.Fatal(err)
		}
	}
}

func BenchmarkEntityDecoder(b *testing.B) {
	line := []byte(`{"PartitionKey":"p00500","RowKey":"0000500000","Name":"name0176543","Age":38,"Score@odata.type":"Edm.Double","Score":497.5124378109453,"Email":"user0500000@example.com","Note":"note 00500000 lorem ipsum dolor sit amet","Active":false,"Joined@odata.type":"Edm.DateTime","Joined":"2015-09-05T10:20:30Z"}`)
	b.SetBytes(int64(len(line)))
	var d EntityDecoder
	for b.Loop() {
		if _, err := d.Decode(line); err != nil {
			b.Fatal(err)
		}
	}
}

// A reused decoder gives the same entities as one-off decoding, errors
// included, and shares name strings without mixing them up.
func TestEntityDecoderReuse(t *testing.T) {
	var d EntityDecoder
	docs := []string{
		`{"PartitionKey":"p","RowKey":"1","A":1,"B":"x"}`,
		`{"PartitionKey":"p","RowKey":"2","B":2,"A":"y","C\u0041":true}`,
		`{"PartitionKey":"p","RowKey":3}`,
		`{"PartitionKey":"p","RowKey":"4","A":1,"B":"x"}`,
	}
	for _, doc := range docs {
		want, werr := DecodeEntityJSON([]byte(doc))
		got, gerr := d.Decode([]byte(doc))
		if (werr == nil) != (gerr == nil) || (werr != nil && werr.Error() != gerr.Error()) {
			t.Fatalf("%s: errors differ: %v / %v", doc, werr, gerr)
		}
		if werr != nil {
			continue
		}
		if string(AppendEntityJSON(nil, got)) != string(AppendEntityJSON(nil, want)) {
			t.Errorf("%s: got %s", doc, AppendEntityJSON(nil, got))
		}
	}
}

func BenchmarkAppendEntityJSON(b *testing.B) {
	e, _ := DecodeEntityJSON([]byte(`{"PartitionKey":"p00500","RowKey":"0000500000","Name":"name0176543","Age":38,"Score":497.5124378109453,"Email":"user0500000@example.com","Active":false,"Joined@odata.type":"Edm.DateTime","Joined":"2015-09-05T10:20:30Z"}`))
	e.Timestamp = time.Now()
	var buf []byte
	for b.Loop() {
		buf = AppendEntityJSON(buf[:0], e)
	}
}

func TestValueTextRoundTrips(t *testing.T) {
	guid, _ := Guid("6f9619ff-8b86-d011-b42d-00cf4fc964ff")
	for _, v := range []Value{String(""), String("a,b\n\"c\""), Int32(-5), Int64(math.MinInt64), Double(math.NaN()),
		Double(math.Inf(-1)), Double(0.1), Double(1e300), Bool(true), Bool(false), DateTimeTicks(MinDateTimeTicks),
		DateTimeTicks(MaxDateTimeTicks), guid, Binary([]byte{0, 0, 1})} {
		text := string(AppendValueText(nil, v))
		got, err := ParseValueText("X", v.Type, text)
		if err != nil || !got.Equal(v) {
			t.Errorf("%#v -> %q -> %#v, %v", v, text, got, err)
		}
	}
	if _, err := ParseValueText("Flag", EdmBoolean, "yes"); err == nil || err.Error() != `property "Flag": "yes" is not an Edm.Boolean (true or false)` {
		t.Errorf("got %v", err)
	}
}

// TestDecodeEntityJSONRefusesInvalidText: invalid UTF-8 and lone UTF-16
// surrogates are errors that say where they are (a byte offset in the
// document), never silently replaced by U+FFFD.
func TestDecodeEntityJSONRefusesInvalidText(t *testing.T) {
	const keys = `{"PartitionKey":"p","RowKey":"r",` // 33 bytes: the value of "X" starts at byte 37
	const utf8Fix = "; tables hold only Unicode text: convert the input to UTF-8"
	const pairFix = " is half of a UTF-16 surrogate pair without its other half; tables hold only Unicode text: write the character itself, or both halves as in \\ud83d\\ude00"
	tests := []struct{ json, want string }{
		{keys + "\"X\":\"a\xffb\"}", `at byte 39: invalid UTF-8 in the value of "X" (byte 0xFF)` + utf8Fix},
		{keys + "\"X\":\"a\xff\\nb\"}", `at byte 39: invalid UTF-8 in the value of "X" (byte 0xFF)` + utf8Fix},    // before an escape
		{keys + "\"X\":\"a\\n\xffb\"}", `at byte 41: invalid UTF-8 in the value of "X" (byte 0xFF)` + utf8Fix},    // after an escape
		{keys + "\"X\":\"\xe6\x9d\"}", `at byte 38: invalid UTF-8 in the value of "X" (byte 0xE6)` + utf8Fix},     // cut short
		{keys + "\"X\":\"\xed\xa0\x80\"}", `at byte 38: invalid UTF-8 in the value of "X" (byte 0xED)` + utf8Fix}, // a surrogate in UTF-8
		{keys + "\"X\xff\":1}", `at byte 35: invalid UTF-8 in a property name (byte 0xFF)` + utf8Fix},
		{"{\"PartitionKey\":\"\xc3\",\"RowKey\":\"r\"}", `at byte 17: invalid UTF-8 in the value of "PartitionKey" (byte 0xC3)` + utf8Fix},
		{keys + `"X":"\ud800"}`, `at byte 38: \ud800 in the value of "X"` + pairFix},
		{keys + `"X":"ab\ud800x"}`, `at byte 40: \ud800 in the value of "X"` + pairFix},
		{keys + `"X":"\udc00\ud800"}`, `at byte 38: \udc00 in the value of "X"` + pairFix},
		{keys + `"X":"\ud800\u0041"}`, `at byte 38: \ud800 in the value of "X"` + pairFix},
		{keys + `"X":"\ud800\ud800"}`, `at byte 38: \ud800 in the value of "X"` + pairFix},
		{keys + `"\ud800":1}`, `at byte 34: \ud800 in a property name` + pairFix},
	}
	for _, tt := range tests {
		_, err := DecodeEntityJSON([]byte(tt.json))
		if err == nil || err.Error() != tt.want {
			t.Errorf("%q:\n got  %v\n want %s", tt.json, err, tt.want)
		}
		var d EntityDecoder // the name cache does not let a bad name through
		for range 2 {
			if _, err := d.Decode([]byte(tt.json)); err == nil || err.Error() != tt.want {
				t.Errorf("EntityDecoder %q:\n got  %v\n want %s", tt.json, err, tt.want)
			}
		}
	}
	// A valid pair and U+FFFD written on purpose are text.
	e, err := DecodeEntityJSON([]byte(keys + `"X":"\ud83d\ude00 \ufffd �"}`))
	if err != nil || e.Properties[0].Value.Str != "😀 \uFFFD \uFFFD" {
		t.Errorf("got %+v, %v", e, err)
	}
}

// TestDecodeEntityJSONNumberAndBinaryErrors: number and base64 errors say
// what is wrong and what to write, in the user's terms (no Go package's
// error text).
func TestDecodeEntityJSONNumberAndBinaryErrors(t *testing.T) {
	const keys = `{"PartitionKey":"p","RowKey":"r",`
	const b64 = " (base64 uses A-Z a-z 0-9 + / in groups of four characters, the last group padded with =)"
	tests := []struct{ json, want string }{
		{keys + `"X":-}`, `at byte 38: bad number for "X": expected a digit after '-'`},
		{keys + `"X":-01}`, `at byte 38: bad number for "X": a leading zero must stand alone; write 7, not 07 (the string "07" keeps the zero)`},
		{keys + `"X":1.}`, `at byte 39: bad number for "X": expected a digit after the decimal point, as in 1.0`},
		{keys + `"X":1e+}`, `at byte 40: bad number for "X": expected the digits of the exponent, as in 1e5`},
		{keys + `"X":123456789012345678901234567890}`, `property "X": 123456789012345678901234567890 is beyond the Edm.Int64 range (-9223372036854775808 to 9223372036854775807); store it as a string, or as a rounded Edm.Double written with an exponent (1.5e30)`},
		{keys + `"X":1e999}`, `property "X": 1e999 is outside the Edm.Double range (about ±1.8e308); store it as a string`},
		{keys + `"X@odata.type":"Edm.Double","X":-1e999}`, `property "X": -1e999 is outside the Edm.Double range (about ±1.8e308); store it as a string`},
		{keys + `"X@odata.type":"Edm.Double","X":"1e999"}`, `property "X": 1e999 is outside the Edm.Double range (about ±1.8e308); store it as a string`},
		{keys + `"X@odata.type":"Edm.Double","X":"inf"}`, `property "X": "inf" is not an Edm.Double (a number, "NaN", "Infinity" or "-Infinity")`},
		{keys + `"X@odata.type":"Edm.Int64","X":"0x10"}`, `property "X": "0x10" is not an Edm.Int64 (a whole number from -9223372036854775808 to 9223372036854775807)`},
		{keys + `"X@odata.type":"Edm.Binary","X":"AA!A"}`, `property "X": the value is not standard base64: unexpected '!' at character 3` + b64},
		{keys + `"X@odata.type":"Edm.Binary","X":"AA=A"}`, `property "X": the value is not standard base64: unexpected '=' at character 3` + b64},
		{keys + `"X@odata.type":"Edm.Binary","X":"AAA"}`, `property "X": the value is not standard base64: it ends inside a group of four characters` + b64},
	}
	for _, tt := range tests {
		_, err := DecodeEntityJSON([]byte(tt.json))
		if err == nil || err.Error() != tt.want {
			t.Errorf("%s:\n got  %v\n want %s", tt.json, err, tt.want)
		}
	}
}

// A $select answer carries odata.etag and what it names only: the keys and
// Timestamp when named, a named property the entity lacks as null.
func TestAppendSelectedJSON(t *testing.T) {
	ts := time.Date(2021, 5, 26, 15, 48, 5, 179620100, time.UTC)
	e := &Entity{PartitionKey: "p", RowKey: "r", Timestamp: ts, Properties: []Property{
		{"age", Int32(39)}, {"ratio", Double(3.1)}, {"big", Int64(5)},
	}}
	etag := `"odata.etag":"W/\"datetime'2021-05-26T15%3A48%3A05.1796201Z'\""`
	links := EntityLinks{Metadata: "M", Type: "a.T", ID: "I", EditLink: "E"}
	for _, c := range []struct {
		sel  []string
		m    Metadata
		want string
	}{
		{[]string{"age", "ratio"}, MinimalMetadata, `{"odata.metadata":"M",` + etag + `,"age":39,"ratio":3.1}`},
		{[]string{"ratio", "age"}, NoMetadata, `{"ratio":3.1,"age":39}`},
		{[]string{"missing", "big"}, MinimalMetadata, `{"odata.metadata":"M",` + etag + `,"missing":null,"big@odata.type":"Edm.Int64","big":"5"}`},
		{[]string{"age", "RowKey", "odata.etag"}, NoMetadata, `{"RowKey":"r","age":39}`},
		{[]string{"Timestamp", "PartitionKey"}, FullMetadata, `{"odata.metadata":"M","odata.type":"a.T","odata.id":"I",` + etag + `,"odata.editLink":"E","PartitionKey":"p","Timestamp@odata.type":"Edm.DateTime","Timestamp":"2021-05-26T15:48:05.1796201Z"}`},
		{nil, NoMetadata, `{"PartitionKey":"p","RowKey":"r","Timestamp":"2021-05-26T15:48:05.1796201Z","age":39,"ratio":3.1,"big":"5"}`},
	} {
		if got := string(AppendSelectedJSONAs(nil, e, c.sel, c.m, links)); got != c.want {
			t.Errorf("%v at %s:\n%s\nwant\n%s", c.sel, c.m, got, c.want)
		}
	}
}

// An entity without a key is PropertiesNeedValue, as the service answers.
func TestDecodeErrorCode(t *testing.T) {
	for _, c := range []struct {
		json    string
		code    Code
		missing string
	}{
		{`{"RowKey":"r"}`, CodePropertiesNeedValue, PartitionKey},
		{`{"PartitionKey":"p","A":1}`, CodePropertiesNeedValue, RowKey},
		{`{"PartitionKey":"p","RowKey":"r","A":}`, CodeInvalidInput, ""},
	} {
		_, err := DecodeEntityJSON([]byte(c.json))
		var je *JSONError
		if DecodeErrorCode(err) != c.code || !errors.As(err, &je) || je.Missing != c.missing {
			t.Errorf("%s: %v (code %s), want %s missing %q", c.json, err, DecodeErrorCode(err), c.code, c.missing)
		}
	}
}
