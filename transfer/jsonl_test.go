package transfer

import (
	"errors"
	"fmt"
	"io"
	"strings"
	"testing"
)

// The decoders deliver the entities in input order, with their lines,
// across many chunks; a bad line stops the source there.
func TestJSONLSourceKeepsOrderAcrossChunks(t *testing.T) {
	const n = 5000
	var b strings.Builder
	for i := 0; i < n; i++ {
		if i%700 == 0 {
			b.WriteString("\n") // a blank line: lines and positions part
		}
		fmt.Fprintf(&b, `{"PartitionKey":"p","RowKey":"%05d"}`+"\n", i)
		if i == 4321 {
			b.WriteString("{not json\n")
		}
	}
	for _, keepGoing := range []bool{true, false} {
		var lines lineIndex
		var rejected []int64
		stopAt := errors.New("bad row")
		src := newJSONLSource(strings.NewReader(b.String()), &lines, &rowFaults{keepGoing: keepGoing,
			reject: func(line int64, err error) { rejected = append(rejected, line) },
			stop:   func(line int64, err error) error { return fmt.Errorf("line %d: %w", line, stopAt) }})
		got := 0
		var err error
		for {
			e, serr := src.next()
			if serr != nil {
				err = serr
				break
			}
			if want := fmt.Sprintf("%05d", got); e.RowKey != want {
				t.Fatalf("entity %d is %s, want %s", got, e.RowKey, want)
			}
			want := int64(got + 1 + got/700 + 1) // the lines before it: the entities, the blank ones
			if got > 4321 {
				want++ // and the bad one
			}
			if lines.line(int64(got)) != want {
				t.Fatalf("entity %d is on line %d, want %d", got, lines.line(int64(got)), want)
			}
			got++
		}
		src.stop()
		const badLine = 4321 + 4321/700 + 1 + 1 + 1
		if keepGoing {
			if !errors.Is(err, io.EOF) || got != n || len(rejected) != 1 || rejected[0] != badLine {
				t.Fatalf("keep going: %d entities, end %v, rejected %v (want line %d)", got, err, rejected, badLine)
			}
			continue
		}
		if !errors.Is(err, stopAt) || got != 4322 || !strings.Contains(err.Error(), fmt.Sprintf("line %d:", badLine)) {
			t.Fatalf("stop: %d entities, end %v", got, err)
		}
	}
}
