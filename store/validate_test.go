package store

import (
	"strings"
	"testing"

	"github.com/tstable/tstable/backend"
	"github.com/tstable/tstable/odata"
)

func TestWriteRefusesBadInput(t *testing.T) {
	db, _ := openTemp(t)
	newTable(t, db, "Tbl")
	big := strings.Repeat("x", 32*1024+1) // 64 KiB + 2 bytes as UTF-16
	many := make([]odata.Property, 253)
	for i := range many {
		many[i] = prop("P"+strings.Repeat("a", i%5)+string(rune('A'+i%26))+strings.Repeat("b", i/26), odata.Int32(1))
	}
	huge := make([]odata.Property, 20)
	for i := range huge {
		huge[i] = prop("P"+string(rune('a'+i)), odata.Binary(make([]byte, 60000)))
	}
	cases := []struct {
		name  string
		e     *odata.Entity
		code  odata.Code
		inMsg string
	}{
		{"slash in PK", ent("a/b", "r"), odata.CodeOutOfRangeInput, `'/'`},
		{"backslash in RK", ent("p", `a\b`), odata.CodeOutOfRangeInput, `RowKey`},
		{"hash", ent("p#", "r"), odata.CodeOutOfRangeInput, "character 2"},
		{"question", ent("p", "r?"), odata.CodeOutOfRangeInput, `'?'`},
		{"tab", ent("p\t", "r"), odata.CodeOutOfRangeInput, "U+0009"},
		{"DEL", ent("p", "r\u007f"), odata.CodeOutOfRangeInput, "U+007F"},
		{"C1 control", ent("p", "r\u0085"), odata.CodeOutOfRangeInput, "U+0085"},
		{"long key", ent(strings.Repeat("k", 1025), "r"), odata.CodeOutOfRangeInput, "1025"},
		{"dash in name", ent("p", "r", prop("first-name", odata.String("x"))), odata.CodePropertyNameInvalid, "first-name"},
		{"digit first", ent("p", "r", prop("1st", odata.String("x"))), odata.CodePropertyNameInvalid, "1st"},
		{"system name", ent("p", "r", prop("RowKey", odata.String("x"))), odata.CodePropertyNameInvalid, "RowKey"},
		{"long name", ent("p", "r", prop(strings.Repeat("n", 256), odata.String("x"))), odata.CodePropertyNameTooLong, "256"},
		{"string too large", ent("p", "r", prop("S", odata.String(big))), odata.CodePropertyValueTooLarge, "property S"},
		{"binary too large", ent("p", "r", prop("B", odata.Binary(make([]byte, 65537)))), odata.CodePropertyValueTooLarge, "property B"},
		{"too many", ent("p", "r", many...), odata.CodeTooManyProperties, "253"},
		{"entity too large", ent("p", "r", huge...), odata.CodeEntityTooLarge, "1 MiB"},
		{"int32 overflow", ent("p", "r", prop("I", odata.Value{Type: odata.EdmInt32, Int: 1 << 40})), odata.CodeOutOfRangeInput, "property I"},
		{"date before 1601", ent("p", "r", prop("D", odata.DateTimeTicks(odata.MinDateTimeTicks-1))), odata.CodeOutOfRangeInput, "property D"},
		{"no type", ent("p", "r", prop("X", odata.Value{})), odata.CodeInvalidValueType, "property X"},
		{"duplicate", ent("p", "r", prop("A", odata.Int32(1)), prop("A", odata.Int32(2))), odata.CodeInvalidInput, "twice"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			_, err := db.Write(ctx, "Tbl", backend.Operation{Kind: backend.OpInsertOrReplace, Entity: c.e})
			e := wantCode(t, err, c.code, 400)
			if !strings.Contains(e.Message, c.inMsg) {
				t.Errorf("message %q does not mention %q", e.Message, c.inMsg)
			}
		})
	}
	if n := len(dump(t, db, "Tbl")); n != 0 {
		t.Fatalf("refused writes left %d entities", n)
	}
}

func TestLimitsAreInclusive(t *testing.T) {
	db, _ := openTemp(t)
	newTable(t, db, "Tbl")
	props := make([]odata.Property, 252)
	for i := range props {
		props[i] = prop("P"+strings.Repeat("z", i), odata.Bool(true))
	}
	mustWrite(t, db, "Tbl", backend.OpInsert, ent(strings.Repeat("k", 1024), "", props...))
	mustWrite(t, db, "Tbl", backend.OpInsert, ent("p", "r", prop("S", odata.String(strings.Repeat("x", 32*1024))), prop("B", odata.Binary(make([]byte, 65536)))))
	mustWrite(t, db, "Tbl", backend.OpInsert, ent("", "", prop("Ünïcode_name", odata.String("ok"))))
}

func TestSuppliedTimestampIsIgnored(t *testing.T) {
	db, _ := openTemp(t)
	newTable(t, db, "Tbl")
	out := mustWrite(t, db, "Tbl", backend.OpInsert, ent("p", "r", prop("Timestamp", odata.String("2000-01-01")), prop("A", odata.Int32(1))))
	got, _ := db.Get(ctx, "Tbl", "p", "r")
	if len(got.Properties) != 1 || got.Properties[0].Name != "A" || !got.Timestamp.Equal(out.Timestamp) {
		t.Fatalf("stored %+v", got)
	}
}
