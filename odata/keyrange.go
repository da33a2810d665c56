package odata

// Key is a position in the table's order: (PartitionKey, RowKey), each
// compared ordinally. It is what a continuation resumes from.
type Key struct {
	PartitionKey string
	RowKey       string
}

// Bound is one end of a KeyRange.
//
// With HasRowKey false the bound is a whole partition: as a lower bound,
// Inclusive means "from the first entity of PartitionKey" and !Inclusive
// "from the first entity after that partition"; as an upper bound, Inclusive
// means "through the last entity of PartitionKey" and !Inclusive "up to,
// not including, that partition". With HasRowKey true the bound is the exact
// key (PartitionKey, RowKey), included or not.
type Bound struct {
	PartitionKey string
	RowKey       string
	HasRowKey    bool
	Inclusive    bool
}

// KeyRange is a contiguous run of keys in table order. A nil Lower starts at
// the beginning of the table, a nil Upper runs to its end.
type KeyRange struct {
	Lower *Bound
	Upper *Bound
}

// FullRange is the whole table.
func FullRange() KeyRange { return KeyRange{} }

// PointRange is the single key (pk, rk).
func PointRange(pk, rk string) KeyRange {
	return KeyRange{
		Lower: &Bound{PartitionKey: pk, RowKey: rk, HasRowKey: true, Inclusive: true},
		Upper: &Bound{PartitionKey: pk, RowKey: rk, HasRowKey: true, Inclusive: true},
	}
}

// PartitionRange is every key of partition pk.
func PartitionRange(pk string) KeyRange {
	return KeyRange{
		Lower: &Bound{PartitionKey: pk, Inclusive: true},
		Upper: &Bound{PartitionKey: pk, Inclusive: true},
	}
}

// CompareKeys orders two keys as the table does: by PartitionKey, then
// RowKey, both by ordinal (UTF-8 byte, i.e. code point) order.
func CompareKeys(a, b Key) int {
	switch {
	case a.PartitionKey < b.PartitionKey:
		return -1
	case a.PartitionKey > b.PartitionKey:
		return 1
	case a.RowKey < b.RowKey:
		return -1
	case a.RowKey > b.RowKey:
		return 1
	}
	return 0
}

// Contains reports whether k lies inside r.
func (r KeyRange) Contains(k Key) bool {
	if b := r.Lower; b != nil {
		if k.PartitionKey < b.PartitionKey {
			return false
		}
		if k.PartitionKey == b.PartitionKey {
			if !b.HasRowKey {
				if !b.Inclusive {
					return false
				}
			} else if k.RowKey < b.RowKey || (k.RowKey == b.RowKey && !b.Inclusive) {
				return false
			}
		}
	}
	if b := r.Upper; b != nil {
		if k.PartitionKey > b.PartitionKey {
			return false
		}
		if k.PartitionKey == b.PartitionKey {
			if !b.HasRowKey {
				if !b.Inclusive {
					return false
				}
			} else if k.RowKey > b.RowKey || (k.RowKey == b.RowKey && !b.Inclusive) {
				return false
			}
		}
	}
	return true
}
