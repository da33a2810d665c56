package transfer

import (
	"fmt"
	"sort"
	"strconv"
)

// lineIndex maps an entity's 0-based position in the source to its line,
// storing only the positions where the two stop moving together (after a
// blank or rejected line).
type lineIndex struct {
	at    []int64 // positions, ascending
	delta []int64 // line - position from at[i] on
}

// record says that the entity at position n is on line.
func (x *lineIndex) record(n, line int64) {
	if k := len(x.delta); k > 0 && x.delta[k-1] == line-n {
		return
	}
	x.at = append(x.at, n)
	x.delta = append(x.delta, line-n)
}

// line is the line of the entity at position n.
func (x *lineIndex) line(n int64) int64 {
	i := sort.Search(len(x.at), func(i int) bool { return x.at[i] > n }) - 1
	if i < 0 {
		return n + 1
	}
	return n + x.delta[i]
}

// rowFaults is what a source does with a row that does not parse: with
// keepGoing, reject it and go on; else stop with the error of its line.
type rowFaults struct {
	keepGoing bool
	reject    func(line int64, err error)
	stop      func(line int64, err error) error
}

// bad handles a row that does not parse: nil goes on to the next row.
func (r *rowFaults) bad(line int64, err error) error {
	if r.keepGoing {
		r.reject(line, err)
		return nil
	}
	return r.stop(line, err)
}

// itoa writes n in decimal.
func itoa(n int64) string { return strconv.FormatInt(n, 10) }

// MaxRowBytes bounds what is read for one entity: a JSONL line or a CSV
// row of an import (and, on the command line, an entity on standard input
// or a line of a batch). It is well above the service's 1 MiB entity
// limit, so the store can say what is too large, and low enough that a
// runaway line does not take the machine's memory.
const MaxRowBytes = 8 << 20

// rowTooLong is a row of an import's input longer than MaxRowBytes,
// refused as soon as the cap is passed: the rest of it is not read.
type rowTooLong struct {
	from, line int64 // the line the row begins on, and the one where it passed the cap
	final      bool  // the import cannot go on past it: where the next row begins is not known (CSV)
}

func (e *rowTooLong) Error() string {
	msg := fmt.Sprintf("the line is longer than %d bytes, the most tstable reads for one row (an entity is at most 1 MiB)", MaxRowBytes)
	if e.line != e.from {
		msg = fmt.Sprintf("the row that begins on this line is longer than %d bytes by line %d (a quoted field left open?), the most tstable reads for one row", MaxRowBytes, e.line)
	}
	if e.final {
		msg += ", and the import cannot go on past it"
	}
	return msg
}
