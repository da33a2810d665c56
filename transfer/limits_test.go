package transfer

import (
	"encoding/csv"
	"errors"
	"fmt"
	"io"
	"reflect"
	"strings"
	"testing"

	"github.com/tstable/tstable/odata"
)

// endless is a reader of 'x' (a line that never ends), counting what was
// read from it; it fails far past the cap, so that a reader that keeps
// the whole line fails instead of reading for ever.
type endless struct{ read int64 }

func (e *endless) Read(p []byte) (int, error) {
	if e.read > MaxRowBytes+32<<20 {
		return 0, errors.New("read far past the cap")
	}
	for i := range p {
		p[i] = 'x'
	}
	e.read += int64(len(p))
	return len(p), nil
}

// readAheadAllowed is what a refused row may have been read past the cap:
// the input's buffer.
const readAheadAllowed = 2 << 20

// A row longer than 8 MiB is refused as soon as the cap is passed, with
// its line, however long it is: the source reads no more than the cap and
// a buffer of it (a line that never ends is refused too). The rows before
// it are delivered; a JSONL import going on past bad rows skips it and
// goes on with the next line, a CSV import cannot (where the next row
// begins is not known) and stops.
func TestImportRefusesARowPastTheCap(t *testing.T) {
	cases := []struct {
		name, head string
		csv        bool
		from, line int64 // the row's line, and where it passed the cap
	}{
		{"jsonl", "{\"PartitionKey\":\"a\",\"RowKey\":\"1\"}\n\n{\"PartitionKey\":\"a\",\"RowKey\":\"2\",\"V\":\"", false, 3, 3},
		{"csv", "PartitionKey,RowKey,V\na,1,x\n\na,2,", true, 4, 4},
		{"csv quoted", "PartitionKey,RowKey,V\na,1,x\na,2,\"", true, 3, 3},
		{"csv quote left open", "PartitionKey,RowKey,V\na,1,x\na,2,\"" + strings.Repeat(strings.Repeat("y", 1000)+"\n", 9000), true, 3, 8383},
	}
	for _, c := range cases {
		for _, keepGoing := range []bool{false, true} {
			if keepGoing && !c.csv {
				continue // it reads on to the line's end, which never comes (see TestImportSkipsALongJSONLLine)
			}
			t.Run(fmt.Sprintf("%s keep going %v", c.name, keepGoing), func(t *testing.T) {
				tail := &endless{}
				var got []string
				var stopped error
				var stopLine int64
				rowError := func(line int64, err error) error { stopLine = line; return err }
				reject := func(line int64, err error) { t.Errorf("rejected line %d: %v", line, err) }
				faults := &rowFaults{keepGoing: keepGoing, reject: reject, stop: rowError}
				var src func() (*odata.Entity, error)
				if c.csv {
					s, err := newCSVSource(io.MultiReader(strings.NewReader(c.head), tail), "in", &lineIndex{}, faults)
					if err != nil {
						t.Fatal(err)
					}
					src = s.next
				} else {
					s := newJSONLSource(io.MultiReader(strings.NewReader(c.head), tail), &lineIndex{}, faults)
					defer s.stop()
					src = s.next
				}
				for {
					e, err := src()
					if err != nil {
						stopped = err
						break
					}
					got = append(got, e.RowKey)
				}
				var long *rowTooLong
				if !errors.As(stopped, &long) || stopLine != c.from || long.from != c.from || long.line != c.line || long.final != c.csv {
					t.Fatalf("stopped by %v at line %d; want the row of line %d refused at line %d", stopped, stopLine, c.from, c.line)
				}
				if !reflect.DeepEqual(got, []string{"1"}) {
					t.Errorf("delivered %v, want the row before it", got)
				}
				if tail.read > MaxRowBytes+readAheadAllowed {
					t.Errorf("read %d bytes of the endless line; the cap is %d", tail.read, MaxRowBytes)
				}
			})
		}
	}
}

// Going on past bad rows, a JSONL line over the cap is rejected with its
// number and skipped, without being kept, and the lines after it are read
// with theirs.
func TestImportSkipsALongJSONLLine(t *testing.T) {
	in := "{\"PartitionKey\":\"a\",\"RowKey\":\"1\"}\n{\"V\":\"" + strings.Repeat("x", MaxRowBytes+5<<20) + "\"}\n\n{\"PartitionKey\":\"a\",\"RowKey\":\"2\"}\n"
	var rejected []int64
	var lines lineIndex
	src := newJSONLSource(strings.NewReader(in), &lines, &rowFaults{keepGoing: true,
		reject: func(line int64, err error) {
			var long *rowTooLong
			if !errors.As(err, &long) {
				t.Errorf("line %d rejected for %v", line, err)
			}
			rejected = append(rejected, line)
		},
		stop: func(line int64, err error) error { return err }})
	defer src.stop()
	var got []string
	for {
		e, err := src.next()
		if errors.Is(err, io.EOF) {
			break
		}
		if err != nil {
			t.Fatal(err)
		}
		got = append(got, fmt.Sprintf("%s@%d", e.RowKey, lines.line(int64(len(got)))))
	}
	if !reflect.DeepEqual(got, []string{"1@1", "2@4"}) || !reflect.DeepEqual(rejected, []int64{2}) {
		t.Fatalf("delivered %v, rejected lines %v; want 1@1 and 2@4, line 2 rejected", got, rejected)
	}
}

// The CSV reader under the cap reads what encoding/csv reads alone, row
// for row, with the same lines and errors.
func FuzzRowCapReaderIsTransparent(f *testing.F) {
	f.Add("a,b\n\"c\nd\",e\r\n\n\nf,\"g\"\"\"\n")
	f.Add("a,\"b\n")
	f.Add("\n\r\n,\n\"\"")
	f.Fuzz(func(t *testing.T, data string) {
		read := func(r io.Reader, next func()) []string {
			cr := csv.NewReader(r)
			cr.FieldsPerRecord = -1
			var out []string
			for range 1000 {
				rec, err := cr.Read()
				if next != nil {
					next()
				}
				line, col := 0, 0
				if err == nil && len(rec) > 0 {
					line, col = cr.FieldPos(0)
				}
				out = append(out, fmt.Sprintf("%q %d:%d %v", rec, line, col, err))
				if err == io.EOF {
					break
				}
			}
			return out
		}
		capped := newRowCapReader(strings.NewReader(data))
		if a, b := read(strings.NewReader(data), nil), read(capped, capped.nextRow); !reflect.DeepEqual(a, b) {
			t.Fatalf("alone:\n%s\ncapped:\n%s", strings.Join(a, "\n"), strings.Join(b, "\n"))
		}
	})
}
