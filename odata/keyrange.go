package odata

// Key is a position in the table's order: (PartitionKey, RowKey), each
// compared ordinally (see Order). It is what a continuation resumes from.
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

// CompareKeys orders two keys as the service's tables do: by
// PartitionKey, then RowKey, both by UTF-16 code units (see Order; a file
// of format 1 orders by code point: CodePoint.CompareKeys).
func CompareKeys(a, b Key) int { return UTF16.CompareKeys(a, b) }

// Contains reports whether k lies inside r, in the service's order.
func (r KeyRange) Contains(k Key) bool { return r.ContainsIn(k, UTF16) }

// ContainsIn reports whether k lies inside r, keys compared in order o.
func (r KeyRange) ContainsIn(k Key, o Order) bool {
	if b := r.Lower; b != nil {
		c := o.Compare(k.PartitionKey, b.PartitionKey)
		if c < 0 {
			return false
		}
		if c == 0 {
			if !b.HasRowKey {
				if !b.Inclusive {
					return false
				}
			} else if r := o.Compare(k.RowKey, b.RowKey); r < 0 || (r == 0 && !b.Inclusive) {
				return false
			}
		}
	}
	if b := r.Upper; b != nil {
		c := o.Compare(k.PartitionKey, b.PartitionKey)
		if c > 0 {
			return false
		}
		if c == 0 {
			if !b.HasRowKey {
				if !b.Inclusive {
					return false
				}
			} else if r := o.Compare(k.RowKey, b.RowKey); r > 0 || (r == 0 && !b.Inclusive) {
				return false
			}
		}
	}
	return true
}
