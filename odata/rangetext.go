package odata

import "strings"

// String describes the range for people, in the filter's own terms:
//
//	the whole table
//	PartitionKey = 'Sales'
//	PartitionKey = 'Sales', RowKey = '00010'
//	PartitionKey = 'Sales', RowKey in ['S', 'T')
//	PartitionKey = 'Sales', RowKey >= 'S'
//	PartitionKey in ['A', 'C')
//	keys from ('A', 'x') through ('C', 'y')
//
// Square brackets include an end, round ones exclude it.
func (r KeyRange) String() string {
	lo, hi := r.Lower, r.Upper
	if lo == nil && hi == nil {
		return "the whole table"
	}
	q := func(s string) string { return formatLiteral(String(s)) }
	// One partition, possibly narrowed by RowKey.
	if lo != nil && hi != nil && lo.PartitionKey == hi.PartitionKey && (lo.HasRowKey || lo.Inclusive) && (hi.HasRowKey || hi.Inclusive) {
		pk := "PartitionKey = " + q(lo.PartitionKey)
		switch {
		case !lo.HasRowKey && !hi.HasRowKey:
			return pk
		case lo.HasRowKey && hi.HasRowKey && lo.RowKey == hi.RowKey && lo.Inclusive && hi.Inclusive:
			return pk + ", RowKey = " + q(lo.RowKey)
		case lo.HasRowKey && hi.HasRowKey:
			return pk + ", RowKey in " + bracket(lo.Inclusive, true) + q(lo.RowKey) + ", " + q(hi.RowKey) + bracket(hi.Inclusive, false)
		case lo.HasRowKey:
			return pk + ", RowKey " + cmpSym(lo.Inclusive, true) + " " + q(lo.RowKey)
		default:
			return pk + ", RowKey " + cmpSym(hi.Inclusive, false) + " " + q(hi.RowKey)
		}
	}
	// Whole partitions only.
	if (lo == nil || !lo.HasRowKey) && (hi == nil || !hi.HasRowKey) {
		switch {
		case lo == nil:
			return "PartitionKey " + cmpSym(hi.Inclusive, false) + " " + q(hi.PartitionKey)
		case hi == nil:
			return "PartitionKey " + cmpSym(lo.Inclusive, true) + " " + q(lo.PartitionKey)
		}
		return "PartitionKey in " + bracket(lo.Inclusive, true) + q(lo.PartitionKey) + ", " + q(hi.PartitionKey) + bracket(hi.Inclusive, false)
	}
	var b strings.Builder
	b.WriteString("keys ")
	if lo != nil {
		b.WriteString("from " + boundText(lo, q))
		if !lo.Inclusive {
			b.WriteString(" (excluded)")
		}
	} else {
		b.WriteString("from the start")
	}
	if hi != nil {
		if hi.Inclusive {
			b.WriteString(" through ")
		} else {
			b.WriteString(" up to ")
		}
		b.WriteString(boundText(hi, q))
	} else {
		b.WriteString(" to the end")
	}
	return b.String()
}

func boundText(b *Bound, q func(string) string) string {
	if !b.HasRowKey {
		return "partition " + q(b.PartitionKey)
	}
	return "(" + q(b.PartitionKey) + ", " + q(b.RowKey) + ")"
}

func bracket(inclusive, lower bool) string {
	switch {
	case lower && inclusive:
		return "["
	case lower:
		return "("
	case inclusive:
		return "]"
	}
	return ")"
}

func cmpSym(inclusive, lower bool) string {
	switch {
	case lower && inclusive:
		return ">="
	case lower:
		return ">"
	case inclusive:
		return "<="
	}
	return "<"
}
