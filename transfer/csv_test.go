package transfer

import (
	"bufio"
	"bytes"
	"errors"
	"io"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/tstable/tstable/odata"
)

var employeesPath = filepath.Join("..", "testdata", "employees.jsonl")

// testCSV reads CSV as an import would, calling fail for a row that
// stops it and keeping the rejected lines.
func testCSV(t testing.TB, data io.Reader, keepGoing bool, fail func(int64, error) error) (*csvSource, error) {
	return newCSVSource(data, "test", &lineIndex{}, &rowFaults{keepGoing: keepGoing, reject: func(int64, error) {}, stop: fail})
}

// What the CSV writer writes, the CSV reader reads back: every Edm type,
// extremes included, with the header carrying the types. (An empty String
// is the one thing CSV cannot carry: it reads back as an absent property.)
func TestCSVRoundTrip(t *testing.T) {
	data, err := os.ReadFile(employeesPath)
	if err != nil {
		t.Fatal(err)
	}
	var ents []*odata.Entity
	sc := bufio.NewScanner(bytes.NewReader(data))
	sc.Buffer(nil, 1<<20)
	for sc.Scan() {
		e, err := odata.DecodeEntityJSON(sc.Bytes())
		if err != nil {
			t.Fatal(err)
		}
		for _, p := range e.Properties {
			if p.Value.Type == odata.EdmString && p.Value.Str == "" {
				e.Delete(p.Name)
			}
		}
		ents = append(ents, e)
	}
	var buf bytes.Buffer
	cw, err := NewWriter(&buf, Columns(ents))
	if err != nil {
		t.Fatal(err)
	}
	for _, e := range ents {
		if err := cw.Write(e); err != nil {
			t.Fatal(err)
		}
	}
	if err := cw.Flush(); err != nil {
		t.Fatal(err)
	}
	fail := func(line int64, err error) error { t.Fatalf("line %d: %v", line, err); return err }
	src, err := testCSV(t, &buf, false, fail)
	if err != nil {
		t.Fatal(err)
	}
	for i := 0; ; i++ {
		got, err := src.next()
		if errors.Is(err, io.EOF) {
			if i != len(ents) {
				t.Fatalf("read %d entities back, wrote %d", i, len(ents))
			}
			return
		}
		if err != nil {
			t.Fatal(err)
		}
		want := ents[i]
		if a, b := string(odata.AppendEntityJSON(nil, got)), string(odata.AppendEntityJSON(nil, want)); a != b {
			t.Fatalf("entity %d differs after CSV:\n got %s\nwant %s", i, a, b)
		}
	}
}

// FuzzCSVSource reads arbitrary CSV as import does: never a panic, and
// every entity it yields is one the codec can write and read back.
func FuzzCSVSource(f *testing.F) {
	f.Add("PartitionKey,RowKey,Age@Edm.Int32,Name\na,b,3,x\n")
	f.Add("PartitionKey,RowKey,When@DateTime,Raw@Binary\na,b,2024-01-02T03:04:05Z,AAEC\n")
	f.Add("PartitionKey,RowKey,N@Edm.Int64\n\"a\"\"\",b,9223372036854775807\n")
	f.Add("RowKey,PartitionKey\n\xff,\xfe\n")
	f.Fuzz(func(t *testing.T, data string) {
		src, err := testCSV(t, strings.NewReader(data), true, func(_ int64, err error) error { return err })
		if err != nil {
			return
		}
		for range 1000 {
			e, err := src.next()
			if err != nil {
				return
			}
			if odata.ValidateEntity(e) != nil {
				continue // the store refuses it, with its reason
			}
			back, err := odata.DecodeEntityJSON(odata.AppendEntityJSON(nil, e))
			if err != nil {
				t.Fatalf("an entity read from CSV does not survive JSON: %v\n%q", err, data)
			}
			if a, b := string(odata.AppendEntityJSON(nil, back)), string(odata.AppendEntityJSON(nil, e)); a != b {
				t.Fatalf("CSV entity changes through JSON:\n%s\n%s", a, b)
			}
		}
	})
}
